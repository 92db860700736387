//===- Formula.cpp - the interpreter of field and rule bodies -------------===//
//
// Each op's meaning is its FormulaOpInterface::evaluate (dialect/
// FormulaOps.cpp, dialect/ArithFormulaModels.cpp); this runs a body and
// gives those the point, the batch and the values. Values are int64_t; i1
// is 0 or 1.
//
//===----------------------------------------------------------------------===//

#include "lib/Eval/Formula.h"
#include "dialect/FailureText.h"
#include "dialect/FormulaBlock.h"
#include "dialect/IMetaSymbols.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace imeta;
using llvm::formatv;

namespace {

/// Interprets one body at one point: each op's FormulaOpInterface::evaluate
/// against this. A failure records its reason in `error`.
class Interpreter final : public FormulaInterpreter {
public:
  Interpreter(Evaluator &ev, const Point &p) : ev(ev), p(p) {}

  /// Why the last failure() happened.
  std::string error;
  /// Whether `error` is a read field's (ReadFailure): it names its field.
  bool readFailure = false;
  LogicalResult readFailed(llvm::Error err) {
    bool read = err.isA<ReadFailure>();
    (void)fail(llvm::toString(std::move(err)));
    readFailure = read;
    return failure();
  }

  LogicalResult runBlock(Block &block,
                         SmallVectorImpl<int64_t> &yielded) override {
    auto step = [&](Operation &op) -> LogicalResult {
      auto formula = dyn_cast<FormulaOpInterface>(&op);
      if (!formula)
        return fail(formatv("op '{0}' is not supported in formulas{1}",
                            op.getName().getStringRef(), locationOf(&op)));
      return formula.evaluate(*this);
    };
    return runFormulaBlock(block, yielded, step,
                           [&](Value v) { return values.lookup(v); });
  }

  int64_t value(Value v) override { return values.lookup(v); }

  /// Records `v` as the single result of `op`, checking it fits.
  LogicalResult set(Operation *op, int64_t v) override {
    Type type = op->getResult(0).getType();
    unsigned width = type.getIntOrFloatBitWidth();
    if (width < 64) {
      int64_t lo = width == 1 ? 0 : -(int64_t(1) << (width - 1));
      int64_t hi = width == 1 ? 1 : (int64_t(1) << (width - 1)) - 1;
      if (v < lo || v > hi)
        return failWith(text::kOverflow, op, v, 0, int(width));
    }
    values[op->getResult(0)] = v;
    return success();
  }
  void bind(Value result, int64_t v) override { values[result] = v; }
  LogicalResult fail(const llvm::Twine &msg) override {
    error = msg.str();
    readFailure = false;
    return failure();
  }

  int64_t seq() override { return p.seq; }
  int64_t row() override { return p.row; }
  int64_t globalRow() override { return p.globalRow; }
  int64_t col() override { return p.col; }
  int64_t ratio() override { return p.ratio; }

  int64_t numSeqs() override { return ev.numSeqs(); }
  int64_t config(FlatSymbolRefAttr param) override {
    return ev.config(param.getAttr());
  }
  // A state input at slot -1 (no state) reads 0 or the empty list.
  int64_t scalarInput(StringRef input) override {
    const Batch &b = ev.getBatch();
    auto it = b.sequences[p.seq].scalars.find(input);
    if (it != b.sequences[p.seq].scalars.end())
      return it->second;
    return b.stateScalar(size_t(p.seq), input).value_or(0);
  }
  const std::vector<int64_t> &list(StringRef input) override {
    const Batch &b = ev.getBatch();
    auto it = b.sequences[p.seq].lists.find(input);
    if (it != b.sequences[p.seq].lists.end())
      return it->second;
    static const std::vector<int64_t> none;
    const std::vector<int64_t> *row = b.stateRow(size_t(p.seq), input);
    return row ? *row : none;
  }

  ArrayRef<int64_t> configList(StringRef param) override {
    auto it = ev.getBatch().lists.find(param);
    return it == ev.getBatch().lists.end() ? ArrayRef<int64_t>()
                                           : ArrayRef<int64_t>(it->second);
  }
  ArrayRef<int64_t> ratios(FlatSymbolRefAttr set) override {
    return ev.ratios(set);
  }

  LogicalResult fieldAt(FlatSymbolRefAttr field, int64_t &out) override {
    Operation *def = ev.lookup(field);
    auto value = ev.evaluate(def, bucketOf(def));
    if (!value)
      return readFailed(value.takeError());
    int64_t at = 0;
    if ((*value)->domain == Domain::seq)
      at = p.seq;
    else if ((*value)->domain == Domain::rows)
      at = p.globalRow;
    out = (*value)->data[at];
    return success();
  }
  LogicalResult entries(FlatSymbolRefAttr sym,
                        ArrayRef<int64_t> &out) override {
    Operation *def = ev.lookup(sym);
    auto value = ev.evaluate(def, bucketOf(def));
    if (!value)
      return readFailed(value.takeError());
    out = (*value)->data;
    return success();
  }

  std::string overflowSuffix() override { return ev.overflowSuffix(); }

private:
  /// The bucket in which to read `def`: ours if it is bucketed, else none.
  int64_t bucketOf(Operation *def) { return getRatios(def) ? p.ratio : 0; }

  Evaluator &ev;
  const Point &p;
  DenseMap<Value, int64_t> values;
};
} // namespace

llvm::Error imeta::runFormula(Evaluator &ev, Region &body, const Point &point,
                              SmallVectorImpl<int64_t> &out) {
  Interpreter interp(ev, point);
  if (succeeded(interp.runBlock(body.front(), out)))
    return llvm::Error::success();
  if (interp.readFailure)
    return llvm::make_error<ReadFailure>(std::move(interp.error));
  return llvm::createStringError(llvm::inconvertibleErrorCode(), interp.error);
}
