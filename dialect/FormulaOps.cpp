//===- FormulaOps.cpp - the meaning of the imeta formula ops --------------===//
//
// FormulaOpInterface on the imeta ops: one function per op.
//
//===----------------------------------------------------------------------===//

#include "dialect/IMetaOps.h"
#include "dialect/IMetaSymbols.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace imeta;
using llvm::formatv;

#include "dialect/FormulaOpInterface.cpp.inc"

std::string FormulaInterpreter::locationOf(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << " at " << loc.getFilename().getValue() << ":" << loc.getLine()
       << ":" << loc.getColumn();
  return text;
}

LogicalResult SeqIndexOp::evaluate(FormulaInterpreter &in) {
  return in.set(*this, in.seq());
}
LogicalResult RowIndexOp::evaluate(FormulaInterpreter &in) {
  return in.set(*this, in.row());
}
LogicalResult RowOp::evaluate(FormulaInterpreter &in) {
  return in.set(*this, in.globalRow());
}
LogicalResult ColIndexOp::evaluate(FormulaInterpreter &in) {
  return in.set(*this, in.col());
}
LogicalResult RatioOp::evaluate(FormulaInterpreter &in) {
  return in.set(*this, in.ratio());
}
LogicalResult NumSeqsOp::evaluate(FormulaInterpreter &in) {
  return in.set(*this, in.numSeqs());
}
LogicalResult GetConfigOp::evaluate(FormulaInterpreter &in) {
  return in.set(*this, in.config(getParamAttr()));
}
LogicalResult GetInputOp::evaluate(FormulaInterpreter &in) {
  return in.set(*this, in.scalarInput(getInput()));
}
LogicalResult LengthOp::evaluate(FormulaInterpreter &in) {
  return in.set(*this, int64_t(in.list(getInput()).size()));
}

LogicalResult LoadOp::evaluate(FormulaInterpreter &in) {
  const std::vector<int64_t> &xs = in.list(getInput());
  int64_t idx = in.operand(*this, 0);
  if (idx < 0 || idx >= int64_t(xs.size()))
    return in.fail(formatv("index {0} out of range of '{1}' (length {2}){3}",
                           idx, getInput(), xs.size(),
                           FormulaInterpreter::locationOf(*this)));
  return in.set(*this, xs[idx]);
}

LogicalResult GetOp::evaluate(FormulaInterpreter &in) {
  int64_t v = 0;
  if (failed(in.fieldAt(getFieldAttr(), v)))
    return failure();
  return in.set(*this, v);
}

/// Entry `idx` of prefix sum `sum`, for prefix_at and prefix_total.
static LogicalResult sumEntry(Operation *op, FormulaInterpreter &in,
                              FlatSymbolRefAttr sum, ArrayRef<int64_t> sums,
                              int64_t idx) {
  if (idx < 0 || idx >= int64_t(sums.size()))
    return in.fail(formatv("index {0} out of range of prefix sum '{1}' "
                           "(length {2}){3}",
                           idx, sum.getValue(), sums.size(),
                           FormulaInterpreter::locationOf(op)));
  return in.set(op, sums[idx]);
}

LogicalResult PrefixAtOp::evaluate(FormulaInterpreter &in) {
  ArrayRef<int64_t> sums;
  if (failed(in.sumEntries(getPrefixAttr(), sums)))
    return failure();
  return sumEntry(*this, in, getPrefixAttr(), sums, in.operand(*this, 0));
}

LogicalResult PrefixTotalOp::evaluate(FormulaInterpreter &in) {
  ArrayRef<int64_t> sums;
  if (failed(in.sumEntries(getPrefixAttr(), sums)))
    return failure();
  if (sums.empty())
    return in.set(*this, 0); // an inclusive sum over no sequences
  return sumEntry(*this, in, getPrefixAttr(), sums, int64_t(sums.size()) - 1);
}

LogicalResult RatioMinOp::evaluate(FormulaInterpreter &in) {
  ArrayRef<int64_t> set = in.ratios(getSetAttr());
  if (set.empty())
    return in.fail(formatv("ratio set '{0}' is empty{1}", getSet(),
                           FormulaInterpreter::locationOf(*this)));
  return in.set(*this, set.front());
}

LogicalResult RatioCountOp::evaluate(FormulaInterpreter &in) {
  return in.set(*this, int64_t(in.ratios(getSetAttr()).size()));
}

//===----------------------------------------------------------------------===//
// inferRange: the ops that read the point or the batch are the proof's
// leaves (a read that scans the batch is computed once per proof).
//===----------------------------------------------------------------------===//

LogicalResult SeqIndexOp::inferRange(RangeRuleBuilder &r) {
  return r.leaf(*this, r.seq());
}
LogicalResult RowIndexOp::inferRange(RangeRuleBuilder &r) {
  return r.leaf(*this, r.row());
}
LogicalResult RowOp::inferRange(RangeRuleBuilder &r) {
  return r.leaf(*this, r.globalRow());
}
LogicalResult ColIndexOp::inferRange(RangeRuleBuilder &r) {
  return r.leaf(*this, r.col());
}
LogicalResult RatioOp::inferRange(RangeRuleBuilder &r) {
  return r.leaf(*this, r.ratio());
}
LogicalResult NumSeqsOp::inferRange(RangeRuleBuilder &r) {
  return r.leaf(*this, "r_exact(N)");
}
LogicalResult GetConfigOp::inferRange(RangeRuleBuilder &r) {
  return r.leaf(*this, "r_exact(c.cfg_" + getParam().str() + ")");
}
LogicalResult GetInputOp::inferRange(RangeRuleBuilder &r) {
  if (getType().isInteger(1))
    return r.leaf(*this, "Range{0, 1}");
  return r.leaf(*this, formatv("r_span(c.in_{0}, N)", getInput()));
}
LogicalResult LengthOp::inferRange(RangeRuleBuilder &r) {
  return r.leaf(*this, formatv("r_lengths(c.in_{0}_begin, c.in_{0}_end, N)",
                               getInput()));
}
LogicalResult LoadOp::inferRange(RangeRuleBuilder &r) {
  // A list with a declared bound: its check found the range, or its table
  // declares it.
  return r.leaf(*this, formatv("Range{{H.lo_{0}, H.hi_{0}}", getInput()));
}
LogicalResult GetOp::inferRange(RangeRuleBuilder &r) {
  auto field = lookupSpecSymbol<FieldOp>(*this, getFieldAttr());
  if (field.getDomain() == Domain::rows)
    return r.leaf(*this, r.rowsField(field));
  return r.leaf(*this, r.hostArray(field));
}
LogicalResult PrefixAtOp::inferRange(RangeRuleBuilder &r) {
  return r.leaf(*this, r.hostArray(lookupSpecSymbol<PrefixSumOp>(
                           *this, getPrefixAttr())));
}
LogicalResult PrefixTotalOp::inferRange(RangeRuleBuilder &r) {
  auto sum = lookupSpecSymbol<PrefixSumOp>(*this, getPrefixAttr());
  return r.leaf(*this, formatv("r_join({0}, r_exact(0))", r.hostArray(sum)));
}
LogicalResult RatioMinOp::inferRange(RangeRuleBuilder &r) {
  unsigned id = r.setId(getSetAttr());
  return r.leaf(*this,
                formatv("r_exact(c.num_set[{0}] ? c.set[{0}][0] : 0)", id));
}
LogicalResult RatioCountOp::inferRange(RangeRuleBuilder &r) {
  return r.leaf(*this,
                formatv("r_exact(c.num_set[{0}])", r.setId(getSetAttr())));
}
