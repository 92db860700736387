//===- RuleOperands.h - the values a broken rule's message prints -*- C++ -*-===//
//
// A broken rule names the values its formula read at the failing point,
// as written in compact syntax: `sequence 3: R3: seqlen_q <= seqlen_k
// (q = 9, k = 4)`. The evaluator, the generated host code and the device
// stage print the same operands in the same words.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_DIALECT_RULEOPERANDS_H
#define IMETA_DIALECT_RULEOPERANDS_H

#include "dialect/IMetaOps.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace imeta {

/// A named value a rule reads: the op that reads it and its name.
struct RuleOperand {
  mlir::Operation *op;
  std::string label; ///< `q`, `len(block_table)`, `total(cu_q)`, `n`, `N`
  bool isBool;       ///< an i1 value, printed true or false
};

/// At most this many operands a message (the device stage carries them in
/// an error record's three value fields).
constexpr unsigned kMaxRuleOperands = 3;

/// The named values `rule`'s formula reads at its point, in the order
/// first read, each once, at most kMaxRuleOperands: the reads of a field,
/// a scalar input, a config value, a list's or config list's length, a
/// sum's total, the ratio `n`, `N` and a ratio set's min or count, in the
/// body's top block (always evaluated before it yields). A read that
/// imeta-inline-resolves made from an input's keeps the input's name
/// (its `imeta.read_as`). None for a rule of resolved bounds (its
/// message names the input and value already).
llvm::SmallVector<RuleOperand, kMaxRuleOperands> ruleOperands(RequireOp rule);

/// " (q = 9, k = 4)": the operands and their values; "" without operands.
std::string ruleOperandText(llvm::ArrayRef<RuleOperand> operands,
                            llvm::ArrayRef<int64_t> values);

/// The same text as a C++ string expression of the generated code, each
/// value the C++ expression `values[k]` (an integer).
std::string ruleOperandCpp(llvm::ArrayRef<RuleOperand> operands,
                           llvm::ArrayRef<std::string> values);

} // namespace imeta

#endif // IMETA_DIALECT_RULEOPERANDS_H
