//===- PathPlan.cpp - the schedule of a path's generated code -------------===//

#include "lib/Analysis/PathPlan.h"
#include "dialect/IMetaSymbols.h"
#include "dialect/SubsetLowering.h"
#include "lib/Support/PostOrder.h"

using namespace mlir;
using namespace imeta;

SmallVector<Operation *> imeta::fieldDependencies(Operation *op) {
  llvm::SetVector<Operation *, SmallVector<Operation *>> deps;
  for (FlatSymbolRefAttr sym : symbolDependencies(op)) {
    Operation *def = lookupSymbol(op, sym);
    if (isa_and_nonnull<FieldOp, PrefixSumOp>(def))
      deps.insert(def);
  }
  return deps.takeVector();
}

/// Post-order DFS: dependencies before users. The verifier has ruled out
/// cycles. An explicit stack: a chain of fields as long as the spec is
/// deep costs no call stack.
static void visit(Operation *root, llvm::SetVector<Operation *> &order) {
  walkPostOrder(
      root, fieldDependencies,
      [&](Operation *op) { return order.contains(op); },
      [&](Operation *op) { order.insert(op); });
}

static bool isHostOp(Operation *op) {
  auto field = dyn_cast<FieldOp>(op);
  return !field || field.getDomain() != Domain::rows;
}

SmallVector<RequireOp> imeta::allRules(PathOp path) {
  // A resolving path's first stage checks its own rules (imeta-split-
  // resolves copied the state's there); the path checks the rest.
  if (path->hasAttr(kResolveStageAttr))
    return getPathRules(path);
  auto spec = path->getParentOfType<SpecOp>();
  SmallVector<RequireOp> rules =
      llvm::to_vector(spec.getBody().front().getOps<RequireOp>());
  llvm::append_range(rules, getPathRules(path));
  return rules;
}

std::string imeta::bufferLayout(Operation *def) {
  FlatSymbolRefAttr set = getRatios(def);
  std::string buckets = set ? set.getValue().str() : "1";
  std::string rows, width = "1", type = "i32";
  if (auto sum = dyn_cast<PrefixSumOp>(def)) {
    rows = sum.getConvention() == Convention::exclusive ? "N+1" : "N";
    auto src = lookupSpecSymbol<FieldOp>(sum, sum.getSourceAttr());
    width = src.getCols() ? src.getCols()->str()
                          : std::to_string(src.getWidth());
  } else {
    auto field = cast<FieldOp>(def);
    switch (field.getDomain()) {
    case Domain::scalar:
      rows = "1";
      break;
    case Domain::seq:
      rows = "N";
      break;
    case Domain::rows:
      rows = "rows(" + field.getCountAttr().getValue().str() + ")";
      break;
    }
    width = field.getCols() ? field.getCols()->str()
                            : std::to_string(field.getWidth());
    if (field.getElementType().isInteger(1))
      type = "i1";
  }
  return "[" + buckets + "][" + rows + "][" + width + "] " + type;
}

