//===- FormulaOps.cpp - the meaning of the imeta formula ops --------------===//
//
// FormulaOpInterface on the imeta ops: one function per op.
//
//===----------------------------------------------------------------------===//

#include "dialect/FailureText.h"
#include "dialect/IMetaOps.h"
#include "dialect/IMetaSymbols.h"
#include "lib/Support/Format.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace imeta;

#include "dialect/FormulaOpInterface.cpp.inc"

LogicalResult FormulaInterpreter::failWith(int32_t kind, Operation *op,
                                           int64_t value, int64_t length,
                                           int width) {
  return fail(text::imeta_failure_text(
      kind, op->getName().getStringRef().str(), locationOf(op),
      cast<FormulaOpInterface>(op).getFailureSubject(), value, length, width,
      overflowSuffix()));
}

/// `loc` as FILE:LINE:COL, a sub-formula's op's as its place in the
/// sub-formula ", called from" where the formula calls it; false where
/// `loc` has no file position.
static bool printPosition(llvm::raw_ostream &os, Location loc) {
  // The spec file's name without its directory: the same words wherever
  // the tool ran from, and no build machine's path in generated code.
  if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    os << llvm::sys::path::filename(file.getFilename().getValue()) << ":"
       << file.getLine() << ":" << file.getColumn();
    return true;
  }
  auto call = dyn_cast<CallSiteLoc>(loc);
  if (!call || !printPosition(os, call.getCallee()))
    return false;
  std::string caller;
  llvm::raw_string_ostream callerOs(caller);
  if (printPosition(callerOs, call.getCaller()))
    os << ", called from " << caller;
  return true;
}

std::string FormulaInterpreter::locationOf(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!printPosition(os, op->getLoc()))
    return "";
  return " at " + text;
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
LogicalResult PrevOp::evaluate(FormulaInterpreter &in) {
  int64_t v = 0;
  if (FlatSymbolRefAttr field = getFieldAttr()) {
    ArrayRef<int64_t> values;
    if (failed(in.entries(field, values)))
      return failure();
    if (in.seq() > 0)
      v = values[in.seq() - 1];
    return in.set(*this, v);
  }
  if (failed(in.previous(getColumn(), v)))
    return failure();
  return in.set(*this, v);
}
void PrevOp::getFieldDependencies(SmallVectorImpl<FlatSymbolRefAttr> &deps) {
  if (FlatSymbolRefAttr field = getFieldAttr())
    deps.push_back(field);
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
    return in.failWith(text::kOutOfRange, *this, idx, int64_t(xs.size()));
  return in.set(*this, xs[idx]);
}

LogicalResult CountOp::evaluate(FormulaInterpreter &in) {
  const std::vector<int64_t> &xs = in.list(getInput());
  int64_t lo = in.operand(*this, 0), hi = in.operand(*this, 1);
  int64_t vlo = in.operand(*this, 2), vhi = in.operand(*this, 3);
  if (hi <= lo)
    return in.set(*this, 0);
  if (lo < 0)
    return in.failWith(text::kOutOfRange, *this, lo, int64_t(xs.size()));
  if (hi > int64_t(xs.size()))
    return in.failWith(text::kOutOfRange, *this, hi - 1, int64_t(xs.size()));
  int64_t n = 0;
  for (int64_t k = lo; k < hi; ++k)
    n += xs[k] >= vlo && xs[k] <= vhi;
  return in.set(*this, n);
}

LogicalResult ConfigAtOp::evaluate(FormulaInterpreter &in) {
  ArrayRef<int64_t> xs = in.configList(getParam());
  int64_t idx = in.operand(*this, 0);
  if (idx < 0 || idx >= int64_t(xs.size()))
    return in.failWith(text::kOutOfRange, *this, idx, int64_t(xs.size()));
  return in.set(*this, xs[idx]);
}

LogicalResult ConfigLenOp::evaluate(FormulaInterpreter &in) {
  return in.set(*this, int64_t(in.configList(getParam()).size()));
}

LogicalResult GetOp::evaluate(FormulaInterpreter &in) {
  int64_t v = 0;
  if (failed(in.fieldAt(getFieldAttr(), v)))
    return failure();
  return in.set(*this, v);
}

/// Entry `idx` of a prefix sum, for prefix_at and prefix_total.
/// Entry `idx` of a prefix sum's `column` (0 for a sum of one column):
/// its entries are [len, width] row-major, len = N + 1 (exclusive) or N.
static LogicalResult sumEntry(Operation *op, FormulaInterpreter &in,
                              PrefixSumOp sum, ArrayRef<int64_t> sums,
                              int64_t idx, int64_t column) {
  int64_t len = in.numSeqs() +
                (sum.getConvention() == Convention::exclusive ? 1 : 0);
  int64_t width = len ? int64_t(sums.size()) / len : 0;
  if (idx < 0 || idx >= len)
    return in.failWith(text::kOutOfRange, op, idx, len);
  if (column < 0 || column >= width)
    return in.failWith(text::kColumnOutOfRange, op, column, width);
  return in.set(op, sums[idx * width + column]);
}

