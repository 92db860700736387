//===- RangeProof.cpp - the per-batch int32 proof of fill formulas --------===//

#include "lib/Lowering/RangeProof.h"
#include "dialect/FormulaBlock.h"
#include "dialect/IMetaSymbols.h"

using namespace mlir;
using namespace imeta;

namespace {
/// Prints the interval evaluation of one body: each op's
/// FormulaOpInterface::inferRange against this.
class RangePrinter final : public RangeRuleBuilder {
public:
  RangePrinter(CodeStream &cs, EmitterState &st, const RangeScope &scope)
      : cs(cs), st(st), s(scope) {}

  LogicalResult runBlock(Block &block,
                         SmallVectorImpl<std::string> &yielded) override {
    auto step = [&](Operation &op) -> LogicalResult {
      if (op.getNumResults() > 0 &&
          llvm::all_of(op.getResults(), [&](Value v) { return unproven(v); }) &&
          !isa<scf::IfOp>(op))
        return success(); // checked at run time in both instantiations
      auto formula = dyn_cast<FormulaOpInterface>(&op);
      if (!formula)
        return op.emitOpError("has no range rule");
      return formula.inferRange(*this);
    };
    return runFormulaBlock(block, yielded, step,
                           [&](Value v) { return names.lookup(v); });
  }

  std::string operand(Operation *op, unsigned i) override {
    return names.lookup(op->getOperand(i));
  }
  std::string defineValue(Value v, const std::string &expr) override {
    std::string name = st.newTemp();
    cs.line("[[maybe_unused]] const Range {0} = {1};", name, expr);
    names[v] = name;
    return name;
  }
  /// Leaves scan the batch (O(sequences)): each distinct one is computed
  /// once per proof.
  LogicalResult leaf(Operation *op, const std::string &given) override {
    const std::string expr = s.leafText ? s.leafText(given) : given;
    if (s.collective && llvm::StringRef(expr).starts_with("ln.part_")) {
      names[op->getResult(0)] = s.collective(expr);
      return success();
    }
    auto [it, inserted] = s.leaves->try_emplace(expr, "");
    if (inserted)
      it->second = define(op, expr);
    else
      names[op->getResult(0)] = it->second;
    return success();
  }
  void require(const std::string &condition) override {
    cs.line("ok = ok && {0};", condition);
  }
  bool unproven(Value v) override { return st.names().isListDependent(v); }

  std::string seq() override { return s.seq; }
  std::string row() override { return s.row; }
  std::string globalRow() override { return s.globalRow; }
  std::string col() override { return s.col; }
  std::string ratio() override { return s.ratio; }
  std::string hostArray(Operation *def) override { return s.hostArray(def); }
  std::string rowsField(Operation *field) override {
    return s.rowsField(cast<FieldOp>(field));
  }
  unsigned setId(FlatSymbolRefAttr set) override { return st.setId(set); }

private:
  CodeStream &cs;
  EmitterState &st;
  const RangeScope &s;
  DenseMap<Value, std::string> names;
};
} // namespace

LogicalResult imeta::emitRangeFormula(CodeStream &cs, EmitterState &st,
                                      Region &body, const RangeScope &scope,
                                      std::string &result) {
  RangePrinter printer(cs, st, scope);
  SmallVector<std::string> yielded;
  if (failed(printer.runBlock(body.front(), yielded)))
    return failure();
  result = yielded.empty() ? "" : yielded[0];
  return success();
}

const char *const imeta::kRangeHelpers =
#include "lib/Lowering/RangeHelpers.text.inc"
    ;
