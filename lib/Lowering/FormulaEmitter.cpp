//===- FormulaEmitter.cpp - a field or rule body as C++ -------------------===//

#include "lib/Lowering/FormulaEmitter.h"
#include "dialect/FormulaBlock.h"
#include "dialect/IMetaSymbols.h"
#include "lib/Analysis/ColumnInvariants.h"
#include "lib/Analysis/ListDependence.h"
#include "lib/Support/Format.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace imeta;

FormulaNaming::FormulaNaming(SpecOp spec) : lists(analyzeListDependence(spec)) {
  for (Operation &op : spec.getBody().front())
    if (isBucketSet(&op))
      sets.push_back(FlatSymbolRefAttr::get(spec.getContext(),
                                            SymbolTable::getSymbolName(&op)));
}

void FormulaNaming::addCopy(SpecOp copy) {
  ListDependence more = analyzeListDependence(copy);
  lists.values.insert(more.values.begin(), more.values.end());
  lists.fields.insert(more.fields.begin(), more.fields.end());
}

unsigned FormulaNaming::setId(FlatSymbolRefAttr set) const {
  auto it = llvm::find(sets, set);
  if (it == sets.end())
    llvm::report_fatal_error("imeta: no ratio set " + set.getValue());
  return it - sets.begin();
}

unsigned EmitterState::site(Operation *op) {
  auto [it, inserted] = siteOf.try_emplace(op, siteList.size());
  if (!inserted)
    return it->second;
  siteList.push_back({op->getName().getStringRef().str(),
                      FormulaInterpreter::locationOf(op),
                      cast<FormulaOpInterface>(op).getFailureSubject()});
  return siteList.size() - 1;
}

unsigned EmitterState::owner(StringRef name) {
  ownerList.push_back(name.str());
  return ownerList.size() - 1;
}

std::string EmitterState::newTemp() {
  return "t" + std::to_string(nextTemp++); // per op: no format parsing
}

std::string imeta::bucketWords(const EmitterState &st, FlatSymbolRefAttr set,
                               StringRef bucket) {
  return fmt("bucket_words({0}, {1}, c.set)", st.setId(set), bucket);
}

std::string imeta::failRatioArgs(const EmitterState &st,
                                 const FormulaScope &scope) {
  if (!scope.ratios)
    return "-1, 0";
  return std::to_string(st.setId(scope.ratios)) + ", " + scope.bucket;
}

std::string imeta::bucketIndex(const FormulaNaming &names,
                               const FormulaScope &scope,
                               FlatSymbolRefAttr of) {
  if (!of)
    return "0";
  if (of == scope.ratios)
    return scope.bucket;
  return fmt("c.map[{0}][{1}][{2}]", names.setId(scope.ratios), names.setId(of),
             scope.bucket);
}

bool imeta::proofCovers(const EmitterState &st, const FormulaScope &scope,
                        Value v) {
  return scope.fast && !st.names().isListDependent(v) &&
         v.getType().getIntOrFloatBitWidth() <= 32;
}

std::string imeta::valueType(const EmitterState &st, const FormulaScope &scope,
                             Value v) {
  return proofCovers(st, scope, v) ? "I" : "int64_t";
}

namespace {
/// Prints one body: each op's FormulaOpInterface::emitCpp against this,
/// in `scope` (what the enclosing code names and knows).
class Printer final : public CppFormulaPrinter {
public:
  Printer(CodeStream &cs, EmitterState &st, const FormulaScope &scope)
      : cs(cs), st(st), s(scope) {}

  LogicalResult runBlock(Block &block,
                         SmallVectorImpl<std::string> &yielded) override {
    return runFormulaBlock(
        block, yielded, [&](Operation &op) { return emit(&op); },
        [&](Value v) { return names.lookup(v); });
  }

  /// Emits the loop-invariant read `op`; returns its name.
  std::string hoist(Operation *op) {
    (void)emit(op);
    return names.lookup(op->getResult(0));
  }

