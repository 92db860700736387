//===- EmitHost.h - the host stage and CPU entry points ----------*- C++ -*-=//
//
// Private to lib/Lowering. <base>.cpp: input checks, ratio sets, each
// path's host stage (rules and sizes), range proof (EmitRangeProof.cpp),
// shapes and capacities, the CPU fill loop and the public entry points
// (EmitHost.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_LOWERING_EMITHOST_H
#define IMETA_LOWERING_EMITHOST_H

#include "lib/Lowering/SpecLayout.h"

namespace imeta::emit {

class HostEmitter {
public:
  HostEmitter(const SpecLayout &layout, EmitterState &st) : L(layout), st(st) {}

  /// Includes, runtime text and the helpers shared by all paths.
  void emitPrologue(CodeStream &cs);
  /// The CPU fill loop of each path: one pass over the sequences, every row
  /// space of each. Declared before the entry points that call it.
  void emitCpuFills(CodeStream &cs);
  /// A path's output table, prepare and CPU run.
  mlir::LogicalResult emitEntry(CodeStream &cs, const PathPlan &plan);
  /// A path's public entry points.
  void emitPublicEntries(CodeStream &cs, const PathPlan &plan);
  /// The failure sites and owners the fills recorded (EmitterState).
  /// `detail::table_value_message`: a table's value outside [min, bound)
  /// in words, one case per table input (none without one).
  void emitTableValueMessage(CodeStream &cs);
  void emitTables(CodeStream &cs);

private:
  /// Helpers shared by all paths: config and input checks, ratio sets.
  void emitSetupHelpers(CodeStream &cs);

  /// Points inputs at the caller's arrays and checks presence and bounds.
  void emitSetupInputs(CodeStream &cs, const PathPlan &plan);
  /// `staged`: a GPU path's kernel reads the input (its row bounds go
  /// into the staging). `deviceChecked`: a device step checks its `min`
  /// (DeviceStageEmitter::deviceCheckedInputs), the host in stage 0 only.
  void emitSetupInput(CodeStream &cs, const InputDecl &in, bool staged,
                      bool needed, int order, bool deviceChecked);
  void emitSetupState(CodeStream &cs, const PathPlan &plan);
  void emitResolveInputs(CodeStream &cs, const PathPlan &plan);
  void emitNeededConfig(CodeStream &cs, const PathPlan &plan);
  void emitAxisCheck(CodeStream &cs, AxisOp axis);
  void emitConfigListMin(CodeStream &cs, ConfigOp cfg, int64_t min);
  void emitInputChecks(CodeStream &cs, const InputDecl &in, int order);
  /// `staged`: the row bounds go into a GPU stage's staging (its kernel
  /// reads them).
  void emitSetupTable(CodeStream &cs, const InputDecl &in, bool staged);
  void emitHostReadsGuard(CodeStream &cs, const PathPlan &plan);

  void openHostLoops(CodeStream &cs, mlir::FlatSymbolRefAttr set, bool perSeq,
                     std::optional<CodeStream::Scope> &bucketLoop,
                     std::optional<CodeStream::Scope> &seqLoop);
  /// One host step; `fused`: its body inside the one loop over sequences,
  /// a failure returning false.
  mlir::LogicalResult emitHostStep(CodeStream &cs, mlir::Operation *op,
                                   std::vector<std::string> &ruleMessages,
                                   bool fused);
  void emitHostSum(CodeStream &cs, PrefixSumOp sum, bool fused);
  void emitHostColumnSums(CodeStream &cs, PrefixSumOp sum);
  mlir::LogicalResult emitHostRule(CodeStream &cs, RequireOp rule,
                                   std::vector<std::string> &ruleMessages,
                                   bool fused);
  mlir::LogicalResult emitHostField(CodeStream &cs, FieldOp field, bool fused);
  /// A path's host steps by passes (HostPasses.h): a fused pass as one
  /// loop (with the step-by-step passes behind it for the error), the
  /// rest one by one.
  mlir::LogicalResult emitHostSteps(CodeStream &cs, const PathPlan &plan);

  // The parts of emitEntry, in the order they print.
  void emitOutputTable(CodeStream &cs, const PathPlan &plan);
  mlir::LogicalResult emitPrepare(CodeStream &cs, const PathPlan &plan);
  void emitStagedSteps(CodeStream &cs, const PathPlan &plan);
  void emitHostArrays(CodeStream &cs, const PathPlan &plan);
  void emitHostArray(CodeStream &cs, mlir::Operation *op, bool onDevice);
  static bool hasLateWidth(mlir::Operation *op);
  bool readOnDevice(const PathPlan &plan, mlir::Operation *op) const;
  void emitColumnsArray(CodeStream &cs, const PathPlan &plan, FieldOp field);
  void emitRowStarts(CodeStream &cs, const PathPlan &plan);
  void emitColumnChecks(CodeStream &cs, const PathPlan &plan);
  /// `deviceRows`: the rows and capacities are left to a device step.
  void emitShapes(CodeStream &cs, const PathPlan &plan, bool deviceRows = false);
  void emitDryRun(CodeStream &cs, const PathPlan &plan);
  void emitFastDryRun(CodeStream &cs, const PathPlan &plan);
  void emitDryRunLoop(CodeStream &cs, const PathPlan &plan,
                      llvm::StringRef from, llvm::StringRef to, bool checked);
  void emitCpuRun(CodeStream &cs, const PathPlan &plan);
  /// Sets `c.proven` in prepare: the batch's int32 proof (RangeProof.h).
  mlir::LogicalResult emitRangeProof(CodeStream &cs, const PathPlan &plan);

  const SpecLayout &L;
  EmitterState &st;
  /// Fused host passes printed so far (each names its lambda).
  unsigned fusedGroups = 0;
};

} // namespace imeta::emit

#endif // IMETA_LOWERING_EMITHOST_H
