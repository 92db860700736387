//===- Resolve.cpp - a path's inputs resolved from the given batch --------===//
//
// imeta.resolve: in a path, an input is a field computed on the batch as
// given (a seq field for a scalar input, a rows field for a list input),
// e.g. request state read at each sequence's slot (SPEC-async.md §3). The
// evaluator computes those fields, writes their values into a copy of
// the batch as the inputs' values, and evaluates everything else on the
// copy, as if a batch file had given them. Their `min` is checked there,
// in a batch file's words.
//
//===----------------------------------------------------------------------===//

#include "lib/Eval/Evaluator.h"
#include "dialect/IMetaSymbols.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace imeta;
using llvm::formatv;

static llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// "sequence I: NAME = X breaks NAME >= MIN (RULE)" where a resolved value
/// breaks its input's `min`, as parseBatch says it of a batch file's.
static llvm::Error checkMin(InputOp in, size_t seq, int64_t value,
                            std::optional<size_t> index) {
  std::optional<uint64_t> min = in.getMin();
  if (!min || value >= int64_t(*min))
    return llvm::Error::success();
  std::string what = in.getSymName().str();
  if (index)
    what += formatv("[{0}]", *index).str();
  return fail(formatv("sequence {0}: {1} = {2} breaks {3} >= {4}{5}", seq,
                      what, value, in.getSymName(), int64_t(*min),
                      in.getRule() ? " (" + in.getRule()->str() + ")" : ""));
}

llvm::Error Evaluator::resolveInputs(PathOp path) {
  auto out = std::make_unique<Batch>(*batch);
  for (ResolveOp r : getPathResolves(path)) {
    auto in = lookupSpecSymbol<InputOp>(r, r.getInputAttr());
    auto field = lookupSpecSymbol<FieldOp>(r, r.getFieldAttr());
    auto value = evaluate(field, 0);
    if (!value)
      return value.takeError();
    const std::vector<int64_t> &data = (*value)->data;
    if (field.getDomain() == Domain::seq) {
      for (auto [i, seq] : llvm::enumerate(out->sequences)) {
        seq.scalars[in.getSymName()] = data[i];
        if (llvm::Error err = checkMin(in, i, data[i], std::nullopt))
          return err;
      }
      continue;
    }
    // A rows field: sequence i's rows are its list, in batch order.
    auto counts = evaluate(lookup(field.getCountAttr()), 0);
    if (!counts)
      return counts.takeError();
    size_t at = 0;
    for (auto [i, seq] : llvm::enumerate(out->sequences)) {
      size_t n = size_t((*counts)->data[i]);
      std::vector<int64_t> &list = seq.lists[in.getSymName()];
      list.assign(data.begin() + at, data.begin() + at + n);
      at += n;
      for (auto [k, x] : llvm::enumerate(list))
        if (llvm::Error err = checkMin(in, i, x, k))
          return err;
    }
  }
  // Every field from here on is the resolved batch's.
  resolved = std::move(out);
  batch = resolved.get();
  cache.clear();
  done.clear();
  configCache.clear();
  ratioCache.clear();
  heldValues = 0;
  return llvm::Error::success();
}
