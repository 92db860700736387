//===- ResolvedBounds.h - the bounds rule of an inlined resolution -*- C++ -*-===//
//
// Private to lib/Lowering. imeta-inline-resolves checks a resolved batch's
// input minimums in one rule (`imeta.resolved_bounds`): per sequence, in
// declaration order, worded as the evaluator words a batch file's
// ("sequence I: NAME = V breaks NAME >= MIN (RULE)", a list's element as
// NAME[J]). The host and the device stage word its failure from these.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_LOWERING_RESOLVEDBOUNDS_H
#define IMETA_LOWERING_RESOLVEDBOUNDS_H

#include "dialect/IMetaOps.h"

#include <string>
#include <vector>

namespace imeta::emit {

/// One resolved input's `min`: the seq field holding its value (a list:
/// the value of its first element below it), and for a list the seq
/// fields of that element's place counted back from the row count.
struct ResolvedBound {
  std::string input;
  int64_t min = 0;
  std::string ruleSuffix; ///< " (R3)", escaped for a C++ literal
  std::string value;
  std::string first, count; ///< a list's; empty for a scalar
};

/// A bounds rule's checks in order; empty for any other rule.
std::vector<ResolvedBound> resolvedBounds(RequireOp rule);

/// C++ of the condition that check `b` fails for sequence `i`, reading
/// host-stage arrays through `arrays` ("H.h_").
std::string boundFails(const ResolvedBound &b, llvm::StringRef arrays);

/// C++ of check `b`'s message (a std::string) for sequence `i`, its
/// element place `row` and value `value` given as C++ expressions.
std::string boundMessage(const ResolvedBound &b, llvm::StringRef row,
                         llvm::StringRef value);

} // namespace imeta::emit

#endif // IMETA_LOWERING_RESOLVEDBOUNDS_H
