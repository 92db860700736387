//===- FieldJson.cpp - the field file of SPEC.md §6 -----------------------===//

#include "lib/Eval/FieldJson.h"

using namespace imeta;

llvm::json::Value imeta::toJson(const FieldValue &value) {
  auto scalar = [&](int64_t v) -> llvm::json::Value {
    if (value.isBool)
      return v != 0;
    return v;
  };
  auto row = [&](size_t p) {
    llvm::json::Array values;
    for (unsigned c = 0; c < value.width; ++c)
      values.push_back(scalar(value.data[p * value.width + c]));
    return values;
  };
  // A scalar field is one point: a number, or one row of K.
  if (value.domain == Domain::scalar && !value.isPrefix)
    return value.width == 1 ? scalar(value.data.front())
                            : llvm::json::Value(row(0));
  // One value a point prints flat, except a `cols` field: its rows are
  // lists whatever its run-time column count (the generated driver's form).
  llvm::json::Array rows;
  for (size_t p = 0; p < value.numPoints(); ++p) {
    if (value.width == 1 && !value.hasCols)
      rows.push_back(scalar(value.data[p]));
    else
      rows.push_back(row(p));
  }
  return rows;
}

void imeta::printFieldFile(llvm::raw_ostream &os,
                           llvm::ArrayRef<OutputValue> outputs) {
  os << "{";
  for (auto [i, out] : llvm::enumerate(outputs)) {
    os << (i ? ",\n " : "\n ") << llvm::json::Value(out.name) << ": "
       << toJson(*out.value);
  }
  os << "\n}\n";
}
