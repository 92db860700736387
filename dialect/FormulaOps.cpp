//===- FormulaOps.cpp - the meaning of the imeta formula ops --------------===//
//
// FormulaOpInterface on the imeta ops: one function per op.
//
//===----------------------------------------------------------------------===//

#include "dialect/IMetaOps.h"

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
