//===- FieldJson.cpp - the field file of SPEC.md §6 -----------------------===//

#include "lib/Eval/FieldJson.h"
#include "dialect/IMetaSymbols.h"

#include "llvm/ADT/StringMap.h"

using namespace imeta;

/// Writes a field as llvm::json prints its value (compact), straight from
/// its data: a tree of json::Values first took about 80 bytes and a copy a
/// value, seconds and gigabytes for a large block table.
static void printField(llvm::raw_ostream &os, const FieldValue &value) {
  auto scalar = [&](int64_t v) {
    if (value.isBool)
      os << (v ? "true" : "false");
    else
      os << v;
  };
  auto row = [&](size_t p) {
    os << '[';
    for (unsigned c = 0; c < value.width; ++c) {
      if (c)
        os << ',';
      scalar(value.data[p * value.width + c]);
    }
    os << ']';
  };
  bool flat = value.width == 1 && !value.hasCols;
  // A scalar field is one point: a number, or one row of K.
  if (value.domain == Domain::scalar && !value.isPrefix) {
    flat ? scalar(value.data.front()) : row(0);
    return;
  }
  // One value a point prints flat, except a `cols` field: its rows are
  // lists whatever its run-time column count (the generated driver's form).
  os << '[';
  for (size_t p = 0; p < value.numPoints(); ++p) {
    if (p)
      os << ',';
    flat ? scalar(value.data[p]) : row(p);
  }
  os << ']';
}

void imeta::printFieldFile(llvm::raw_ostream &os,
                           llvm::ArrayRef<OutputValue> outputs) {
  os << "{";
  for (auto [i, out] : llvm::enumerate(outputs)) {
    os << (i ? ",\n " : "\n ") << llvm::json::Value(out.name) << ": ";
    printField(os, *out.value);
  }
  os << "\n}\n";
}

llvm::Error imeta::padToCapacity(PathOp path, int64_t capacity,
                                 std::vector<OutputValue> &outputs,
                                 std::vector<FieldValue> &padded) {
  llvm::StringMap<int64_t> fills;
  for (OutputOp out : getPathOutputs(path))
    if (std::optional<int64_t> fill = out.getFill())
      fills[out.getName()] = *fill;
  padded.reserve(outputs.size()); // the outputs point into it
  for (OutputValue &out : outputs) {
    auto fill = fills.find(outputBaseName(out.name));
    if (fill == fills.end() || int64_t(out.value->points) >= capacity)
      continue;
    if (!holdsRows(capacity, out.value->width))
      return llvm::createStringError(
          "output '" + out.name + "': " + std::to_string(capacity) +
          " rows of " + std::to_string(out.value->width) +
          " values, more than the evaluator holds (2^28)");
    FieldValue &copy = padded.emplace_back(*out.value);
    padPoints(copy, capacity, fill->second);
    out.value = &copy;
  }
  return llvm::Error::success();
}