/// The column an op reads (its `column` operand, or the only one).
static int64_t columnOf(FormulaInterpreter &in, Value column) {
  return column ? in.value(column) : 0;
}

LogicalResult PrefixAtOp::evaluate(FormulaInterpreter &in) {
  ArrayRef<int64_t> sums;
  if (failed(in.entries(getPrefixAttr(), sums)))
    return failure();
  auto sum = lookupSpecSymbol<PrefixSumOp>(*this, getPrefixAttr());
  return sumEntry(*this, in, sum, sums, in.value(getIndex()),
                  columnOf(in, getColumn()));
}

LogicalResult PrefixTotalOp::evaluate(FormulaInterpreter &in) {
  ArrayRef<int64_t> sums;
  if (failed(in.entries(getPrefixAttr(), sums)))
    return failure();
  auto sum = lookupSpecSymbol<PrefixSumOp>(*this, getPrefixAttr());
  int64_t last = in.numSeqs() -
                 (sum.getConvention() == Convention::exclusive ? 0 : 1);
  if (last < 0)
    return in.set(*this, 0); // an inclusive sum over no sequences
  return sumEntry(*this, in, sum, sums, last, columnOf(in, getColumn()));
}

/// Folds value `k` (`v`) of a reduction into `acc` (0 before the first);
/// false where a sum leaves 64 bits.
static bool accumulate(Reduction kind, int64_t &acc, int64_t k, int64_t v) {
  switch (kind) {
  case Reduction::sum:
    return !__builtin_add_overflow(acc, v, &acc);
  case Reduction::max:
    acc = k == 0 || v > acc ? v : acc;
    return true;
  case Reduction::min:
    acc = k == 0 || v < acc ? v : acc;
    return true;
  }
  return true;
}

/// A reduction of a rows field's rows: expanded before anything evaluates
/// or emits it (RowsReduction.cpp).
static bool reducesRows(ReduceOp op) {
  auto field = lookupSpecSymbol<FieldOp>(op, op.getFieldAttr());
  return field && field.getDomain() == Domain::rows;
}

static LogicalResult unexpanded(Operation *op) {
  return op->emitOpError("is expanded by imeta-expand-formulas before it is "
                         "evaluated or generated");
}

LogicalResult ReduceOp::evaluate(FormulaInterpreter &in) {
  if (reducesRows(*this))
    return unexpanded(*this);
  ArrayRef<int64_t> values;
  if (failed(in.entries(getFieldAttr(), values)))
    return failure();
  int64_t acc = 0;
  if (getColumn()) {
    // One column of every sequence's values (a sequence's K values or
    // columns in a row).
    const int64_t n = in.numSeqs(), col = in.value(getColumn());
    const int64_t width = n ? int64_t(values.size()) / n : 0;
    if (n && (col < 0 || col >= width))
      return in.failWith(text::kColumnOutOfRange, *this, col, width);
    for (int64_t i = 0; i < n; ++i)
      if (!accumulate(getKind(), acc, i, values[size_t(i * width + col)]))
        return in.failWith(text::kOverflow64, *this);
    return in.set(*this, acc);
  }
  for (auto [k, v] : llvm::enumerate(values))
    if (!accumulate(getKind(), acc, k, v))
      return in.failWith(text::kOverflow64, *this);
  return in.set(*this, acc); // set() checks that it fits the result type
}

LogicalResult ReduceRowsOp::evaluate(FormulaInterpreter &in) {
  Block &body = getBody().front();
  int64_t acc = 0;
  SmallVector<int64_t, 1> yielded;
  for (int64_t r = 0, n = in.operand(*this, 0); r < n; ++r) {
    in.bind(body.getArgument(0), r);
    yielded.clear();
    if (failed(in.runBlock(body, yielded)))
      return failure();
    if (!accumulate(getKind(), acc, r, yielded.front()))
      return in.failWith(text::kOverflow64, *this);
  }
  return in.set(*this, acc);
}

LogicalResult RatioMinOp::evaluate(FormulaInterpreter &in) {
  ArrayRef<int64_t> set = in.ratios(getSetAttr());
  if (set.empty())
    return in.failWith(text::kEmptySet, *this);
  return in.set(*this, set.front());
}

LogicalResult RatioCountOp::evaluate(FormulaInterpreter &in) {
  return in.set(*this, int64_t(in.ratios(getSetAttr()).size()));
}

