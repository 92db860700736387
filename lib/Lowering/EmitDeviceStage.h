//===- EmitDeviceStage.h - a GPU path's sequence stage on the device -*- C++ -*-=//
//
// Private to lib/Lowering. The host stage of a GPU path (its rules, its
// scalar and per-sequence fields, its prefix sums and row starts: what
// `<path>_prepare` computes on the host) as one function template over the
// lanes that run it, in <base>_impl.h:
//
//   template <class Lanes> IMETA_HD bool <path>_sequence_stage(<path>_ctx &c, Lanes &ln);
//
// Lanes is one lane on the host (SerialLanes) or the threads of a CTA
// (BlockLanes), runtime/DeviceStage.inc. Every lane computes its share of
// the sequences; a prefix sum or a row start is a scan of the lanes; the
// steps run in the host's order and each failure is kept under a key in
// that order, so the lowest key is the failure the evaluator reports
// first. `<path>_sequence_stage_message` (host source) words it as the host does.
// The design: docs/device-step.md.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_LOWERING_EMITDEVICESTAGE_H
#define IMETA_LOWERING_EMITDEVICESTAGE_H

#include "lib/Lowering/SpecLayout.h"

#include <functional>

namespace imeta::emit {

/// A host value's formula at one point (no columns) and its stores into
/// `slot`, the host stage's and the device stage's alike; the stores only
/// where `onlyIf` holds, if given; a single value also into `local`, if
/// given.
mlir::LogicalResult emitValueStores(CodeStream &cs, const SpecLayout &L,
                                    EmitterState &st, FieldOp field,
                                    const FormulaScope &scope,
                                    llvm::StringRef onlyIf = "",
                                    llvm::StringRef local = "");

/// The interval evaluation of `plan`'s fill formulas (`ok = ok && ...`
/// for each check the fast fills drop), with `N`, `c` and `H` in scope;
/// `leafText` rewrites each scan of the batch (null: the host's, one
/// lane). With `leafText`, for lanes `ln`: every value of the batch the
/// proof reads (a scan, N, a row total, a list's element range) is a leaf
/// `lv[k]`, whose lane-part expressions (`ln.part_...`) land in
/// `leavesOut` for the caller to compute and reduce; then each field's
/// evaluation (with the fields it reads) runs on one part of the lanes
/// (`ln.part(b)`), the parts balanced by size; the caller combines `ok`
/// over the lanes. The body reads nothing else of the batch: over leaves
/// that contain the batch's, it proves the batch (intervals are
/// inclusion-monotone).
mlir::LogicalResult
emitProofBody(CodeStream &cs, const SpecLayout &L, EmitterState &st,
              const PathPlan &plan,
              llvm::function_ref<std::string(const std::string &)> leafText,
              std::vector<std::string> *leavesOut = nullptr);

class DeviceStageEmitter {
public:
  DeviceStageEmitter(const SpecLayout &layout, EmitterState &st)
      : L(layout), st(st) {}

  /// Why `plan`'s host stage cannot run as a device stage; empty when it
  /// can (a GPU path whose host steps the stage covers).
  static std::string blocker(const SpecLayout &L, const PathPlan &plan);
  static bool hasStage(const SpecLayout &L, const PathPlan &plan) {
    return blocker(L, plan).empty();
  }

  /// Why `plan` has no device step (its whole host part on the device:
  /// the stage, the capacities, the proof); empty when it has one.
  static std::string stepBlocker(const SpecLayout &L, const PathPlan &plan);
  static bool hasStep(const SpecLayout &L, const PathPlan &plan) {
    return stepBlocker(L, plan).empty();
  }
  /// The step id of output k's capacity check (after the row starts).
  static unsigned capacityId(const PathPlan &plan, size_t k) {
    return unsigned(kFirstHostStep + plan.host.size() + plan.rowSpaces.size() +
                    k);
  }
  /// The inputs a device step copies into its staging: what its kernel
  /// reads (the fills, the stage's host steps and the path's rules).
  static llvm::SetVector<mlir::Operation *> stepInputs(const SpecLayout &L,
                                                       const PathPlan &plan);
  /// A device step's input checks run on the device (in its sequence
  /// stage, step kInputStep): the `min` of each scalar input the step
  /// copies. The host checks every other input (presence, list offsets,
  /// a list's elements, a table's rows: the pass that sends its changed
  /// rows reads them), and these too where it finds a failure of its own,
  /// so that it names the evaluator's first.
  static std::vector<const InputDecl *> deviceCheckedInputs(
      const SpecLayout &L, const PathPlan &plan);
  /// The table inputs a device step reads (stepInputs): where the engine
  /// keeps their rows on the device alone (the stage's tv_X_bound), each
  /// CTA checks its own sequences' rows in the sequence stage (kInputStep,
  /// at the input's place).
  static std::vector<const InputDecl *> deviceRowTables(const SpecLayout &L,
                                                        const PathPlan &plan);
  /// The request state `plan` reads (state inputs it needs), in
  /// declaration order: a path with a stage gathers it there, at each
  /// sequence's slot, in a staged run (and a device step) instead of on
  /// the host.
  static std::vector<const InputDecl *> stateInputs(const SpecLayout &L,
                                                    const PathPlan &plan);

