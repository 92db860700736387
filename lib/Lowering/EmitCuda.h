//===- EmitCuda.h - the generated GPU API and kernels ------------*- C++ -*-=//
//
// Private to lib/Lowering. <base>_cuda.h and <base>.cu: per GPU path, the
// stage (checks and host stage on the CPU, one copy of the per-sequence
// data) and one kernel, one CTA per sequence, calling the fill functions
// of <base>_impl.h (EmitCuda.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_LOWERING_EMITCUDA_H
#define IMETA_LOWERING_EMITCUDA_H

#include "lib/Lowering/SpecLayout.h"

namespace imeta::emit {

class CudaEmitter {
public:
  CudaEmitter(const SpecLayout &layout, EmitterState &st) : L(layout), st(st) {}
  /// The GPU API header (`h`) and the CUDA source (`cu`).
  mlir::LogicalResult emit(CodeStream &h, CodeStream &cu);

private:
  void emitApiHeader(CodeStream &h);
  void emitPathApi(CodeStream &h, const PathPlan &plan);
  void emitSource(CodeStream &cu);
  /// `gpuPath`: the path's index among the GPU paths (its scratch slot).
  void emitCudaPath(CodeStream &cu, const PathPlan &plan, unsigned gpuPath);
  // The parts of emitCudaPath, in the order they print.
  void emitKernel(CodeStream &cu, const PathPlan &plan);
  void emitSharedContext(CodeStream &cu, const PathPlan &plan, bool withRecord);
  void emitWidenBox(CodeStream &cu, const PathPlan &plan, unsigned gpuPath);
  void emitResidentWrites(CodeStream &cu,
                          const llvm::SetVector<mlir::Operation *> &used);
  void emitHostOutputCopies(CodeStream &cu, const PathPlan &plan);
  void emitPaddingFills(CodeStream &cu, const PathPlan &plan);
  void emitResidentThreads(CodeStream &cu, const PathPlan &plan);
  void emitStageImpl(CodeStream &cu, const PathPlan &plan, unsigned gpuPath);
  void emitDeviceContext(CodeStream &cu, const PathPlan &plan);
  void emitStagingFinish(CodeStream &cu, const PathPlan &plan);
  bool emitScalarDividers(CodeStream &cu, const PathPlan &plan,
                          llvm::StringRef c);
  /// `all`: every input the path's host stage reads too (a device step).
  void emitStageInputs(CodeStream &cu, const PathPlan &plan, bool all = false);
  // The device step (EmitDeviceStep.cpp).
  void emitDeviceStepApi(CodeStream &h, const PathPlan &plan);
  void emitDeviceStep(CodeStream &cu, const PathPlan &plan, unsigned gpuPath);
  void emitStepLayout(CodeStream &cu, const PathPlan &plan);
  void emitStepKernel(CodeStream &cu, const PathPlan &plan);
  void emitStepImpl(CodeStream &cu, const PathPlan &plan, unsigned gpuPath);
  void emitLaunchShape(CodeStream &cu, const PathPlan &plan);
  void emitStageEntries(CodeStream &cu, const PathPlan &plan, unsigned gpuPath);
  void emitStageTable(CodeStream &cu, llvm::StringRef name);
  // Rows an engine keeps on the device alone (EmitDeviceRows.cpp).
  /// In the check kernel, for sequence `i`: its rows checked, the CTA
  /// running `onFail` and returning at a bad value.
  void emitDeviceRowChecks(CodeStream &cu,
                           const llvm::SetVector<mlir::Operation *> &used,
                           llvm::StringRef onFail);
  // The checks before the plain kernel writes (EmitCheckKernel.cpp).
  /// Whether the path has a check kernel: its fast fill can fail, or it
  /// reads a table whose rows may be on the device alone.
  bool hasCheckKernel(const PathPlan &plan) const;
  /// `<path>_check_kernel`.
  void emitCheckKernel(CodeStream &cu, const PathPlan &plan);
  /// In the plain kernel, first: return where the check kernel failed.
  void emitCheckVerdict(CodeStream &cu, const PathPlan &plan);
  /// In `_check`: a failure the check kernel found, named as the CPU
  /// names it.
  void emitCheckFailure(CodeStream &cu, const PathPlan &plan,
                        unsigned gpuPath);
  /// `<path>_device_rows_failure`: the first bad value, read back.
  void emitDeviceRowRescan(CodeStream &cu, const PathPlan &plan);

  const SpecLayout &L;
  EmitterState &st;
};

} // namespace imeta::emit

#endif // IMETA_LOWERING_EMITCUDA_H