  /// Emits one op of a slice (its operands emitted before it).
  LogicalResult sliceOp(Operation *op) { return emit(op); }
  std::string name(Value v) { return names.lookup(v); }

  // CppFormulaPrinter.
  std::string operand(Operation *op, unsigned i) override {
    return names.lookup(op->getOperand(i));
  }
  std::string define(Operation *op, const std::string &expr) override {
    std::string name = fresh();
    cs.line("{0}const {1} {2} = {3};", maybeUnused(),
            imeta::valueType(st, s, op->getResult(0)), name, expr);
    names[op->getResult(0)] = name;
    return name;
  }
  void bind(Value v, const std::string &name) override { names[v] = name; }
  std::string fresh() override { return st.newTemp(); }
  std::string valueType(Value v) override { return imeta::valueType(st, s, v); }
  /// Where some branches are known (FormulaScope::known), a value can
  /// lose its only reader: no warning for it (engine builds use -Werror).
  std::string maybeUnused() override {
    return s.known.empty() ? "" : "[[maybe_unused]] ";
  }
  void line(const std::string &text) override { cs.line(StringRef(text)); }
  using CppFormulaPrinter::open;
  void open(const std::string &header, const std::string &tail) override {
    scopes.push_back(std::make_unique<CodeStream::Scope>(cs, header, tail));
  }
  void close() override { scopes.pop_back(); }

  std::string fail(StringRef kind, Operation *op, StringRef value,
                   StringRef length) override {
    // Per checked op: joined, not formatted.
    std::string record =
        (llvm::Twine(s.failCall) + ", " + kind + ", " +
         llvm::Twine(st.site(op)) + ", " + llvm::Twine(s.ownerId) + ", " +
         s.seq + ", " + s.globalRow + ", " + value + ", " +
         failRatioArgs(st, s) + ", " + length + ")")
            .str();
    if (!s.deferFailures.empty())
      return fmt("{ {0}; {1} = true; }", record, s.deferFailures);
    return "return " + record + ";";
  }
  /// The condition prefix of a check the range proof covers: the fast
  /// instantiation drops it.
  std::string proven(Operation *op) override {
    return proofCovers(st, s, op->getResult(0)) ? "kChk && " : "";
  }

  std::string seq() override { return s.seq; }
  std::string row() override { return s.row; }
  std::string globalRow() override { return s.globalRow; }
  std::string col() override { return s.col; }
  std::string ratio() override { return s.ratio; }
  bool fast() override { return s.fast; }
  std::string deferFailures() override { return s.deferFailures; }
  std::string rowLanes() override { return s.rowLanes; }
  std::optional<bool> known(Value v) override {
    if (auto it = s.known.find(v); it != s.known.end())
      return it->second;
    return std::nullopt;
  }
  bool rangeChecked(Operation *load) override {
    return s.rangeCheckedLoads.contains(load);
  }
  bool exactDivision(Operation *op) override {
    return s.exactDivisions.contains(op);
  }
  std::string stepQuotient(Operation *op) override {
    auto it = s.stepQuotients.find(op);
    return it == s.stepQuotients.end() ? "" : it->second;
  }
  std::string divider(Value divisor) override {
    return dividerOf(st, s, divisor);
  }
  std::string bucketIndex(FlatSymbolRefAttr set) override {
    return imeta::bucketIndex(st, s, set);
  }
  unsigned setId(FlatSymbolRefAttr set) override { return st.setId(set); }
  std::string rowsLocal(Operation *field, const std::string &bucket) override {
    return s.rowsLocal(cast<FieldOp>(field), bucket);
  }
  std::string hostValue(Operation *def, const std::string &index) override {
    std::string array = s.hostArray ? s.hostArray(def) : "";
    if (array.empty())
      return CppFormulaPrinter::hostValue(def, index);
    return array + "[" + index + "]";
  }
  std::string numSeqs() override { return s.numSeqs; }
  std::string previous(int64_t column) override {
    if (s.ownValues.empty())
      return "";
    return fmt("({0} > 0 ? int64_t(({1})[({0} - 1) * {2} + {3}]) : "
               "int64_t(0))",
               s.seq, s.ownValues, s.ownWidth, column);
  }
  std::string seqLocal(Operation *field) override {
    return s.seqLocals.lookup(field);
  }

private:
  LogicalResult emit(Operation *op) {
    if (op->getNumResults() == 1)
      if (auto it = s.hoisted.find(op->getResult(0)); it != s.hoisted.end()) {
        names[op->getResult(0)] = it->second;
        return success();
      }
    auto formula = dyn_cast<FormulaOpInterface>(op);
    if (!formula)
      return op->emitOpError("cannot be emitted as C++");
    return formula.emitCpp(*this);
  }

