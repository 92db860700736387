//===- RangeProof.cpp - the per-batch int32 proof of fill formulas --------===//

#include "lib/Lowering/RangeProof.h"
#include "dialect/FormulaBlock.h"
#include "dialect/IMetaSymbols.h"

using namespace mlir;
using namespace imeta;
using llvm::formatv;

/// A load from a list whose elements have no declared bound: the host
/// does not scan it, so the proof knows nothing of its values.
static bool isUnboundedLoad(Operation *op) {
  auto load = dyn_cast<LoadOp>(op);
  if (!load)
    return false;
  auto input = lookupSpecSymbol<InputOp>(load, load.getInputAttr());
  return !input || !input.getMin();
}

ListDependence imeta::analyzeListDependence(SpecOp spec) {
  ListDependence found;
  auto &values = found.values;
  auto &fields = found.fields;
  auto mark = [&](Value v) { return values.insert(v).second; };
  // Rows fields may read each other in any spec order: iterate to a fixed
  // point (each round only adds).
  for (bool changed = true; changed;) {
    changed = false;
    for (auto field : spec.getBody().front().getOps<FieldOp>()) {
      if (field.getDomain() != Domain::rows)
        continue;
      // Post-order: an scf.if is visited after the ops of its regions.
      field.getBody().walk([&](Operation *op) {
        bool dep = isUnboundedLoad(op) ||
                   llvm::any_of(op->getOperands(),
                                [&](Value v) { return values.contains(v); });
        if (auto get = dyn_cast<GetOp>(op))
          dep |= fields.contains(
              lookupSpecSymbol<FieldOp>(get, get.getFieldAttr()));
        for (auto [k, result] : llvm::enumerate(op->getResults())) {
          bool resultDep = dep;
          if (auto ifOp = dyn_cast<scf::IfOp>(op))
            for (Region &region : ifOp->getRegions())
              if (!region.empty())
                resultDep |= values.contains(
                    region.front().getTerminator()->getOperand(k));
          if (resultDep)
            changed |= mark(result);
        }
      });
      Operation *yield = field.getBody().front().getTerminator();
      if (llvm::any_of(yield->getOperands(),
                       [&](Value v) { return values.contains(v); }))
        changed |= fields.insert(field).second;
    }
  }
  return found;
}

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