PathPlan imeta::defaultPlan(PathOp path) {
  CachedSymbolLookups cached; // planning adds no symbol
  PathPlan plan;
  plan.path = path;

  // Host stage: each rule after the host fields it reads, in rule order
  // (so a rule guards the fields after it), then the remaining host fields.
  SmallVector<RequireOp> rules = allRules(path);
  // Every op visited so far, dependencies first: each is scheduled once,
  // when first reached (linear in the spec, however many outputs share a
  // chain of fields).
  llvm::SetVector<Operation *> order;
  auto scheduleHost = [&](Operation *op) {
    size_t from = order.size();
    visit(op, order);
    for (Operation *dep : order.getArrayRef().drop_front(from)) {
      if (isa<RequireOp>(dep))
        continue;
      plan.needed.insert(dep);
      if (isHostOp(dep))
        plan.host.push_back({dep});
    }
  };
  for (RequireOp rule : rules) {
    // A resolved batch's bounds come after every resolving field, as the
    // evaluator computes them all first (imeta-inline-resolves).
    if (auto after = rule->getAttrOfType<ArrayAttr>(kScheduleAfterAttr))
      for (auto sym : after.getAsRange<FlatSymbolRefAttr>())
        scheduleHost(lookupSymbol(rule, sym));
    scheduleHost(rule);
    plan.host.push_back({rule});
  }
  // A resolving path without a rule after the resolution computes the
  // resolving fields before its outputs' (imeta-inline-resolves).
  if (auto after = path->getAttrOfType<ArrayAttr>(kScheduleAfterAttr))
    for (auto sym : after.getAsRange<FlatSymbolRefAttr>())
      scheduleHost(lookupSymbol(path, sym));
  for (OutputOp out : getPathOutputs(path)) {
    scheduleHost(lookupSymbol(out, out.getSourceAttr()));
    if (FlatSymbolRefAttr len = out.getRowsAttr())
      scheduleHost(lookupSymbol(out, len));
  }

  // Fill stage: rows fields grouped by row count, in dependency order.
  for (Operation *op : plan.needed) {
    auto field = dyn_cast<FieldOp>(op);
    if (!field || field.getDomain() != Domain::rows)
      continue;
    auto count = lookupSpecSymbol<FieldOp>(field, field.getCountAttr());
    auto space = llvm::find_if(plan.rowSpaces,
                               [&](RowSpace &s) { return s.count == count; });
    if (space == plan.rowSpaces.end()) {
      plan.rowSpaces.push_back({count, {}});
      space = std::prev(plan.rowSpaces.end());
    }
    space->fields.push_back(field);
  }

  for (OutputOp out : getPathOutputs(path)) {
    Operation *def = lookupSymbol(out, out.getSourceAttr());
    PlannedOutput po;
    po.name = outputIdentifier(out.getName());
    po.label = out.getName().str();
    po.def = def;
    po.ratios = getRatios(def);
    po.fill = out.getFill();
    po.optional = out.getOptional();
    po.emptyRows = emptyDomainRows(def);
    if (FlatSymbolRefAttr len = out.getRowsAttr())
      po.rowsLen = lookupSymbol(out, len);
    if (auto field = dyn_cast<FieldOp>(def)) {
      po.width = field.getCols() ? 0 : field.getWidth();
      po.isBool = field.getElementType().isInteger(1);
    } else {
      // A sum per column is as wide as its summand.
      auto src = lookupSpecSymbol<FieldOp>(def, cast<PrefixSumOp>(def)
                                                    .getSourceAttr());
      po.width = src.getCols() ? 0 : src.getWidth();
    }
    po.layout = bufferLayout(def);
    plan.outputs.push_back(po);
  }

  return plan;
}

/// Replaces the plan's host order by the recorded one, if it is a legal
/// order of the same steps.
static LogicalResult applyHostSchedule(PathPlan &plan, ArrayAttr order) {
  PathOp path = plan.path;
  SmallVector<RequireOp> rules = allRules(path);
  std::vector<HostStep> steps;
  llvm::DenseSet<Operation *> done;
  int64_t lastRule = -1;
  for (Attribute a : order) {
    Operation *op = nullptr;
    if (auto idx = dyn_cast<IntegerAttr>(a)) {
      int64_t k = idx.getInt();
      if (k < 0 || k >= int64_t(rules.size()))
        return path.emitOpError("schedule ") << kHostScheduleAttr
                                             << " names rule " << k
                                             << ", which does not exist";
      if (k != lastRule + 1)
        return path.emitOpError("schedule ")
               << kHostScheduleAttr << " checks rule " << k
               << " out of order; rules run in the order they are written";
      lastRule = k;
      op = rules[k];
    } else if (auto sym = dyn_cast<FlatSymbolRefAttr>(a)) {
      op = lookupSymbol(path, sym);
      if (!op || !llvm::any_of(plan.host,
                               [&](HostStep &h) { return h.op == op; }))
        return path.emitOpError("schedule ")
               << kHostScheduleAttr << " lists " << sym
               << ", which is not a host-stage value of this path";
    } else {
      return path.emitOpError("schedule ")
             << kHostScheduleAttr << " holds " << a
             << "; expected field symbols and rule indices";
    }
    for (Operation *dep : fieldDependencies(op))
      if (isHostOp(dep) && !done.contains(dep))
        return path.emitOpError("schedule ")
               << kHostScheduleAttr << " computes "
               << (isa<RequireOp>(op) ? "a rule" : "@" + SymbolTable::getSymbolName(op).str())
               << " before @" << SymbolTable::getSymbolName(dep).getValue()
               << ", which it reads";
    if (!done.insert(op).second)
      return path.emitOpError("schedule ")
             << kHostScheduleAttr << " lists a step twice";
    steps.push_back({op});
  }
  if (steps.size() != plan.host.size())
    return path.emitOpError("schedule ")
           << kHostScheduleAttr << " has " << steps.size()
           << " steps; the path needs " << plan.host.size();
  plan.host = std::move(steps);
  return success();
}

