//===- EmitDeviceStage.cpp - a GPU path's sequence stage on the device ----===//
//
// The host steps of a path (PathPlan::host, by level: stageLevels) and its
// row starts, as lanes run them; the failures' words (EmitDeviceStage.h).
//
//===----------------------------------------------------------------------===//

#include "lib/Lowering/EmitDeviceStage.h"
#include "dialect/RuleOperands.h"
#include "lib/Lowering/ResolvedBounds.h"
#include "lib/Support/Format.h"

using namespace mlir;
using imeta::fmt;

namespace imeta::emit {

namespace {
/// How a step runs in the stage: once (the leader lane), per sequence (the
/// lanes share the sequences), or as a scan of the lanes.
enum class StepKind { scalar, perSeq, sum };

StepKind kindOf(Operation *op) {
  if (isa<PrefixSumOp>(op))
    return StepKind::sum;
  Domain d = isa<RequireOp>(op) ? cast<RequireOp>(op).getDomain()
                                : cast<FieldOp>(op).getDomain();
  return d == Domain::seq ? StepKind::perSeq : StepKind::scalar;
}

/// Whether a step loops over a sequence's rows (its bound a value the
/// stage computed: zeroed first where it may be left unwritten).
bool loopsOverRows(Operation *op) {
  bool loops = false;
  op->walk([&](ReduceRowsOp) { loops = true; });
  return loops;
}

/// Whether a step reads an input (every sequence's, written by the other
/// lanes where it is request state gathered at a slot).
bool readsInputs(Operation *op) {
  bool reads = false;
  op->walk([&](Operation *o) {
    reads |= isa<GetInputOp, LoadOp, LengthOp, CountOp, GatherOp>(o);
  });
  return reads;
}

/// The stage's host steps by level (plan.host indices, in order within a
/// kind): a step runs in the first level after every step it reads whose
/// value another lane wrote (a scalar or a prefix sum read by a lane, a
/// sequence's value read by a scan, a scalar, an own step or the other
/// way round), so that each level is a pass of each kind and one barrier.
/// A per-sequence step that reads only its own sequence's values (the
/// lane that wrote them) shares their level, as the host fuses a run of
/// them (HostPasses). The failure keys keep the host's order whatever
/// the level (the lowest key is the first failure).
struct StageLevel {
  SmallVector<size_t> seq, own, scalar, sums;
  /// Every step of the level, whatever its kind.
  template <class F> void each(F f) const {
    for (const SmallVector<size_t> *steps : {&seq, &own, &scalar, &sums})
      for (size_t k : *steps)
        f(k);
  }
};
std::vector<StageLevel> stageLevels(const PathPlan &plan,
                                    const llvm::DenseSet<Operation *> &own) {
  llvm::DenseMap<Operation *, size_t> index;
  for (auto [k, step] : llvm::enumerate(plan.host))
    index[step.op] = k;
  std::vector<unsigned> level(plan.host.size(), 0);
  std::vector<StageLevel> levels;
  for (auto [k, step] : llvm::enumerate(plan.host)) {
    StepKind kind = kindOf(step.op);
    bool isOwn = own.contains(step.op);
    unsigned lv = isOwn || (kind != StepKind::perSeq && readsInputs(step.op));
    for (Operation *dep : fieldDependencies(step.op)) {
      auto it = index.find(dep);
      if (it == index.end())
        continue;
      StepKind dk = kindOf(dep);
      bool sameLane =
          (isOwn && own.contains(dep)) ||
          (dk == StepKind::scalar && kind == StepKind::scalar) ||
          (dk == StepKind::perSeq && kind == StepKind::perSeq && !isOwn &&
           !own.contains(dep));
      lv = std::max(lv, level[it->second] + (sameLane ? 0u : 1u));
    }
    level[k] = lv;
    if (levels.size() <= lv)
      levels.resize(lv + 1);
    StageLevel &at = levels[lv];
    (kind == StepKind::sum      ? at.sums
     : kind == StepKind::scalar ? at.scalar
     : isOwn                    ? at.own
                                : at.seq)
        .push_back(k);
  }
  return levels;
}
} // namespace

std::string DeviceStageEmitter::blocker(const SpecLayout &L,
                                        const PathPlan &plan) {
  PathOp path(plan.path);
  if (path.getTarget() != Target::gpu)
    return "a CPU path";
  if (plan.path->hasAttr(kResolvedByAttr))
    return "its inputs are resolved from request state by a first stage "
           "(imeta.resolve), which runs on the host";
  for (const InputDecl *in : stateInputs(L, plan))
    if (in->isList() && in->op.getMin())
      return "its request state '" + in->name.str() +
             "' is a list with a minimum, whose elements the host scans";
  for (const HostStep &step : plan.host) {
    Operation *op = step.op;
    FieldOp values = SpecLayout::valuesField(op);
    if ((values && values.getCols()) || L.isWideHostValue(op))
      return "its host value '" + symName(op) +
             "' has several columns per sequence";
    if (op->walk([](PrevOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      return "field '" + symName(op) + "' is a fold over the sequences "
             "(prev), computed one sequence after another on the host";
  }
  return "";
}

LogicalResult emitValueStores(CodeStream &cs, const SpecLayout &L,
                              EmitterState &st, FieldOp field,
                              const FormulaScope &scope, StringRef onlyIf,
                              StringRef local) {
  SmallVector<std::string> results;
  if (failed(emitFormula(cs, st, field.getBody(), scope, results)))
    return failure();
  std::optional<CodeStream::Scope> guard;
  if (!onlyIf.empty())
    guard.emplace(cs, ("if (" + onlyIf + ")").str());
  if (results.size() == 1)
    cs.line("{2}*slot = {0}({1});", L.hostElem(field), results[0],
            local.empty() ? "" : (local + " = ").str());
  else
    for (auto [k, v] : llvm::enumerate(results))
      cs.line("slot[{0}] = {1}({2});", k, L.hostElem(field), v);
  return success();
}

std::string DeviceStageEmitter::stepBlocker(const SpecLayout &L,
                                            const PathPlan &plan) {
  if (std::string why = blocker(L, plan); !why.empty())
    return why;
  for (const PlannedOutput &po : plan.outputs) {
    if (po.rowsLen)
      return "output '" + po.label + "' has its rows from '" +
             symName(po.rowsLen) + "'";
    FieldOp values = po.width ? FieldOp() : SpecLayout::valuesField(po.def);
    if (values && values.getCols() &&
        lookupSpecSymbol<FieldOp>(values, values.getColsAttr()))
      return "output '" + po.label + "' is as wide as field '" +
             values.getCols()->str() + "', a host value";
  }
  return "";
}

llvm::SetVector<Operation *>
DeviceStageEmitter::stepInputs(const SpecLayout &L, const PathPlan &plan) {
  llvm::SetVector<Operation *> used = L.deviceInputs(plan);
  auto collect = [&](Operation *op) {
    op->walk([&](Operation *inner) {
      if (InputOp in = readInput(inner))
        used.insert(in);
    });
  };
  for (const HostStep &step : plan.host)
    collect(step.op);
  for (RequireOp rule : allRules(PathOp(plan.path)))
    collect(rule);
  // The stage reads each state input's slots to gather it.
  for (const InputDecl *in : stateInputs(L, plan))
    used.insert(lookupSpecSymbol<InputOp>(in->op, in->op.getSlotAttr()));
  return used;
}

std::vector<const InputDecl *>
DeviceStageEmitter::deviceCheckedInputs(const SpecLayout &L,
                                        const PathPlan &plan) {
  std::vector<const InputDecl *> checked;
  if (!hasStep(L, plan))
    return checked;
  llvm::SetVector<Operation *> used = stepInputs(L, plan);
  for (const InputDecl &in : L.inputs())
    if (!in.isList() && !in.isState() && in.op.getMin() &&
        holdsInput(used, in))
      checked.push_back(&in);
  return checked;
}

std::vector<const InputDecl *>
DeviceStageEmitter::deviceRowTables(const SpecLayout &L,
                                    const PathPlan &plan) {
  if (!hasStep(L, plan))
    return {};
  return residentInputs(L.inputs(), stepInputs(L, plan));
}

std::vector<const InputDecl *>
DeviceStageEmitter::stateInputs(const SpecLayout &L, const PathPlan &plan) {
  std::vector<const InputDecl *> state;
  SmallVector<Operation *> needs = getPathNeeds(PathOp(plan.path));
  for (const InputDecl &in : L.inputs())
    if (in.isState() && holdsInput(needs, in))
      state.push_back(&in);
  return state;
}

namespace {
/// A state input's slot input (`slot = @S`).
StringRef slotOf(const InputDecl &in) { return *in.op.getSlot(); }
} // namespace

/// The state gathered at each sequence's slot, as the host's setup does
/// it (EmitHost.cpp, emitSetupState) and keyed in its order: first every
/// state list's rows (offsets from 0, never decreasing; a declared width),
/// input by input, slot by slot (kStateRowsStep); then per sequence, after
/// its inputs' checks, each state input's slot in [-1, slots) and value
/// at least its minimum (kInputStep, b past the inputs' places). A
/// sequence whose slot fails reads nothing (zeros), as on the host.
void DeviceStageEmitter::emitStateGather(CodeStream &cs,
                                         const PathPlan &plan) {
  std::vector<const InputDecl *> state = stateInputs(L, plan);
  if (state.empty())
    return;
  int64_t base = int64_t(L.inputs().size());
  cs.line("// Request state, read at each sequence's slot.");
  for (auto [k, in] : llvm::enumerate(state)) {
    if (!in->isList())
      continue;
    CodeStream::Scope rows(cs, fmt("for (int64_t r = ln.id(); r < "
                                   "c.slots_{0}; r += ln.count())",
                                   slotOf(*in)));
    cs.line("const int64_t *const o = c.st_{0}_offsets;", in->name);
    cs.line("const int64_t entries = o ? o[r + 1] - o[r] : c.st_{0}_lengths[r];",
            in->name);
    cs.line("if (o ? o[0] != 0 || entries < 0 : entries < 0 || entries > "
            "c.st_{0}_stride) "
            "ln.fail(imeta_stage_key({1}, {2}, 2 * r), imeta_stage_record(r, "
            "entries));",
            in->name, kStateRowsStep, k);
    if (auto width = in->op.getWidth())
      cs.line("else if (entries != c.cfg_{0}) "
              "ln.fail(imeta_stage_key({1}, {2}, 2 * r + 1), "
              "imeta_stage_record(r, entries));",
              *width, kStateRowsStep, k);
  }
  // A bad row (a length past its table's stride, offsets that decrease)
  // bounds nothing: stop here, its key the lowest.
  if (llvm::any_of(state, [](const InputDecl *in) { return in->isList(); }))
    cs.line("if (ln.failed()) return false;");
  // The gathered values: writable arrays the context points at. The
  // context's members read once, before the loop (every store through a
  // pointer would have the compiler load them again).
  CodeStream::Scope outer(cs, "");
  llvm::SetVector<StringRef> slots;
  for (const InputDecl *in : state)
    slots.insert(slotOf(*in));
  for (StringRef slot : slots)
    cs.line("const int64_t slots_{0} = c.slots_{0};", slot);
  for (const InputDecl *in : state) {
    if (in->isList()) {
      cs.line("const auto so_{0} = c.st_{0}_offsets;", in->name);
      cs.line("const auto sl_{0} = c.st_{0}_lengths;", in->name);
      cs.line("const int64_t ss_{0} = c.st_{0}_stride;", in->name);
      cs.line("int64_t *const gb_{0} = const_cast<int64_t "
              "*>(c.in_{0}_begin);",
              in->name);
      cs.line("int64_t *const ge_{0} = const_cast<int64_t *>(c.in_{0}_end);",
              in->name);
      continue;
    }
    cs.line("const {0} *const st_{1} = c.st_{1};", in->elemType(), in->name);
    cs.line("{0} *const g_{1} = const_cast<{0} *>(c.in_{1});", in->elemType(),
            in->name);
  }
  {
    CodeStream::Scope loop(cs, "for (int64_t i = ln.id(); i < N; i += "
                               "ln.count())");
    cs.line("bool read = true;  // until a failure: then zeros, as on the "
            "host");
    for (StringRef slot : slots)
      cs.line("const int64_t at_{0} = c.in_{0}[i];", slot);
    // Every value loaded at once where its slot is in range (the checks
    // below take them in order): no load waits on the check before it, a
    // chain of dependent loads a sequence that cost the step microseconds.
    for (const InputDecl *in : state) {
      StringRef name = in->name, slot = slotOf(*in);
      cs.line("const int64_t s_{0} = at_{1};", name, slot);
      cs.line("const bool sok_{0} = s_{0} >= 0 && s_{0} < slots_{1};", name,
              slot);
      if (!in->isList()) {
        cs.line("const {0} p_{1} = sok_{1} ? st_{1}[s_{1}] : {0}(0);",
                in->elemType(), name);
        continue;
      }
      cs.line("const int64_t pb_{0} = !sok_{0} ? 0 : so_{0} ? so_{0}[s_{0}] "
              ": s_{0} * ss_{0};",
              name);
      cs.line("const int64_t pe_{0} = !sok_{0} ? 0 : so_{0} ? so_{0}[s_{0} "
              "+ 1] : pb_{0} + sl_{0}[s_{0}];",
              name);
    }
    for (auto [k, in] : llvm::enumerate(state)) {
      StringRef name = in->name, slot = slotOf(*in);
      cs.line("if (read && (s_{0} < -1 || s_{0} >= slots_{1})) {{ "
              "ln.fail(imeta_stage_key({2}, i, {3}), imeta_stage_record(i, "
              "s_{0})); read = false; }",
              name, slot, kInputStep, base + 2 * int64_t(k));
      if (!in->isList()) {
        cs.line("const {0} v_{1} = read && s_{1} >= 0 ? p_{1} : {0}(0);",
                in->elemType(), name);
        cs.line("g_{0}[i] = v_{0};", name);
        if (auto min = in->op.getMin()) {
          CodeStream::Scope low(cs, fmt("if (read && s_{0} >= 0 && v_{0} "
                                        "< {1})",
                                        name, int64_t(*min)));
          cs.line("ErrorRecord r = imeta_stage_record(i, v_{0});", name);
          cs.line("r.length = s_{0};", name);
          cs.line("ln.fail(imeta_stage_key({0}, i, {1}), r);", kInputStep,
                  base + 2 * int64_t(k) + 1);
          cs.line("read = false;");
        }
        continue;
      }
      cs.line("gb_{0}[i] = !read || s_{0} < 0 ? 0 : pb_{0};", name);
      cs.line("ge_{0}[i] = !read || s_{0} < 0 ? 0 : pe_{0};", name);
    }
  }
  // No barrier: the first level's steps that read the gathered values
  // are per-sequence ones, on the lane that gathered them (stageLevels).
}

/// The words of emitStateGather's failures: `rows`, the case of
/// kStateRowsStep; otherwise the cases (b) within kInputStep's switch.
void DeviceStageEmitter::emitStateMessages(CodeStream &cs,
                                           const PathPlan &plan, bool rows) {
  std::vector<const InputDecl *> state = stateInputs(L, plan);
  int64_t base = int64_t(L.inputs().size());
  if (rows) {
    if (llvm::none_of(state, [](const InputDecl *in) { return in->isList(); }))
      return;
    cs.line("case {0}:  // state rows: state input a, slot i / 2",
            kStateRowsStep);
    cs.line("  switch (a) {");
    for (auto [k, in] : llvm::enumerate(state)) {
      if (!in->isList())
        continue;
      StringRef key = in->op.getBatchKey();
      cs.line("  case {0}:", k);
      cs.line("    if (i % 2 == 0 && !c.st_{0}_offsets) return \"state "
              "'{1}' slot \" + std::to_string(i / 2) + \": has \" + "
              "std::to_string(rec.value) + (rec.value == 1 ? \" entry\" : "
              "\" entries\") + \", outside its table's [0, \" + "
              "std::to_string(c.st_{0}_stride) + \"]\";",
              in->name, key);
      cs.line("    if (i % 2 == 0) return \"state: offsets of '{0}' must "
              "start at 0 and not decrease\";",
              key);
      if (auto width = in->op.getWidth())
        cs.line("    return \"state '{0}' slot \" + std::to_string(i / 2) + "
                "\": has \" + std::to_string(rec.value) + (rec.value == 1 ? "
                "\" entry\" : \" entries\") + \", not {1} = \" + "
                "std::to_string(c.cfg_{1}) + \"{2}\";",
                key, *width, ruleSuffix(in->op.getRule()));
      cs.line("    break;");
    }
    cs.line("  }");
    cs.line("  return \"stage: failure \" + std::to_string(key) + \" has no "
            "words\";");
    return;
  }
  // Per sequence a: the slot (b = base + 2k), the value's minimum (+ 1).
  for (auto [k, in] : llvm::enumerate(state)) {
    StringRef key = in->op.getBatchKey(), slot = slotOf(*in);
    auto slotDecl = lookupSpecSymbol<InputOp>(in->op, in->op.getSlotAttr());
    cs.line("  case {0}: return \"sequence \" + std::to_string(a) + \": {1} = "
            "\" + std::to_string(rec.value) + \" is outside [-1, \" + "
            "std::to_string(c.slots_{1}) + \") (the slots of state "
            "'{2}'){3}\";",
            base + 2 * int64_t(k), slot, key,
            ruleSuffix(slotDecl.getRule()));
    if (auto min = in->op.getMin(); min && !in->isList())
      cs.line("  case {0}: return \"sequence \" + std::to_string(a) + \": "
              "{1} = \" + std::to_string(rec.value) + \" at {2} \" + "
              "std::to_string(rec.length) + \" breaks {1} >= {3}{4}\";",
              base + 2 * int64_t(k) + 1, key, slot, int64_t(*min),
              ruleSuffix(in->op.getRule()));
  }
}

/// A device step's input checks (deviceCheckedInputs), first in its
/// stage: a value below its `min` keyed (kInputStep, sequence, the
/// input's place among the declarations), the order in which the host
/// names them.
void DeviceStageEmitter::emitInputChecks(CodeStream &cs,
                                         const PathPlan &plan) {
  std::vector<const InputDecl *> checked = deviceCheckedInputs(L, plan);
  if (checked.empty())
    return;
  cs.line("// Input checks: each scalar input's minimum.");
  CodeStream::Scope loop(cs, "for (int64_t i = ln.id(); i < N; i += "
                             "ln.count())");
  for (const InputDecl *in : checked) {
    int64_t order = in - L.inputs().data();
    cs.line("if (c.in_{0}[i] < {1}) ln.fail(imeta_stage_key({2}, i, {3}), "
            "imeta_stage_record(i, c.in_{0}[i]));",
            in->name, int64_t(*in->op.getMin()), kInputStep, order);
  }
}

/// A device step's check of the table rows the engine keeps on the device
/// alone (deviceRowTables; the host checks every other table): each group
/// of threads its own sequences, its lanes splitting a row and the lowest
/// bad column kept (fold_rows), keyed (kInputStep, sequence, the input's
/// place) as the scalar checks are.
void DeviceStageEmitter::emitTableChecks(CodeStream &cs,
                                         const PathPlan &plan) {
  for (const InputDecl *in : deviceRowTables(L, plan)) {
    StringRef name = in->name;
    cs.line("// Rows of '{0}_table' on the device alone.", name);
    CodeStream::Scope lanes(cs, fmt("if (c.tv_{0}_bound)", name));
    cs.line("auto &&wl = ln.own_lanes(N);");
    CodeStream::Scope loop(cs, "for (int64_t i = wl.own(); i < N; i += "
                               "wl.own_count())");
    cs.line("const int64_t b = c.in_{0}_begin[i];", name);
    cs.line("int64_t bad = INT64_MAX, acc = 0;");
    cs.line("ErrorRecord vr{};");
    {
      CodeStream::Scope k(cs, fmt("for (int64_t k = b + wl.id(); k < "
                                  "c.in_{0}_end[i]; k += wl.count())",
                                  name));
      cs.line("const int32_t v = c.in_{0}[k];", name);
      CodeStream::Scope b(cs, fmt("if (v < {0} || v >= c.tv_{1}_bound)",
                                  int64_t(*in->op.getMin()), name));
      cs.line("bad = k - b;");
      cs.line("vr = imeta_stage_record(i, v);");
      cs.line("vr.row = bad;");
      cs.line("vr.length = c.tv_{0}_stride ? b / c.tv_{0}_stride : 0;  // "
              "the table's row",
              name);
      cs.line("break;");
    }
    cs.line("if (!wl.fold_rows(0, bad, vr, acc, false)) "
            "wl.fail_one(imeta_stage_key({0}, i, {1}), vr);",
            kInputStep, in - L.inputs().data());
  }
}

LogicalResult DeviceStageEmitter::emitProof(CodeStream &cs,
                                            const PathPlan &plan) {
  if (!hasStep(L, plan))
    return success();
  std::string path = PathOp(plan.path).getSymName().str();
  std::string ctx = L.ctxName(plan);
  // The scans of the batch by the lanes; a list's elements from the
  // context (the host's input check).
  auto leafText = [](const std::string &expr) {
    std::string e = expr;
    auto replace = [&](StringRef from, StringRef to) {
      for (size_t at = e.find(from.str()); at != std::string::npos;
           at = e.find(from.str(), at + to.size()))
        e.replace(at, from.size(), to.str());
    };
    replace("r_span(c.h_", "ln.part_span(c.h_");
    replace("r_span(c.in_", "ln.part_span(c.in_");
    replace("r_lengths(", "ln.part_lengths(");
    replace("Range{H.lo_", "Range{c.lo_");
    replace(", H.hi_", ", c.hi_");
    if (StringRef(e).starts_with("Range{c.lo_"))
      e = "ln.part_exact(" + e + ")";
    return e;
  };
  std::string body;
  llvm::raw_string_ostream os(body);
  CodeStream bs(os, cs.level() + 1);
  std::vector<std::string> leaves;
  if (failed(emitProofBody(bs, L, st, plan, leafText, &leaves)))
    return failure();
  // The body reads the batch only through its leaves (else no box: a
  // batch's leaves within one would not prove it).
  bool boxable = true;
  for (size_t at = body.find("c."); at != std::string::npos;
       at = body.find("c.", at + 2)) {
    if (at > 0 && (isalnum(body[at - 1]) || body[at - 1] == '_'))
      continue;
    StringRef rest = StringRef(body).substr(at + 2);
    if (!rest.starts_with("cfg_") && !rest.starts_with("set[") &&
        !rest.starts_with("num_set[") && !rest.starts_with("map["))
      boxable = false;
  }
  size_t k = std::max<size_t>(1, leaves.size());
  cs.line("/// Path `{0}`'s range proof reads the batch through {1} leaves "
          "(`lv`):",
          path, leaves.size());
  cs.line("/// the ranges of its scans, N, its row totals and its lists' "
          "elements.");
  cs.line("constexpr int k{0}ProofLeaves = {1};", L.pascal(path), k);
  cs.line("/// Whether the proof holds over leaves within `box` (the "
          "host's): {0}.",
          boxable ? "yes" : "no, it reads more of the batch");
  cs.line("constexpr bool k{0}ProofBoxes = {1};", L.pascal(path),
          boxable ? "true" : "false");
  cs.line("template <class Lanes>");
  {
    CodeStream::Scope fn(cs, fmt("IMETA_HD void {0}_proof_leaves(const "
                                 "{1} &c, Lanes &ln, Range *lv)",
                                 path, ctx));
    cs.line("const int64_t N = c.num_seqs;");
    cs.line("(void)N, (void)ln;");
    if (leaves.empty())
      cs.line("lv[0] = Range{0, 0};");
    for (auto [i, expr] : llvm::enumerate(leaves))
      cs.line("lv[{0}] = {1};", i, expr);
    cs.line("ln.reduce(lv, {0});", leaves.size());
  }
  if (failed(emitProofWithin(cs, plan, leaves)))
    return failure();
  cs.line("/// The proof over leaves `lv` (every lane the same verdict): the "
          "fills may");
  cs.line("/// run unchecked on a batch whose leaves lie within them.");
  cs.line("template <class Lanes>");
  {
    CodeStream::Scope fn(cs, fmt("IMETA_HD bool {0}_proof_over(const {1} "
                                 "&c, const Range *lv, Lanes &ln)",
                                 path, ctx));
    cs.line("const int64_t N = c.num_seqs;");
    cs.line("(void)N, (void)ln, (void)lv;");
    cs.line("bool ok = true;");
    cs.raw(body);
    cs.line("return ln.all(ok);");
  }
  emitBoxHelpers(cs, plan);
  return success();
}

LogicalResult
DeviceStageEmitter::emitProofWithin(CodeStream &cs, const PathPlan &plan,
                                    ArrayRef<std::string> leaves) {
  std::string path = PathOp(plan.path).getSymName().str();
  cs.line("/// Whether the leaves of `{0}_proof_leaves` lie within `box` (as "
          "r_within",
          path);
  cs.line("/// over them): each lane tests its own elements of each scan, "
          "one barrier");
  cs.line("/// joins them; no range is reduced.");
  cs.line("template <class Lanes>");
  CodeStream::Scope fn(cs, fmt("IMETA_HD bool {0}_proof_within(const {1} "
                               "&c, Lanes &ln, const Range *box)",
                               path, L.ctxName(plan)));
  cs.line("const int64_t N = c.num_seqs;");
  cs.line("(void)N;");
  cs.line("bool in = true;");
  // Each leaf's lane part, as its test of its bound.
  static constexpr std::pair<StringRef, StringRef> kTests[] = {
      {"ln.part_span(", "ln.span_within("},
      {"ln.part_lengths(", "ln.lengths_within("},
      {"ln.part_exact(", "ln.exact_within("}};
  if (leaves.empty())
    cs.line("in = ln.exact_within(box[0], Range{0, 0});");
  for (auto [k, expr] : llvm::enumerate(leaves)) {
    StringRef e(expr);
    auto test = llvm::find_if(
        kTests, [&](const auto &t) { return e.starts_with(t.first); });
    if (test == std::end(kTests))
      return PathOp(plan.path).emitOpError()
             << "has a proof leaf the device step cannot test against a box: "
             << expr;
    cs.line("in &= {0}box[{1}], {2};", test->second, k,
            e.drop_front(test->first.size()));
  }
  cs.line("return ln.all(in);");
  return success();
}

void DeviceStageEmitter::emitBoxHelpers(CodeStream &cs,
                                        const PathPlan &plan) {
  std::string path = PathOp(plan.path).getSymName().str();
  std::string P = L.pascal(path);
  std::string ctx = L.ctxName(plan);
  cs.line("/// Whether two contexts have the same configuration: what a "
          "proof box");
  cs.line("/// depends on besides its leaves (a proof that reads a list "
          "config has no box).");
  {
    CodeStream::Scope f(cs, fmt("inline bool {0}_same_config(const {1} "
                                "&a, const {1} &b)",
                                path, ctx));
    cs.line("return {0};", L.sameConfig("a", "b"));
  }
  cs.line("/// H's proof box for c's configuration, widened around a "
          "batch's leaves");
  cs.line("/// `seen` (and the box it had) where they leave it; unchanged "
          "where they");
  cs.line("/// do not prove (host only).");
  CodeStream::Scope f(cs, fmt("inline void {0}_widen_box({0}_host &H, "
                              "const {1} &c, const Range *seen)",
                              path, ctx));
  cs.line("if (!k{0}ProofBoxes) return;", P);
  cs.line("const bool same = H.box_ok && {0}_same_config(H.box_for, c);",
          path);
  cs.line("if (same && r_within(seen, H.box.data(), k{0}ProofLeaves)) "
          "return;",
          P);
  cs.line("Range start[k{0}ProofLeaves], box[k{0}ProofLeaves];", P);
  cs.line("for (int k = 0; k < k{0}ProofLeaves; ++k) start[k] = same ? "
          "r_join(seen[k], H.box[size_t(k)]) : seen[k];",
          P);
  cs.line("auto proves = [&](const Range *b) {{ SerialLanes ln; return "
          "{0}_proof_over(c, b, ln); };",
          path);
  cs.line("if (!imeta_grow_box(box, start, k{0}ProofLeaves, proves)) "
          "return;",
          P);
  cs.line("H.box.assign(box, box + k{0}ProofLeaves);", P);
  cs.line("H.box_ok = true;");
  cs.line("H.box_for = c;");
}

void DeviceStageEmitter::openBuckets(CodeStream &cs, FlatSymbolRefAttr set,
                                     std::optional<CodeStream::Scope> &loop) {
  loop.emplace(cs, fmt("for (int32_t b = 0; b < {0}; ++b)", L.numBuckets(set)));
  if (set)
    cs.line("const int64_t n = c.set[{0}][b];  (void)n;", st.setId(set));
}

/// `H`: writable pointers to every host value and row start the stage
/// computes (the caller's arrays, which the context points at; a value
/// the context holds itself is computed by the leader into its own array
/// and copied into the context).
/// The host values the own steps (ownSteps) and the steps over a
/// sequence's rows read, zeroed first: a sequence that fails a step
/// leaves the steps after it unwritten, and a step of a later level,
/// which runs for it anyway, reads zeros, not what the memory held (a
/// row count of garbage would loop for as long).
void DeviceStageEmitter::emitOwnInputs(CodeStream &cs, const PathPlan &plan) {
  const llvm::DenseSet<Operation *> own = ownSteps(L, plan);
  llvm::SetVector<Operation *> read;
  for (const HostStep &step : plan.host)
    if (own.contains(step.op) || loopsOverRows(step.op))
      for (Operation *dep : fieldDependencies(step.op))
        if (!own.contains(dep) && L.isHostValue(dep) && !L.inContext(dep))
          read.insert(dep);
  for (Operation *op : read)
    cs.line("for (int64_t k = ln.id(); k < int64_t({0}) * {1}; k += "
            "ln.count()) H.h_{2}[k] = 0;",
            L.numBuckets(getRatios(op)), L.hostStride(op), symName(op));
  if (!read.empty())
    cs.line("ln.sync();");
}

void DeviceStageEmitter::emitWritableArrays(CodeStream &cs,
                                            const PathPlan &plan) {
  std::vector<std::pair<std::string, std::string>> members;
  for (Operation *op : plan.needed) {
    if (!L.isHostValue(op))
      continue;
    std::string name = symName(op), elem = L.hostElem(op);
    if (L.inContext(op)) {
      std::string buckets = getRatios(op) ? "kMaxRatios" : "1";
      std::string width = L.hostWidth(op);
      cs.line("{0} sv_{1}[{2}] = {{};", elem, name,
              width == "1" ? buckets : width + " * " + buckets);
      members.push_back({elem, "sv_" + name});
    } else {
      members.push_back({elem, fmt("const_cast<{0} *>(c.h_{1})", elem, name)});
    }
    members.back().first += " *h_" + name;
  }
  for (const RowSpace &space : plan.rowSpaces) {
    std::string name = FieldOp(space.count).getSymName().str();
    members.push_back({"int32_t *rowstart_" + name,
                       "const_cast<int32_t *>(c.rowstart_" + name + ")"});
  }
  if (members.empty())
    return;
  {
    CodeStream::Scope s(cs, "struct Writable", ";");
    for (auto &[decl, init] : members)
      cs.line("{0};", decl);
  }
  std::string inits;
  for (auto &[decl, init] : members)
    inits += (inits.empty() ? "" : ", ") + init;
  cs.line("const Writable H{{{0}};", inits);
}

FormulaScope DeviceStageEmitter::stepScope(unsigned owner,
                                           FlatSymbolRefAttr ratios,
                                           bool perSeq) const {
  FormulaScope scope;
  scope.ownerId = int(owner);
  scope.ratios = ratios;
  scope.seq = perSeq ? "i" : "-1";
  scope.failCall = "imeta_note(&tr";
  if (inOwnStep)
    scope.rowLanes = "wl";
  scope.hostArray = arrays;
  scope.numSeqs = "N";
  if (perSeq)
    scope.seqLocals = forwarded;
  return scope;
}

std::string DeviceStageEmitter::hostArray(Operation *def) const {
  return L.inContext(def) ? "" : "H.h_" + symName(def);
}

LogicalResult DeviceStageEmitter::emitField(CodeStream &cs, FieldOp field,
                                            unsigned id) {
  std::string name = field.getSymName().str();
  bool perSeq = field.getDomain() == Domain::seq;
  FormulaScope scope =
      stepScope(st.owner(reportedName(field)), field.getRatiosAttr(), perSeq);
  std::string width = L.hostWidth(field);
  // One value a sequence, computed in a pass over the sequences: the
  // steps after it in the pass read its local.
  std::string local;
  if (perSeq && !inOwnStep && !field.getRatiosAttr() && width == "1" &&
      !L.inContext(field) && readInPass.contains(field)) {
    local = "fw_" + name;
    cs.line("{0} {1}{{};", L.hostElem(field), local);
  }
  L.commentFormula(cs, field);
  std::optional<CodeStream::Scope> buckets;
  openBuckets(cs, field.getRatiosAttr(), buckets);
  {
    CodeStream::Scope body(cs, "auto value = [&]() -> bool", ";");
    cs.line("{0} *slot = H.h_{1} + b * {2}{3};", L.hostElem(field), name,
            L.hostStride(field),
            !perSeq ? "" : width == "1" ? " + i" : " + i * " + width);
    // An own step's lanes all find the value: one stores it.
    if (failed(emitValueStores(cs, L, st, field, scope,
                               inOwnStep ? "wl.leader()" : "", local)))
      return failure();
    cs.line("return true;");
  }
  if (!local.empty())
    forwarded[field] = local;
  cs.line("if (!value()) {{ {2}(imeta_stage_key({0}, b, {1}), tr); "
          "return; }",
          id, perSeq ? "i" : "0", failOf());
  if (inOwnStep)
    cs.line("wl.sync();  // the stored value, for the other lanes");
  buckets.reset();
  // A value the context holds: the later steps read it there.
  if (L.inContext(field)) {
    std::string n = L.numBuckets(field.getRatiosAttr());
    if (L.hostWidth(field) != "1")
      n += " * " + L.hostWidth(field);
    cs.line("for (int64_t k = 0; k < {0}; ++k) c.h_{1}[k] = H.h_{1}[k];", n,
            name);
  }
  return success();
}

LogicalResult DeviceStageEmitter::emitRule(CodeStream &cs, RequireOp rule,
                                           unsigned id) {
  bool perSeq = rule.getDomain() == Domain::seq;
  FormulaScope scope = stepScope(
      st.owner((rule.getRule() + ": " + rule.getMessage()).str()),
      rule.getRatiosAttr(), perSeq);
  cs.line("// rule {0}: {1}", commentText(rule.getRule()),
          commentText(rule.getMessage()));
  std::optional<CodeStream::Scope> buckets;
  openBuckets(cs, rule.getRatiosAttr(), buckets);
  cs.line("int64_t holds = 0;");
  std::vector<ResolvedBound> bounds = resolvedBounds(rule);
  // The values a broken rule's message prints (RuleOperands.h): they
  // travel in the record's row, value and length.
  SmallVector<RuleOperand, kMaxRuleOperands> operands;
  if (bounds.empty())
    operands = ruleOperands(rule);
  SmallVector<std::string> vars;
  for (size_t k = 0; k < operands.size(); ++k) {
    vars.push_back(fmt("ov{0}", k));
    cs.line("int64_t {0} = 0;", vars.back());
  }
  {
    CodeStream::Scope body(cs, "auto check = [&]() -> bool", ";");
    SmallVector<std::string> results;
    if (failed(emitRuleFormula(cs, st, rule, scope, operands, vars, results)))
      return failure();
    cs.line("holds = {0};", results[0]);
    cs.line("return true;");
  }
  std::string key = fmt("imeta_stage_key({0}, b, {1})", id, perSeq ? "i" : "0");
  cs.line("if (!check()) {{ {1}({0}, tr); return; }", key, failOf());
  if (bounds.empty()) {
    CodeStream::Scope fail(cs, "if (!holds)");
    cs.line("ErrorRecord r = imeta_stage_record({0}, 0);", perSeq ? "i" : "-1");
    const char *slots[] = {"row", "value", "length"};
    static_assert(kMaxRuleOperands == 3, "the record holds three values");
    for (auto [k, var] : llvm::enumerate(vars))
      cs.line("r.{0} = {1};", slots[k], var);
    cs.line("{1}({0}, r);", key, failOf());
    cs.line("return;");
    return success();
  }
  // A resolved batch's bounds: the record names the first input below its
  // minimum (`site`), the element (`row`) and its value.
  CodeStream::Scope fail(cs, "if (!holds)");
  cs.line("ErrorRecord r = imeta_stage_record(i, 0);");
  for (auto [k, b] : llvm::enumerate(bounds)) {
    std::string row = b.first.empty()
                          ? "0"
                          : fmt("H.h_{0}[i] - H.h_{1}[i]", b.count, b.first);
    cs.line("{0}if ({1}) {{ r.site = {2}; r.row = {3}; r.value = H.h_{4}[i]; "
            "}",
            k ? "else " : "", boundFails(b, "H.h_"), k, row, b.value);
  }
  cs.line("{1}({0}, r);", key, failOf());
  cs.line("return;");
  return success();
}

void DeviceStageEmitter::emitSum(CodeStream &cs, PrefixSumOp sum,
                                 unsigned id) {
  auto src = lookupSpecSymbol<FieldOp>(sum, sum.getSourceAttr());
  bool excl = sum.getConvention() == Convention::exclusive;
  cs.line("// {0}: {1} prefix sum of {2}", sum.getSymName(),
          excl ? "exclusive" : "inclusive", src.getSymName());
  CodeStream::Scope b(cs, fmt("for (int32_t b = 0; b < {0}; ++b)",
                              L.numBuckets(src.getRatiosAttr())));
  std::string dst =
      fmt("H.h_{0} + b * {1}", sum.getSymName(), L.hostLength(sum));
  // The same sums as an earlier scan of the source: copied (a sum that
  // leaves i32 failed there first, its step lower).
  if (auto from = scanned.find(src.getOperation()); from != scanned.end()) {
    cs.line("ln.shift_copy({0}, {1}, N, {2}, {3});", from->second.first, dst,
            from->second.second ? "true" : "false", excl ? "true" : "false");
    return;
  }
  scanned[src.getOperation()] = {dst, excl};
  cs.line("ln.scan(H.h_{0} + b * N, N, {1}, {2}, [&](int64_t "
          "j, int64_t acc) {{ ln.fail(imeta_stage_key({3}, b, j), "
          "imeta_stage_record(j, acc)); });",
          src.getSymName(), dst, excl ? "true" : "false", id);
}

/// Row starts: the exclusive sums of each row space's counts; a negative
/// count (key 2i) comes before a sum that leaves i32 at i (key 2i + 1),
/// as the host checks them.
void DeviceStageEmitter::emitRowStarts(CodeStream &cs, const PathPlan &plan) {
  for (auto [s, space] : llvm::enumerate(plan.rowSpaces)) {
    std::string name = FieldOp(space.count).getSymName().str();
    unsigned id = rowSpaceId(plan, s);
    cs.line("// Row starts of '{0}'.", name);
    CodeStream::Scope b(
        cs, fmt("for (int32_t b = 0; b < {0}; ++b)",
                L.numBuckets(FieldOp(space.count).getRatiosAttr())));
    cs.line("for (int64_t i = ln.id(); i < N; i += ln.count()) if "
            "(H.h_{0}[b * N + i] < 0) ln.fail(imeta_stage_key({1}, b, 2 * "
            "i), imeta_stage_record(i, H.h_{0}[b * N + i]));",
            name, id);
    std::string dst = fmt("H.rowstart_{0} + b * (N + 1)", name);
    if (auto from = scanned.find(space.count); from != scanned.end()) {
      cs.line("ln.shift_copy({0}, {1}, N, {2}, true);", from->second.first,
              dst, from->second.second ? "true" : "false");
      continue;
    }
    cs.line("ln.scan(H.h_{0} + b * N, N, {2}, true, [&](int64_t j, int64_t "
            "acc) {{ ln.fail(imeta_stage_key({1}, b, 2 * j + 1), "
            "imeta_stage_record(j, acc)); });",
            name, id, dst);
  }
}

llvm::DenseSet<Operation *>
DeviceStageEmitter::ownSteps(const SpecLayout &L, const PathPlan &plan) {
  llvm::DenseSet<Operation *> own;
  if (!hasStep(L, plan))
    return own;
  auto readsOwn = [&](Operation *op) {
    bool reads = false;
    op->walk([&](GetOp get) {
      reads |= own.contains(lookupSpecSymbol<FieldOp>(get, get.getFieldAttr()));
    });
    return reads;
  };
  for (const HostStep &step : plan.host) {
    if (kindOf(step.op) != StepKind::perSeq)
      continue;
    bool heavy = false;
    step.op->walk([&](ReduceRowsOp) { heavy = true; });
    if (heavy || readsOwn(step.op))
      own.insert(step.op);
  }
  if (own.empty())
    return own;
  // Their values are only where they were computed: nothing else may
  // read them.
  bool alone = true;
  for (const HostStep &step : plan.host)
    if (!own.contains(step.op) &&
        (readsOwn(step.op) ||
         llvm::any_of(fieldDependencies(step.op),
                      [&](Operation *d) { return own.contains(d); })))
      alone = false;
  for (const RowSpace &space : plan.rowSpaces) {
    alone &= !own.contains(space.count);
    for (FieldOp field : space.fields)
      alone &= !readsOwn(field) && !own.contains(L.liveField(field));
  }
  for (const PlannedOutput &po : plan.outputs)
    alone &= !own.contains(po.def) && !own.contains(po.rowsLen);
  if (!alone)
    own.clear();
  return own;
}

LogicalResult DeviceStageEmitter::emitStage(CodeStream &cs,
                                            const PathPlan &plan) {
  std::string path = PathOp(plan.path).getSymName().str();
  if (PathOp(plan.path).getTarget() != Target::gpu)
    return success();
  if (std::string why = blocker(L, plan); !why.empty()) {
    cs.line("// Path `{0}` has no device stage: {1}.", path, why);
    cs.blank();
    return success();
  }
  cs.line("/// Path `{0}`'s host stage as lanes run it (EmitDeviceStage.h): "
          "the context's",
          path);
  cs.line("/// host-value and row-start arrays are written; false: the "
          "lowest failure is");
  cs.line("/// in ln.best and ln.rec (words: {0}_sequence_stage_message).", path);
  cs.line("template <class Lanes>");
  CodeStream::Scope fn(
      cs, fmt("IMETA_HD bool {0}_sequence_stage({1} &c, Lanes &ln)", path,
              L.ctxName(plan)));
  cs.line("const int64_t N = c.num_seqs;");
  cs.line("(void)N;  // a path of scalar fields alone reads no sequence");
  cs.line("ErrorRecord tr{};  // a formula's failure, as this lane records "
          "it");
  emitWritableArrays(cs, plan);
  emitOwnInputs(cs, plan);
  emitInputChecks(cs, plan);
  emitTableChecks(cs, plan);
  emitStateGather(cs, plan);
  const llvm::DenseSet<Operation *> own = ownSteps(L, plan);
  std::vector<StageLevel> levels = stageLevels(plan, own);
  scanned.clear();
  auto emitStep = [&](size_t k) -> LogicalResult {
    Operation *op = plan.host[k].op;
    if (auto rule = dyn_cast<RequireOp>(op))
      return emitRule(cs, rule, hostStepId(k));
    return emitField(cs, cast<FieldOp>(op), hostStepId(k));
  };
  // The lowest step id of the levels after each: a level whose failure
  // is below it ends the stage; otherwise a later step may still fail
  // first (its key lower), so the levels go on.
  std::vector<unsigned> lowestAfter(levels.size() + 1,
                                    rowSpaceId(plan, 0));
  for (size_t l = levels.size(); l-- > 0;) {
    lowestAfter[l] = lowestAfter[l + 1];
    levels[l].each([&](size_t k) {
      lowestAfter[l] = std::min(lowestAfter[l], hostStepId(k));
    });
  }
  unsigned highestSoFar = 0;
  for (auto [l, level] : llvm::enumerate(levels)) {
    cs.line("// Level {0}.", l);
    if (!level.seq.empty()) {
      CodeStream::Scope loop(cs, "for (int64_t i = ln.id(); i < N; i += "
                                 "ln.count()) [&]",
                             "();");
      forwarded.clear();
      readInPass.clear();
      for (size_t k : level.seq)
        plan.host[k].op->walk([&](GetOp get) {
          readInPass.insert(lookupSpecSymbol<FieldOp>(get, get.getFieldAttr()));
        });
      for (size_t k : level.seq)
        if (failed(emitStep(k)))
          return failure();
      forwarded.clear();
    }
    if (!level.own.empty()) {
      // O(rows) a sequence: only the sequences of this CTA (ownSteps), a
      // group of its threads each, one after another, the rows of a
      // reduction split among the group's lanes. They read what the
      // levels before wrote, on other lanes; where a sequence failed
      // there, zeros (emitOwnInputs), and their failure keys are above
      // its.
      CodeStream::Scope lanes(cs, "");
      cs.line("auto &&wl = ln.own_lanes(N);");
      CodeStream::Scope loop(cs, "for (int64_t i = wl.own(); i < N; i += "
                                 "wl.own_count()) [&]",
                             "();");
      inOwnStep = true;
      for (size_t k : level.own)
        if (failed(emitStep(k)))
          return failure();
      inOwnStep = false;
    }
    for (size_t k : level.scalar) {
      // The leader alone, unless a failure below this step's is known.
      CodeStream::Scope once(
          cs,
          fmt("if (ln.leader() && ln.best > imeta_stage_key({0}, 0, 0)) "
              "[&]",
              hostStepId(k)),
          "();");
      if (failed(emitStep(k)))
        return failure();
    }
    for (size_t k : level.sums)
      emitSum(cs, cast<PrefixSumOp>(plan.host[k].op), hostStepId(k));
    level.each([&](size_t k) {
      highestSoFar = std::max(highestSoFar, hostStepId(k));
    });
    if (highestSoFar < lowestAfter[l + 1])
      cs.line("if (ln.failed()) return false;");
    else
      cs.line("if (ln.failed() && imeta_stage_step(ln.best) < {0}) return "
              "false;",
              lowestAfter[l + 1]);
  }
  emitRowStarts(cs, plan);
  cs.line("return !ln.failed();");
  cs.blank();
  return success();
}

void DeviceStageEmitter::emitMessage(CodeStream &cs, const PathPlan &plan) {
  if (!hasStage(L, plan))
    return;
  std::string path = PathOp(plan.path).getSymName().str();
  cs.line("/// A failure of `{0}_sequence_stage` in the host stage's words.", path);
  CodeStream::Scope fn(
      cs, fmt("std::string detail::{0}_sequence_stage_message(const {1} &c, "
              "uint64_t key, const ErrorRecord &rec)",
              path, L.ctxName(plan)));
  cs.line("const int64_t a = imeta_stage_a(key), i = imeta_stage_b(key);");
  cs.line("(void)a, (void)i, (void)c;");
  CodeStream::Scope sw(cs, "switch (imeta_stage_step(key))");
  emitStateMessages(cs, plan, /*rows=*/true);
  std::vector<const InputDecl *> tables = deviceRowTables(L, plan);
  if (std::vector<const InputDecl *> checked = deviceCheckedInputs(L, plan);
      !checked.empty() || !tables.empty() || !stateInputs(L, plan).empty()) {
    cs.line("case {0}:  // input checks and state: sequence a, place i",
            kInputStep);
    cs.line("  switch (i) {");
    emitStateMessages(cs, plan, /*rows=*/false);
    for (const InputDecl *in : checked)
      cs.line("  case {0}: return \"sequence \" + std::to_string(a) + \": {1} "
              "= \" + std::to_string(rec.value) + \" breaks {1} >= {2}{3}\";",
              int64_t(in - L.inputs().data()), in->name,
              int64_t(*in->op.getMin()), ruleSuffix(in->op.getRule()));
    for (const InputDecl *in : tables)
      cs.line("  case {0}: return table_value_message({0}, a, rec.row, "
              "rec.value, rec.length, c.tv_{1}_bound);",
              int64_t(in - L.inputs().data()), in->name);
    cs.line("  }");
    cs.line("  return \"stage: failure \" + std::to_string(key) + \" has no "
            "words\";");
  }
  for (auto [k, step] : llvm::enumerate(plan.host)) {
    Operation *op = step.op;
    cs.line("case {0}:  // {1}", hostStepId(k),
            isa<RequireOp>(op) ? "rule " + cast<RequireOp>(op).getRule().str()
                               : symName(op));
    if (isa<FieldOp>(op)) {
      cs.line("  return describe(rec, c.set);");
      continue;
    }
    if (auto sum = dyn_cast<PrefixSumOp>(op)) {
      std::string bucket;
      if (FlatSymbolRefAttr set = getRatios(sum))
        bucket = " + \" (\" + " + bucketWords(st, set, "int32_t(a)") +
                 " + \")\"";
      cs.line("  return std::string(\"field '{0}'\"){2} + \": sequence \" + "
              "std::to_string(i) + \": i32 overflow: the sum reaches \" + "
              "std::to_string(rec.value){1};",
              reportedName(sum), L.overflowSuffix(), bucket);
      continue;
    }
    auto rule = cast<RequireOp>(op);
    std::string text =
        escape((rule.getRule() + ": " + rule.getMessage()).str());
    std::string where = rule.getDomain() == Domain::seq
                            ? "\"sequence \" + std::to_string(i) + \": \""
                            : "std::string()";
    if (FlatSymbolRefAttr set = rule.getRatiosAttr())
      where += " + " + bucketWords(st, set, "int32_t(a)") + " + \": \"";
    cs.line("  if (rec.kind != kNone) return {0} + \"{1}: cannot be "
            "checked: \" + what(rec);",
            where, text);
    for (auto [site, b] : llvm::enumerate(resolvedBounds(rule)))
      cs.line("  if (rec.site == {0}) return {1};", site,
              boundMessage(b, "rec.row", "rec.value"));
    SmallVector<RuleOperand, kMaxRuleOperands> operands = ruleOperands(rule);
    SmallVector<std::string> values = {"rec.row", "rec.value", "rec.length"};
    values.resize(operands.size());
    cs.line("  return {0} + \"{1}\" + {2};", where, text,
            ruleOperandCpp(operands, values));
  }
  for (auto [s, space] : llvm::enumerate(plan.rowSpaces)) {
    std::string name = FieldOp(space.count).getSymName().str();
    cs.line("case {0}:  // row starts of '{1}'", rowSpaceId(plan, s), name);
    cs.line("  if (i % 2 == 0) return \"sequence \" + std::to_string(i / 2) "
            "+ \": row count '{0}' is negative (\" + "
            "std::to_string(rec.value) + \")\";",
            name);
    cs.line("  return \"row count '{0}': more than 2^31 - 1 rows\";", name);
  }
  for (auto [k, po] : llvm::enumerate(plan.outputs)) {
    cs.line("case {0}:  // capacity of '{1}'", capacityId(plan, k),
            commentText(po.label));
    std::string ratio = po.ratios ? fmt("\".\" + std::to_string(c.set[{0}][a])",
                                        st.setId(po.ratios))
                                  : "\"\"";
    cs.line("  return \"output '{2}\" + std::string({1}) + \"': needs \" + "
            "std::to_string(rec.value) + \" rows, the buffer holds \" + "
            "std::to_string(c.o_{0} ? c.o_{0}_capacity : 0);",
            po.name, ratio, po.label);
  }
  cs.line("default:");
  cs.line("  return \"stage: failure \" + std::to_string(key) + \" has no "
          "words\";");
}

} // namespace imeta::emit
