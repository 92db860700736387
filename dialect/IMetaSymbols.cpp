//===- IMetaSymbols.cpp - resolving a spec's symbols ----------------------===//

#include "dialect/IMetaSymbols.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

using namespace mlir;
using namespace imeta;

static thread_local SymbolTableCollection *activeTables = nullptr;

SymbolLookupScope::SymbolLookupScope(SymbolTableCollection *tables)
    : previous(activeTables) {
  activeTables = tables;
}

SymbolLookupScope::~SymbolLookupScope() { activeTables = previous; }

Operation *imeta::lookupSymbol(Operation *from, FlatSymbolRefAttr sym) {
  if (!sym)
    return nullptr;
  return activeTables ? activeTables->lookupNearestSymbolFrom(from, sym)
                      : SymbolTable::lookupNearestSymbolFrom(from, sym);
}

Operation *imeta::lookupSymbol(Operation *from, StringAttr sym) {
  if (!sym)
    return nullptr;
  return activeTables ? activeTables->lookupNearestSymbolFrom(from, sym)
                      : SymbolTable::lookupNearestSymbolFrom(from, sym);
}

FormulaContext imeta::getFormulaContext(Operation *op) {
  FormulaContext ctx;
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    if (auto field = dyn_cast<FieldOp>(p)) {
      ctx.owner = field;
      ctx.domain = field.getDomain();
      ctx.count = field.getCountAttr();
      ctx.ratios = field.getRatiosAttr();
      ctx.cols = field.getColsAttr();
      return ctx;
    }
    if (auto rule = dyn_cast<RequireOp>(p)) {
      ctx.owner = rule;
      ctx.domain = rule.getDomain();
      ctx.ratios = rule.getRatiosAttr();
      return ctx;
    }
  }
  return ctx;
}

/// `seen` bounds the walk so that a (separately diagnosed) cycle of unions
/// cannot recurse forever.
static bool containsImpl(Operation *from, FlatSymbolRefAttr outer,
                         FlatSymbolRefAttr inner, unsigned depth) {
  if (outer == inner)
    return true;
  if (!outer || !inner || depth > 64)
    return false;
  // A union is contained if each member is.
  if (auto u = lookupSpecSymbol<RatioUnionOp>(from, inner))
    return llvm::all_of(u.getMembers(), [&](Attribute m) {
      return containsImpl(from, outer, cast<FlatSymbolRefAttr>(m), depth + 1);
    });
  if (auto u = lookupSpecSymbol<RatioUnionOp>(from, outer))
    return llvm::any_of(u.getMembers(), [&](Attribute m) {
      return containsImpl(from, cast<FlatSymbolRefAttr>(m), inner, depth + 1);
    });
  return false;
}

bool imeta::ratioSetContains(Operation *from, FlatSymbolRefAttr outer,
                             FlatSymbolRefAttr inner) {
  return containsImpl(from, outer, inner, 0);
}

StringRef imeta::reportedName(Operation *def) {
  if (auto as = def->getAttrOfType<StringAttr>(kReportedAsAttr))
    return as.getValue();
  return SymbolTable::getSymbolName(def).getValue();
}

FlatSymbolRefAttr imeta::getRatios(Operation *fieldOrPrefix) {
  if (auto field = dyn_cast<FieldOp>(fieldOrPrefix))
    return field.getRatiosAttr();
  if (auto sum = dyn_cast<PrefixSumOp>(fieldOrPrefix))
    if (auto src = lookupSpecSymbol<FieldOp>(sum, sum.getSourceAttr()))
      return src.getRatiosAttr();
  return nullptr;
}

LogicalResult imeta::verifyRatioUse(Operation *user, FlatSymbolRefAttr reader,
                                    FlatSymbolRefAttr used,
                                    FlatSymbolRefAttr usedSym) {
  if (!used || ratioSetContains(user, used, reader))
    return success();
  if (!reader)
    return user->emitOpError()
           << "reads " << usedSym << ", which is bucketed over " << used
           << ", from a context that is not bucketed; declare the reader `over "
           << used << "` too";
  return user->emitOpError()
         << "reads " << usedSym << ", bucketed over " << used
         << ", from a context bucketed over " << reader
         << ", which is not a subset of it";
}

bool imeta::isFormulaOp(Operation *op) {
  return isa<FormulaOpInterface>(op) || isa<scf::YieldOp, YieldOp>(op);
}

std::string imeta::outputIdentifier(StringRef name) {
  std::string id = name.str();
  std::replace(id.begin(), id.end(), '.', '_');
  return id;
}

StringRef imeta::outputBaseName(StringRef name) {
  auto [stem, last] = name.rsplit('.');
  return !last.empty() && llvm::all_of(last, llvm::isDigit) ? stem : name;
}

std::string imeta::freshSymbolName(SpecOp spec, const std::string &base) {
  std::string name = base;
  for (int k = 2; SymbolTable::lookupSymbolIn(spec, name); ++k)
    name = base + "_" + std::to_string(k);
  return name;
}

InputOp imeta::readInput(Operation *op) {
  auto formula = dyn_cast<FormulaOpInterface>(op);
  FlatSymbolRefAttr sym = formula ? formula.getInputRead() : nullptr;
  return sym ? lookupSpecSymbol<InputOp>(op, sym) : InputOp();
}

bool imeta::isSlotInput(InputOp in) {
  auto spec = in->getParentOfType<SpecOp>();
  return llvm::any_of(spec.getBody().front().getOps<InputOp>(), [&](InputOp s) {
    return s.getSlotAttr() && s.getSlotAttr().getValue() == in.getSymName();
  });
}

void imeta::collectInputsRead(ArrayRef<Operation *> roots,
                              llvm::SetVector<Operation *> &inputs) {
  llvm::SmallPtrSet<Operation *, 16> seen;
  SmallVector<Operation *> work(roots.begin(), roots.end());
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!seen.insert(op).second)
      continue;
    op->walk([&](Operation *inner) {
      if (InputOp in = readInput(inner))
        inputs.insert(in);
    });
    for (FlatSymbolRefAttr dep : symbolDependencies(op))
      if (Operation *def = lookupSymbol(op, dep))
        if (isa<FieldOp, PrefixSumOp>(def))
          work.push_back(def);
  }
}

bool imeta::readsState(Operation *root) {
  llvm::SetVector<Operation *> inputs;
  collectInputsRead(root, inputs);
  return llvm::any_of(inputs, [](Operation *op) {
    InputOp in = cast<InputOp>(op);
    return in.isState() || isSlotInput(in);
  });
}

bool imeta::isBucketSet(Operation *def) {
  return isa_and_nonnull<RatiosOp, RatioUnionOp, AxisOp>(def);
}

SmallVector<FlatSymbolRefAttr> imeta::symbolDependencies(Operation *op) {
  SmallVector<FlatSymbolRefAttr> deps;
  if (auto sum = dyn_cast<PrefixSumOp>(op))
    deps.push_back(sum.getSourceAttr());
  if (auto u = dyn_cast<RatioUnionOp>(op))
    for (Attribute m : u.getMembers())
      deps.push_back(cast<FlatSymbolRefAttr>(m));
  if (auto field = dyn_cast<FieldOp>(op))
    for (FlatSymbolRefAttr a :
         {field.getCountAttr(), field.getLiveAttr(), field.getColsAttr()})
      if (a)
        deps.push_back(a);
  if (isa<FieldOp, RequireOp>(op))
    op->walk([&](FormulaOpInterface inner) {
      inner.getFieldDependencies(deps);
    });
  return deps;
}