/// Replaces the plan's row spaces by the recorded fusion, if legal.
static LogicalResult applyFillSchedule(PathPlan &plan, ArrayAttr groups) {
  PathOp path = plan.path;
  std::vector<RowSpace> spaces;
  size_t total = 0, expected = 0;
  for (RowSpace &s : plan.rowSpaces)
    expected += s.fields.size();
  llvm::DenseSet<Operation *> seen;
  for (Attribute g : groups) {
    auto list = dyn_cast<ArrayAttr>(g);
    if (!list || list.size() < 2 ||
        !llvm::all_of(list, [](Attribute a) { return isa<FlatSymbolRefAttr>(a); }))
      return path.emitOpError("schedule ")
             << kFillScheduleAttr
             << " holds groups [@count, @field, ...] of symbols";
    auto count = lookupSpecSymbol<FieldOp>(path, cast<FlatSymbolRefAttr>(list[0]));
    if (!count)
      return path.emitOpError("schedule ")
             << kFillScheduleAttr << ": " << list[0] << " is not a field";
    RowSpace space{count, {}};
    llvm::DenseSet<Operation *> inGroup;
    for (Attribute a : list.getValue().drop_front()) {
      auto field = lookupSpecSymbol<FieldOp>(path, cast<FlatSymbolRefAttr>(a));
      if (!field || !plan.needed.contains(field) ||
          field.getDomain() != Domain::rows || !seen.insert(field).second)
        return path.emitOpError("schedule ")
               << kFillScheduleAttr << " lists " << a
               << ", which is not a rows field of this path (or twice)";
      if (field.getCountAttr() != list[0])
        return path.emitOpError("schedule ")
               << kFillScheduleAttr << " puts " << a << " in the rows of "
               << list[0] << "; it has rows(" << field.getCountAttr() << ")";
      for (Operation *dep : fieldDependencies(field))
        if (auto d = dyn_cast<FieldOp>(dep))
          if (d.getDomain() == Domain::rows && !inGroup.contains(d))
            return path.emitOpError("schedule ")
                   << kFillScheduleAttr << " computes " << a << " before @"
                   << d.getSymName() << ", which it reads";
      inGroup.insert(field);
      space.fields.push_back(field);
      ++total;
    }
    spaces.push_back(std::move(space));
  }
  if (total != expected)
    return path.emitOpError("schedule ")
           << kFillScheduleAttr << " fills " << total
           << " rows fields; the path needs " << expected;
  plan.rowSpaces = std::move(spaces);
  return success();
}

/// A GPU path's kernel does not hold config lists (lookup tables): a
/// field of its row spaces that reads one is refused by name.
static LogicalResult checkDeviceReads(const PathPlan &plan) {
  if (PathOp(plan.path).getTarget() != Target::gpu)
    return success();
  for (const RowSpace &space : plan.rowSpaces)
    for (FieldOp field : space.fields) {
      WalkResult found = field.walk([&](Operation *op) {
        return isa<ConfigAtOp, ConfigLenOp>(op) ? WalkResult::interrupt()
                                                : WalkResult::advance();
      });
      if (found.wasInterrupted()) {
        InFlightDiagnostic diag =
            PathOp(plan.path).emitOpError("is a GPU path, but field @")
            << field.getSymName()
            << " reads a config list, which a kernel does not hold; "
               "give the path target(cpu)";
        diag.attachNote(field.getLoc()) << "field @" << field.getSymName()
                                        << " is here";
        return diag;
      }
    }
  return success();
}

FailureOr<PathPlan> imeta::planPath(PathOp path) {
  CachedSymbolLookups cached; // planning adds no symbol
  PathPlan plan = defaultPlan(path);
  if (failed(checkDeviceReads(plan)))
    return failure();
  for (OutputOp out : getPathOutputs(path)) {
    auto recorded = out->getAttrOfType<StringAttr>(kLayoutAttr);
    if (!recorded)
      continue;
    std::string layout = bufferLayout(
        lookupSymbol(out, out.getSourceAttr()));
    if (recorded.getValue() != layout)
      return out.emitOpError("records the buffer layout '")
             << recorded.getValue() << "', but its field is laid out as '"
             << layout << "'";
  }
  if (auto order = path->getAttrOfType<ArrayAttr>(kHostScheduleAttr))
    if (failed(applyHostSchedule(plan, order)))
      return failure();
  if (auto groups = path->getAttrOfType<ArrayAttr>(kFillScheduleAttr))
    if (failed(applyFillSchedule(plan, groups)))
      return failure();
  return plan;
}

/// Whether a path's fast fill (the proof holding) can still fail: it reads
/// a list's elements (an index past the list; a value computed from
/// elements that leaves i32) or a resolved list's rows (check_index).
bool imeta::fastFillCanFail(const PathPlan &plan) {
  for (const RowSpace &space : plan.rowSpaces)
    for (FieldOp field : space.fields) {
      WalkResult r = field.walk([](Operation *op) {
        auto f = dyn_cast<FormulaOpInterface>(op);
        return (f && f.readsListElements()) || isa<CheckIndexOp>(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      });
      if (r.wasInterrupted())
        return true;
    }
  return false;
}