  /// The host steps of a device step that run only for a group's own
  /// sequences (a group of a CTA's threads, GroupLanes: i = the grid's
  /// group mod the grid's groups; on the host, one lane, every sequence):
  /// the O(rows) per-sequence steps (a reduction over a sequence's rows,
  /// e.g. a resolved list's elements against their minimum) and the steps
  /// that read them, where nothing else does (no other host step, fill,
  /// output or proof), in a loop over the own sequences of `wl =
  /// ln.own_lanes(N)`, one at a time, a reduction's rows split among the
  /// group's lanes (`wl.fold_rows`). The CTAs' verdicts are then one
  /// grid's (the kernel's `imeta_grid_best`).
  /// Empty: none.
  static llvm::DenseSet<mlir::Operation *> ownSteps(const SpecLayout &L,
                                                    const PathPlan &plan);

  /// `<path>_sequence_stage` (the impl header), or a comment naming the blocker.
  mlir::LogicalResult emitStage(CodeStream &cs, const PathPlan &plan);
  /// `<path>_sequence_stage_message` (the host source): a failure's words.
  void emitMessage(CodeStream &cs, const PathPlan &plan);
  /// `<path>_proof_leaves` and `<path>_proof_over` (the impl header): the
  /// range proof of the fills, its leaves (the batch's scans, the lanes')
  /// apart from the evaluation, so that leaves within a box the host
  /// proved once need no evaluation.
  mlir::LogicalResult emitProof(CodeStream &cs, const PathPlan &plan);
  /// `<path>_proof_within(c, ln, box)`: whether the leaves `<path>_proof_leaves`
  /// computes lie within `box`, each lane testing its own elements of each
  /// scan (one barrier, no reduction): a step's test of the host's box.
  mlir::LogicalResult emitProofWithin(CodeStream &cs, const PathPlan &plan,
                                      llvm::ArrayRef<std::string> leaves);
  /// A device step's proof box on the host: `<path>_same_config` and
  /// `<path>_widen_box`.
  void emitBoxHelpers(CodeStream &cs, const PathPlan &plan);

private:
  /// The stage's step ids (a key's highest bits; 0 is no key): the rows
  /// of the state lists (offsets, widths: over every slot, as the host
  /// checks them before any sequence), the input checks and each
  /// sequence's state (slot, minimum), then host step k at
  /// kFirstHostStep + k, the row spaces after them, then the capacities.
  static constexpr unsigned kStateRowsStep = 1, kInputStep = 2,
                            kFirstHostStep = 3;
  static unsigned hostStepId(size_t k) { return unsigned(kFirstHostStep + k); }
  unsigned rowSpaceId(const PathPlan &plan, size_t s) const {
    return unsigned(kFirstHostStep + plan.host.size() + s);
  }
  void emitInputChecks(CodeStream &cs, const PathPlan &plan);
  void emitTableChecks(CodeStream &cs, const PathPlan &plan);
  /// The request state the path reads, gathered at each sequence's slot
  /// (EmitHost's emitSetupState, as lanes run it).
  void emitStateGather(CodeStream &cs, const PathPlan &plan);
  void emitStateMessages(CodeStream &cs, const PathPlan &plan, bool rows);
  void emitWritableArrays(CodeStream &cs, const PathPlan &plan);
  void emitOwnInputs(CodeStream &cs, const PathPlan &plan);
  mlir::LogicalResult emitField(CodeStream &cs, FieldOp field, unsigned id);
  mlir::LogicalResult emitRule(CodeStream &cs, RequireOp rule, unsigned id);
  void emitSum(CodeStream &cs, PrefixSumOp sum, unsigned id);
  void emitRowStarts(CodeStream &cs, const PathPlan &plan);
  /// Opens the loop over the step's buckets (binding `b` and `n`).
  void openBuckets(CodeStream &cs, mlir::FlatSymbolRefAttr set,
                   std::optional<CodeStream::Scope> &loop);

  /// In an own step (the lanes `wl` of `ln.own_lanes(N)`, a group of a
  /// CTA's threads on the device, on one sequence): the rows of its
  /// reductions split among them, a failure recorded by one lane.
  bool inOwnStep = false;
  std::string failOf() const { return inOwnStep ? "wl.fail_one" : "ln.fail"; }
  /// A step's formula scope: its point (sequence `i` or none), failures
  /// into the lane's record, host values read through `H` and `N`, and
  /// the fields this sequence's pass computed before from their locals.
  FormulaScope stepScope(unsigned owner, mlir::FlatSymbolRefAttr ratios,
                         bool perSeq) const;
  /// The array a step reads host value `def` from: the stage's own
  /// pointer (`H.h_X`), or "" for one the context holds (the leader
  /// computes it into a local copy, every lane reads the context's).
  std::string hostArray(mlir::Operation *def) const;
  std::function<std::string(mlir::Operation *)> arrays =
      [this](mlir::Operation *def) { return hostArray(def); };
  /// The unbucketed seq fields the current pass over the sequences has
  /// computed so far (FormulaScope::seqLocals): each in a local of the
  /// pass's body (`fw_X`), read there by the steps after it. Empty
  /// outside such a pass and in an own step.
  llvm::DenseMap<mlir::Operation *, std::string> forwarded;
  /// The fields a step of the current pass reads (imeta.get): those with
  /// a local.
  llvm::DenseSet<mlir::Operation *> readInPass;
  /// The source fields the stage has scanned so far: the first scan's
  /// array (at bucket b) and whether it is exclusive. A later sum of the
  /// same source (a prefix sum, a row space's starts) copies it.
  llvm::DenseMap<mlir::Operation *, std::pair<std::string, bool>> scanned;

  const SpecLayout &L;
  EmitterState &st;
};

} // namespace imeta::emit

#endif // IMETA_LOWERING_EMITDEVICESTAGE_H