//===----------------------------------------------------------------------===//
// Failure subjects and bucket-invariant reads
//===----------------------------------------------------------------------===//

FlatSymbolRefAttr GetInputOp::getInputRead() { return getInputAttr(); }
FlatSymbolRefAttr LoadOp::getInputRead() { return getInputAttr(); }
FlatSymbolRefAttr LengthOp::getInputRead() { return getInputAttr(); }
FlatSymbolRefAttr CountOp::getInputRead() { return getInputAttr(); }
bool LoadOp::readsListElements() { return true; }
bool CountOp::readsListElements() { return true; }

std::string LoadOp::getFailureSubject() {
  return ("'" + getInput() + "'").str();
}
std::string CountOp::getFailureSubject() {
  return ("'" + getInput() + "'").str();
}
std::string ConfigAtOp::getFailureSubject() {
  return ("config '" + getParam() + "'").str();
}
bool ConfigLenOp::isBucketInvariantRead() { return true; }
std::string PrefixAtOp::getFailureSubject() {
  return ("prefix sum '" + getPrefix() + "'").str();
}
std::string PrefixTotalOp::getFailureSubject() {
  return ("prefix sum '" + getPrefix() + "'").str();
}
std::string ReduceOp::getFailureSubject() {
  return ("field '" + getField() + "'").str();
}
std::string RatioMinOp::getFailureSubject() {
  return ("'" + getSet() + "'").str();
}

bool GetConfigOp::isBucketInvariantRead() { return true; }
bool GetInputOp::isBucketInvariantRead() { return true; }
bool RatioOp::isBucketInvariantRead() { return true; }
bool GetOp::isBucketInvariantRead() {
  return lookupSpecSymbol<FieldOp>(*this, getFieldAttr()).getDomain() !=
         Domain::rows;
}

/// Values a point of a host-stage field: "1", its K yielded values, or its
/// columns (as wide as the widest bucket, `c.hw_X`).
static std::string valuesPerPoint(FieldOp field) {
  if (field.getCols())
    return "c.hw_" + field.getSymName().str();
  return std::to_string(field.getWidth());
}

/// The current bucket's values a point of host-stage field `field`: its K
/// yielded values, or its `cols` width in this bucket (a config, or a
/// scalar field's value there), at most valuesPerPoint.
static std::string bucketColumns(CppFormulaPrinter &p, FieldOp field) {
  if (!field.getCols())
    return std::to_string(field.getWidth());
  auto width = lookupSpecSymbol<FieldOp>(field, field.getColsAttr());
  if (!width)
    return "c.cfg_" + field.getCols()->str();
  return "int64_t(" +
         p.hostValue(width, p.bucketIndex(width.getRatiosAttr())) + ")";
}