  CodeStream &cs;
  EmitterState &st;
  const FormulaScope &s;
  DenseMap<Value, std::string> names;
  std::vector<std::unique_ptr<CodeStream::Scope>> scopes;
};
} // namespace

std::string imeta::contextDivider(EmitterState &st, const FormulaScope &scope,
                                  Value divisor) {
  Operation *def = divisor.getDefiningOp();
  if (auto cfg = dyn_cast_or_null<GetConfigOp>(def))
    return "c.dv_cfg_" + cfg.getParam().str();
  if (isa_and_nonnull<RatioOp>(def) && scope.ratios)
    return fmt("c.dv_set[{0}][{1}]", st.setId(scope.ratios), scope.bucket);
  if (auto get = dyn_cast_or_null<GetOp>(def)) {
    auto field = lookupSpecSymbol<FieldOp>(get, get.getFieldAttr());
    if (field.getDomain() == Domain::scalar)
      return fmt("c.dv_h_{0}[{1}]", field.getSymName(),
                 bucketIndex(st, scope, field.getRatiosAttr()));
  }
  return "";
}

std::string imeta::dividerOf(EmitterState &st, const FormulaScope &scope,
                             Value divisor) {
  if (auto it = scope.dividers.find(divisor); it != scope.dividers.end())
    return it->second;
  return contextDivider(st, scope, divisor);
}

std::string imeta::emitHoisted(CodeStream &cs, EmitterState &st, Operation *op,
                               const FormulaScope &scope) {
  Printer printer(cs, st, scope);
  return printer.hoist(op);
}

LogicalResult imeta::emitSlice(CodeStream &cs, EmitterState &st, Region &body,
                               ArrayRef<Value> targets,
                               const FormulaScope &scope,
                               SmallVectorImpl<std::string> &names) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work(targets.begin(), targets.end());
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || !body.isAncestor(op->getParentRegion()) || !slice.insert(op))
      continue;
    if (op->getNumRegions() != 0)
      return op->emitOpError("cannot be evaluated apart from its formula");
    work.append(op->operand_begin(), op->operand_end());
  }
  Printer printer(cs, st, scope);
  WalkResult emitted = body.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (slice.contains(op) && failed(printer.sliceOp(op)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (emitted.wasInterrupted())
    return failure();
  for (Value v : targets)
    names.push_back(printer.name(v));
  return success();
}

LogicalResult imeta::emitFormula(CodeStream &cs, EmitterState &st, Region &body,
                                 const FormulaScope &scope,
                                 SmallVectorImpl<std::string> &results) {
  Printer printer(cs, st, scope);
  return printer.runBlock(body.front(), results);
}

LogicalResult imeta::emitRuleFormula(CodeStream &cs, EmitterState &st,
                                     RequireOp rule, const FormulaScope &scope,
                                     ArrayRef<RuleOperand> operands,
                                     ArrayRef<std::string> vars,
                                     SmallVectorImpl<std::string> &results) {
  Printer printer(cs, st, scope);
  if (failed(printer.runBlock(rule.getBody().front(), results)))
    return failure();
  for (auto [o, var] : llvm::zip(operands, vars))
    cs.line("{0} = int64_t({1});", var, printer.name(o.op->getResult(0)));
  return success();
}
