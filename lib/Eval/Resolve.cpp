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

#include "llvm/ADT/SmallPtrSet.h"
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
  llvm::SmallPtrSet<Operation *, 8> resolvedInputs;
  for (ResolveOp r : getPathResolves(path)) {
    auto in = lookupSpecSymbol<InputOp>(r, r.getInputAttr());
    auto field = lookupSpecSymbol<FieldOp>(r, r.getFieldAttr());
    resolvedInputs.insert(in);
    auto value = evaluate(field, 0);
    if (!value)
      return value.takeError();
    const std::vector<int64_t> &data = (*value)->data;
    if (field.getDomain() == Domain::seq) {
      for (auto [i, seq] : llvm::enumerate(out->sequences))
        seq.scalars[in.getSymName()] = data[i];
      continue;
    }
    // A rows field: sequence i's rows are its list, in batch order.
    auto counts = evaluate(lookup(field.getCountAttr()), 0);
    if (!counts)
      return counts.takeError();
    size_t at = 0;
    for (auto [i, seq] : llvm::enumerate(out->sequences)) {
      size_t n = size_t((*counts)->data[i]);
      seq.lists[in.getSymName()].assign(data.begin() + at,
                                        data.begin() + at + n);
      at += n;
    }
  }
  // Their bounds as a batch file's are checked: sequence by sequence, in
  // the order the spec declares the inputs.
  for (auto [i, seq] : llvm::enumerate(out->sequences))
    for (InputOp in : spec.getBody().front().getOps<InputOp>()) {
      if (!resolvedInputs.contains(in))
        continue;
      if (!isa<ListType>(in.getType())) {
        if (llvm::Error err = checkMin(in, i, seq.scalars.lookup(
                                                  in.getSymName()),
                                       std::nullopt))
          return err;
        continue;
      }
      for (auto [k, x] : llvm::enumerate(seq.lists[in.getSymName()]))
        if (llvm::Error err = checkMin(in, i, x, k))
          return err;
    }
  // Every field from here on is the resolved batch's.
  resolved = std::move(out);
  batch = resolved.get();
  cache.clear();
  done.clear();
  failures.clear();
  configCache.clear();
  ratioCache.clear();
  heldValues = 0;
  return llvm::Error::success();
}