/// Values of a host-stage scalar or seq field per bucket, `numSeqs` the
/// batch's sequences.
static std::string valuesPerBucket(FieldOp field, StringRef numSeqs) {
  std::string per = valuesPerPoint(field);
  if (field.getDomain() != Domain::seq)
    return per;
  return per == "1" ? numSeqs.str() : "(" + numSeqs.str() + " * " + per + ")";
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
LogicalResult PrevOp::inferRange(RangeRuleBuilder &r) {
  // The field's values: its host array, as any read of it.
  Operation *field = getFieldAttr()
                         ? lookupSpecSymbol<FieldOp>(*this, getFieldAttr())
                         : getFormulaContext(*this).owner;
  return r.leaf(*this, r.hostArray(field));
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
  return r.leaf(*this, fmt("r_span(c.in_{0}, N)", getInput()));
}
LogicalResult LengthOp::inferRange(RangeRuleBuilder &r) {
  return r.leaf(*this,
                fmt("r_lengths(c.in_{0}_begin, c.in_{0}_end, N)", getInput()));
}
LogicalResult LoadOp::inferRange(RangeRuleBuilder &r) {
  // A list with a declared bound: its check found the range, or its table
  // declares it.
  return r.leaf(*this, fmt("Range{{H.lo_{0}, H.hi_{0}}", getInput()));
}
LogicalResult CountOp::inferRange(RangeRuleBuilder &r) {
  // At most hi - lo elements, at least none.
  return r.leaf(*this, fmt("r_join(r_exact(0), r_max(r_sub({0}, {1}), "
                           "r_exact(0)))",
                           r.operand(*this, 1), r.operand(*this, 0)));
}
LogicalResult ConfigAtOp::inferRange(RangeRuleBuilder &r) {
  return r.leaf(*this, fmt("r_span(c.cfgl_{0}, c.cfgn_{0})", getParam()));
}
LogicalResult ConfigLenOp::inferRange(RangeRuleBuilder &r) {
  return r.leaf(*this, fmt("r_exact(c.cfgn_{0})", getParam()));
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
  return r.leaf(*this, fmt("r_join({0}, r_exact(0))", r.hostArray(sum)));
}
LogicalResult ReduceOp::inferRange(RangeRuleBuilder &r) {
  if (reducesRows(*this))
    return unexpanded(*this);
  std::string values =
      r.hostArray(lookupSpecSymbol<FieldOp>(*this, getFieldAttr()));
  // A maximum or minimum is one of the values (or 0); a sum of N values
  // lies within N times their hull.
  auto field = lookupSpecSymbol<FieldOp>(*this, getFieldAttr());
  // (A column's sum: N of the values.)
  std::string count = getColumn() ? "N" : valuesPerBucket(field, "N");
  if (getKind() == Reduction::sum)
    return r.leaf(*this, fmt("r_join(r_exact(0), r_mul({0}, Range{{0, {1}}))",
                             values, count));
  return r.leaf(*this, fmt("r_join(r_exact(0), {0})", values));
}
LogicalResult ReduceRowsOp::inferRange(RangeRuleBuilder &r) {
  // Rows 0 .. count - 1; a maximum or minimum is one of the values (or
  // 0), a sum of count values lies within count times their hull.
  std::string count = r.operand(*this, 0);
  Block &body = getBody().front();
  r.defineValue(body.getArgument(0),
                fmt("r_join(r_exact(0), r_max(r_add({0}, r_exact(-1)), "
                    "r_exact(0)))",
                    count));
  SmallVector<std::string, 1> yielded;
  if (failed(r.runBlock(body, yielded)))
    return failure();
  if (getKind() == Reduction::sum)
    r.define(*this, fmt("r_join(r_exact(0), r_mul({0}, r_join("
                        "r_exact(0), {1})))",
                        yielded.front(), count));
  else
    r.define(*this, fmt("r_join(r_exact(0), {0})", yielded.front()));
  return success();
}

LogicalResult RatioMinOp::inferRange(RangeRuleBuilder &r) {
  unsigned id = r.setId(getSetAttr());
  return r.leaf(*this, fmt("r_exact(c.num_set[{0}] ? c.set[{0}][0] : 0)", id));
}
LogicalResult RatioCountOp::inferRange(RangeRuleBuilder &r) {
  return r.leaf(*this, fmt("r_exact(c.num_set[{0}])", r.setId(getSetAttr())));
}

//===----------------------------------------------------------------------===//
// emitCpp: CPU and CUDA alike. A read of the point or the context is an
// expression; a read that can miss checks first.
//===----------------------------------------------------------------------===//

LogicalResult SeqIndexOp::emitCpp(CppFormulaPrinter &p) {
  return p.alias(*this, p.seq());
}
LogicalResult RowIndexOp::emitCpp(CppFormulaPrinter &p) {
  return p.alias(*this, p.row());
}
LogicalResult RowOp::emitCpp(CppFormulaPrinter &p) {
  return p.alias(*this, p.globalRow());
}
LogicalResult ColIndexOp::emitCpp(CppFormulaPrinter &p) {
  return p.alias(*this, p.col());
}
LogicalResult RatioOp::emitCpp(CppFormulaPrinter &p) {
  return p.alias(*this, p.ratio());
}
LogicalResult PrevOp::emitCpp(CppFormulaPrinter &p) {
  if (FlatSymbolRefAttr name = getFieldAttr()) {
    auto field = lookupSpecSymbol<FieldOp>(*this, name);
    std::string i = p.seq();
    std::string at = p.hostValue(
        field, p.bucketIndex(field.getRatiosAttr()) + " * " + p.numSeqs() +
                   " + (" + i + " - 1)");
    return p.alias(*this, fmt("({0} > 0 ? int64_t({1}) : int64_t(0))", i, at));
  }
  std::string v = p.previous(getColumn());
  if (v.empty())
    return emitOpError("reads the previous sequence's value, which only the "
                       "host stage keeps");
  return p.alias(*this, v);
}
LogicalResult NumSeqsOp::emitCpp(CppFormulaPrinter &p) {
  return p.alias(*this, p.numSeqs());
}
LogicalResult GetConfigOp::emitCpp(CppFormulaPrinter &p) {
  return p.alias(*this, "c.cfg_" + getParam().str());
}
LogicalResult GetInputOp::emitCpp(CppFormulaPrinter &p) {
  // A fill function reads the sequence's inputs once (si_X).
  if (p.fast())
    return p.alias(*this, "si_" + getInput().str());
  return p.alias(*this, fmt("int64_t(c.in_{0}[{1}])", getInput(), p.seq()));
}
LogicalResult LengthOp::emitCpp(CppFormulaPrinter &p) {
  return p.alias(*this, fmt("c.in_{0}_end[{1}] - c.in_{0}_begin[{1}]",
                            getInput(), p.seq()));
}

/// The current sequence's elements of list `name` and their count.
static std::pair<std::string, std::string> listSpan(CppFormulaPrinter &p,
                                                    StringRef name) {
  if (p.fast())
    return {("lb_" + name).str(), ("ll_" + name).str()};
  return {fmt("(c.in_{0} + c.in_{0}_begin[{1}])", name, p.seq()),
          fmt("(c.in_{0}_end[{1}] - c.in_{0}_begin[{1}])", name, p.seq())};
}

LogicalResult CountOp::emitCpp(CppFormulaPrinter &p) {
  auto [base, length] = listSpan(p, getInput());
  std::string lo = p.operand(*this, 0), hi = p.operand(*this, 1);
  p.line(fmt("if ({1} > {0} && {0} < 0) {2}", lo, hi,
             p.fail("kOutOfRange", *this, lo, length)));
  p.line(fmt("if ({1} > {0} && {1} > {2}) {3}", lo, hi, length,
             p.fail("kOutOfRange", *this, hi + " - 1", length)));
  return p.alias(*this, fmt("imeta_count_in({0}, {1}, {2}, {3}, {4})", base, lo,
                            hi, p.operand(*this, 2), p.operand(*this, 3)));
}

LogicalResult ConfigAtOp::emitCpp(CppFormulaPrinter &p) {
  std::string idx = p.operand(*this, 0);
  std::string length = ("c.cfgn_" + getParam()).str();
  p.line(fmt("if ({0} < 0 || {0} >= {1}) {2}", idx, length,
             p.fail("kOutOfRange", *this, idx, length)));
  return p.alias(*this, fmt("int64_t(c.cfgl_{0}[{1}])", getParam(), idx));
}

LogicalResult ConfigLenOp::emitCpp(CppFormulaPrinter &p) {
  return p.alias(*this, ("c.cfgn_" + getParam()).str());
}

LogicalResult LoadOp::emitCpp(CppFormulaPrinter &p) {
  std::string idx = p.operand(*this, 0);
  StringRef list = getInput();
  if (p.fast()) {
    // The sequence's elements at lb_X, their count at ll_X.
    if (p.rangeChecked(*this))
      return p.alias(*this, fmt("imeta_ldg(lb_{0}, {1})", list, idx));
    std::string in = p.fresh();
    p.line(fmt("const bool {0} = imeta_in_list({1}, ll_{2});", in, idx, list));
    p.line(fmt("if (!{0}) {1}", in,
               p.fail("kOutOfRange", *this, idx, "ll_" + list.str())));
    // A deferred failure goes on past this point: read nothing.
    return p.alias(
        *this, p.deferFailures().empty()
                   ? fmt("imeta_ldg(lb_{0}, {1})", list, idx)
                   : fmt("{0} ? imeta_ldg(lb_{1}, {2}) : 0", in, list, idx));
  }
  std::string length =
      fmt("c.in_{0}_end[{1}] - c.in_{0}_begin[{1}]", list, p.seq());
  p.line(fmt("if ({0} < 0 || {0} >= {1}) {2}", idx, length,
             p.fail("kOutOfRange", *this, idx, length)));
  return p.alias(*this, fmt("int64_t(c.in_{0}[c.in_{0}_begin[{1}] + {2}])",
                            list, p.seq(), idx));
}

LogicalResult GetOp::emitCpp(CppFormulaPrinter &p) {
  auto field = lookupSpecSymbol<FieldOp>(*this, getFieldAttr());
  std::string idx = p.bucketIndex(field.getRatiosAttr());
  switch (field.getDomain()) {
  case Domain::scalar:
    return p.alias(*this, p.hostValue(field, idx));
  case Domain::seq:
    // A fill function reads an unbucketed one once (hs_X).
    if (p.fast() && !field.getRatiosAttr())
      return p.alias(*this, "hs_" + field.getSymName().str());
    if (std::string local = p.seqLocal(field); !local.empty())
      return p.alias(*this, local);
    return p.alias(*this,
                   p.hostValue(field, idx + " * " + p.numSeqs() + " + " +
                                          p.seq()));
  case Domain::rows:
    return p.alias(*this, p.rowsLocal(field, idx));
  }
  return failure();
}

/// The entries of a host-stage prefix sum per bucket.
static std::string sumLength(CppFormulaPrinter &p, PrefixSumOp sum) {
  return sum.getConvention() == Convention::exclusive
             ? "(" + p.numSeqs() + " + 1)"
             : p.numSeqs();
}

/// Entry `idx` of `sum` in bucket `b`: its `column` (`op`'s last operand)
/// where it is a sum per column ([len, width] row-major per bucket),
/// checked to be one.
static std::string sumEntry(CppFormulaPrinter &p, Operation *op,
                            PrefixSumOp sum, const std::string &b,
                            const std::string &idx, Value column) {
  std::string len = sumLength(p, sum);
  if (!column)
    return p.hostValue(sum, b + " * " + len + " + " + idx);
  // The sums are as wide as the source's widest bucket; this bucket has
  // its own columns.
  auto source = lookupSpecSymbol<FieldOp>(sum, sum.getSourceAttr());
  std::string w = valuesPerPoint(source), cols = bucketColumns(p, source);
  std::string col = p.operand(op, op->getNumOperands() - 1);
  p.line(fmt("if ({0} < 0 || {0} >= {1}) {2}", col, cols,
             p.fail("kColumnOutOfRange", op, col, cols)));
  return p.hostValue(sum,
                     fmt("({0} * {1} + {2}) * {3} + {4}", b, len, idx, w, col));
}

LogicalResult PrefixAtOp::emitCpp(CppFormulaPrinter &p) {
  auto sum = lookupSpecSymbol<PrefixSumOp>(*this, getPrefixAttr());
  std::string len = sumLength(p, sum);
  std::string idx = p.operand(*this, 0);
  p.line(fmt("if ({0} < 0 || {0} >= {1}) {2}", idx, len,
             p.fail("kOutOfRange", *this, idx, len)));
  std::string b = p.bucketIndex(getRatios(sum));
  return p.alias(*this, sumEntry(p, *this, sum, b, idx, getColumn()));
}

LogicalResult PrefixTotalOp::emitCpp(CppFormulaPrinter &p) {
  auto sum = lookupSpecSymbol<PrefixSumOp>(*this, getPrefixAttr());
  std::string len = sumLength(p, sum);
  std::string b = p.bucketIndex(getRatios(sum));
  std::string last = fmt("{0} - 1", len);
  return p.alias(*this, fmt("({0} > 0 ? {1} : 0)", len,
                            sumEntry(p, *this, sum, b, last, getColumn())));
}

/// The statement folding value `k` (`v`) of a reduction into `acc`.
static std::string accumulateLine(CppFormulaPrinter &p, Operation *op,
                                  Reduction kind, StringRef acc, StringRef k,
                                  StringRef v) {
  switch (kind) {
  case Reduction::sum:
    return fmt("if (imeta_add_overflow({0}, {1}, &{0})) {2}", acc, v,
               p.fail("kOverflow64", op, "0"));
  case Reduction::max:
    return fmt("{0} = {1} == 0 || {2} > {0} ? {2} : {0};", acc, k, v);
  case Reduction::min:
    return fmt("{0} = {1} == 0 || {2} < {0} ? {2} : {0};", acc, k, v);
  }
  return "";
}

LogicalResult ReduceOp::emitCpp(CppFormulaPrinter &p) {
  if (reducesRows(*this))
    return unexpanded(*this);
  auto field = lookupSpecSymbol<FieldOp>(*this, getFieldAttr());
  std::string acc = p.fresh(), k = p.fresh(), v = p.fresh();
  // The field's values in this bucket: points (a sequence, or the
  // scalar's one) of `w` entries, this bucket's first `cols` of them its
  // values (a `cols` field's array is as wide as its widest bucket).
  std::string count = valuesPerBucket(field, p.numSeqs());
  std::string b = p.bucketIndex(field.getRatiosAttr());
  std::string w = valuesPerPoint(field), cols = bucketColumns(p, field);
  std::string points =
      field.getDomain() == Domain::seq ? p.numSeqs() : std::string("1");
  p.line(fmt("int64_t {0} = 0;", acc));
  if (getColumn()) {
    // Column `col` of each sequence's values.
    std::string col = p.operand(*this, 0);
    p.line(fmt("if ({0} > 0 && ({1} < 0 || {1} >= {2})) {3}", points, col, cols,
               p.fail("kColumnOutOfRange", *this, col, cols)));
    p.open(fmt("for (int64_t {0} = 0; {0} < {1}; ++{0})", k, points));
    p.line(fmt("const int64_t {0} = {1};", v,
               p.hostValue(field, fmt("{0} * {1} + {2} * {3} + {4}", b, count,
                                      k, w, col))));
    p.line(accumulateLine(p, *this, getKind(), acc, k, v));
    p.close();
  } else if (field.getCols()) {
    // Every value: each point's first `cols` entries, in order (k counts
    // the values folded).
    std::string i = p.fresh(), c = p.fresh();
    p.line(fmt("int64_t {0} = 0;", k));
    p.open(fmt("for (int64_t {0} = 0; {0} < {1}; ++{0})", i, points));
    p.open(fmt("for (int64_t {0} = 0; {0} < {1}; ++{0}, ++{2})", c, cols, k));
    p.line(fmt("const int64_t {0} = {1};", v,
               p.hostValue(field, fmt("{0} * {1} + {2} * {3} + {4}", b, count,
                                      i, w, c))));
    p.line(accumulateLine(p, *this, getKind(), acc, k, v));
    p.close();
    p.close();
  } else {
    p.open(fmt("for (int64_t {0} = 0; {0} < {1}; ++{0})", k, count));
    p.line(fmt("const int64_t {0} = {1};", v,
               p.hostValue(field, b + " * " + count + " + " + k)));
    p.line(accumulateLine(p, *this, getKind(), acc, k, v));
    p.close();
  }
  p.bind(getResult(), acc);
  p.checkFits(*this, acc);
  return success();
}

/// `fold` over rows split among `lanes` (CppFormulaPrinter::rowLanes):
/// each lane runs its rows in order and stops at its first failing one;
/// `fold_rows` takes the lowest failing row's record, or folds the parts.
/// Only for an i32 or i1 fold (ReduceRowsOp::emitCpp): its sum cannot
/// leave int64 (fewer than 2^31 rows of 32-bit values), so the lanes'
/// parts need no overflow check.
static LogicalResult emitLaneFold(ReduceRowsOp fold, CppFormulaPrinter &p,
                                  StringRef lanes) {
  Block &body = fold.getBody().front();
  std::string acc = p.fresh(), any = p.fresh(), bad = p.fresh(),
              r = p.fresh(), v = p.fresh();
  p.line(fmt("int64_t {0} = 0, {1} = INT64_MAX;  // a part; its failing "
             "row",
             acc, bad));
  p.line(fmt("bool {0} = false;", any));
  p.open(fmt("for (int64_t {0} = {1}.id(); {0} < {2}; {0} += "
             "{1}.count())",
             r, lanes, p.operand(fold, 0)));
  p.line(fmt("int64_t {0} = 0;", v));
  const std::string rowFn = p.fresh();
  p.open("auto " + rowFn + " = [&]() -> bool", ";");
  p.bind(body.getArgument(0), r);
  SmallVector<std::string, 1> yielded;
  LogicalResult done = p.runBlock(body, yielded);
  if (succeeded(done))
    p.line(fmt("{0} = {1};", v, yielded.front()));
  p.line("return true;");
  p.close();
  p.line(fmt("if (!{2}()) {{ {0} = {1}; break; }", bad, r, rowFn));
  switch (fold.getKind()) {
  case Reduction::sum:
    p.line(fmt("{0} += {1};", acc, v));
    break;
  case Reduction::max:
    p.line(fmt("{0} = !{1} || {2} > {0} ? {2} : {0};", acc, any, v));
    break;
  case Reduction::min:
    p.line(fmt("{0} = !{1} || {2} < {0} ? {2} : {0};", acc, any, v));
    break;
  }
  p.line(fmt("{0} = true;", any));
  p.close();
  if (failed(done))
    return failure();
  p.line(fmt("if (!{0}.fold_rows({1}, {2}, tr, {3}, {4})) return false;", lanes,
             int(fold.getKind()), bad, acc, any));
  p.bind(fold.getResult(), acc);
  p.checkFits(fold, acc);
  return success();
}

LogicalResult ReduceRowsOp::emitCpp(CppFormulaPrinter &p) {
  // Split among lanes only where the parts cannot leave int64 (an i32 or
  // i1 fold); a wider one runs serially on every lane alike.
  if (std::string lanes = p.rowLanes();
      !lanes.empty() && !(*this)->getParentOfType<ReduceRowsOp>() &&
      getType().getIntOrFloatBitWidth() <= 32)
    return emitLaneFold(*this, p, lanes);
  Block &body = getBody().front();
  std::string acc = p.fresh(), r = p.fresh();
  p.line(fmt("int64_t {0} = 0;", acc));
  p.open(
      fmt("for (int64_t {0} = 0; {0} < {1}; ++{0})", r, p.operand(*this, 0)));
  p.bind(body.getArgument(0), r);
  SmallVector<std::string, 1> yielded;
  LogicalResult done = p.runBlock(body, yielded);
  if (succeeded(done))
    p.line(accumulateLine(p, *this, getKind(), acc, r, yielded.front()));
  p.close();
  if (failed(done))
    return failure();
  p.bind(getResult(), acc);
  p.checkFits(*this, acc);
  return success();
}
LogicalResult RatioMinOp::emitCpp(CppFormulaPrinter &p) {
  unsigned id = p.setId(getSetAttr());
  p.line(
      fmt("if (c.num_set[{0}] == 0) {1}", id, p.fail("kEmptySet", *this, "0")));
  return p.alias(*this, fmt("int64_t(c.set[{0}][0])", id));
}
LogicalResult RatioCountOp::emitCpp(CppFormulaPrinter &p) {
  return p.alias(*this, fmt("int64_t(c.num_set[{0}])", p.setId(getSetAttr())));
}

//===----------------------------------------------------------------------===//
// getFieldDependencies: the ops that read another field or sum.
//===----------------------------------------------------------------------===//

void GetOp::getFieldDependencies(SmallVectorImpl<FlatSymbolRefAttr> &deps) {
  deps.push_back(getFieldAttr());
}
void ReduceOp::getFieldDependencies(SmallVectorImpl<FlatSymbolRefAttr> &deps) {
  deps.push_back(getFieldAttr());
}
void PrefixAtOp::getFieldDependencies(
    SmallVectorImpl<FlatSymbolRefAttr> &deps) {
  deps.push_back(getPrefixAttr());
}
void PrefixTotalOp::getFieldDependencies(
    SmallVectorImpl<FlatSymbolRefAttr> &deps) {
  deps.push_back(getPrefixAttr());
}

//===----------------------------------------------------------------------===//
// imeta.clamp: min(max(value, lo), hi), never failing.
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// imeta.gather: expanded before anything evaluates or emits it
// (GatherExpansion.cpp); imeta.check_index: the check it leaves.
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::evaluate(FormulaInterpreter &) {
  return unexpanded(*this);
}
LogicalResult GatherOp::inferRange(RangeRuleBuilder &) {
  return unexpanded(*this);
}
LogicalResult GatherOp::emitCpp(CppFormulaPrinter &) {
  return unexpanded(*this);
}
void GatherOp::getFieldDependencies(SmallVectorImpl<FlatSymbolRefAttr> &deps) {
  deps.push_back(getFieldAttr());
}

std::string CheckIndexOp::getFailureSubject() { return getWhat().str(); }
LogicalResult CheckIndexOp::evaluate(FormulaInterpreter &in) {
  int64_t idx = in.operand(*this, 0), len = in.operand(*this, 1);
  if (idx < 0 || idx >= len)
    return in.failWith(text::kOutOfRange, *this, idx, len);
  return in.set(*this, idx);
}
LogicalResult CheckIndexOp::inferRange(RangeRuleBuilder &r) {
  r.define(*this, fmt("r_max(r_min({0}, r_add({1}, r_exact(-1))), "
                      "r_exact(0))",
                      r.operand(*this, 0), r.operand(*this, 1)));
  return success();
}
LogicalResult CheckIndexOp::emitCpp(CppFormulaPrinter &p) {
  std::string idx = p.operand(*this, 0), len = p.operand(*this, 1);
  std::string in = p.fresh();
  p.line(fmt("const bool {0} = {1} >= 0 && {1} < {2};", in, idx, len));
  p.line(fmt("if (!{0}) {1}", in, p.fail("kOutOfRange", *this, idx, len)));
  // The index itself (a formula that reads no row leaves it unread); a
  // deferred failure goes on past this point with an index in range.
  if (p.deferFailures().empty()) {
    p.bind(getResult(), idx);
    return success();
  }
  std::string safe = p.fresh();
  p.line(fmt("[[maybe_unused]] const {0} {1} = ({2} ? {3} : 0);",
             p.valueType(getResult()), safe, in, idx));
  p.bind(getResult(), safe);
  return success();
}

LogicalResult ClampOp::evaluate(FormulaInterpreter &in) {
  int64_t v = in.operand(*this, 0), lo = in.operand(*this, 1),
          hi = in.operand(*this, 2);
  return in.set(*this, std::min(std::max(v, lo), hi));
}
LogicalResult ClampOp::inferRange(RangeRuleBuilder &r) {
  r.define(*this, fmt("r_min(r_max({0}, {1}), {2})", r.operand(*this, 0),
                      r.operand(*this, 1), r.operand(*this, 2)));
  return success();
}
LogicalResult ClampOp::emitCpp(CppFormulaPrinter &p) {
  std::string atLeast = p.fresh();
  p.line(fmt("const {0} {1} = ({2} < {3} ? {3} : {2});",
             p.valueType(getResult()), atLeast, p.operand(*this, 0),
             p.operand(*this, 1)));
  return p.alias(*this,
                 fmt("({0} > {1} ? {1} : {0})", atLeast, p.operand(*this, 2)));
}

//===----------------------------------------------------------------------===//
// Column trends: the column itself rises by one a column.
//===----------------------------------------------------------------------===//

Trend ColIndexOp::columnTrend(ArrayRef<Trend>) { return Trend::up; }
bool ColIndexOp::movesByOneColumn(function_ref<bool(unsigned)>,
                                  ArrayRef<Trend>) {
  return true;
}
