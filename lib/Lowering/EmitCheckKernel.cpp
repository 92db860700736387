//===- EmitCheckKernel.cpp - a host-staged path's checks before any write -===//
//
// A GPU path whose fast fill can still fail where the range proof holds
// (fastFillCanFail: a list read's index, what is computed from list
// elements), or whose table rows an engine may keep on the device alone,
// checks those before any output is written. The host used to do it in
// `<path>_prepare` (a dry run of the fast fills on every sequence: two
// thirds of decode_zos's host work at N = 1024), and the plain kernel
// checked device rows CTA by CTA, writing the other sequences' outputs.
// Here a kernel launched before the plain one does both, each CTA its
// sequence's part as the fill splits it: the resident rows' writes, the
// device rows, then the fast fills without stores. A CTA that finds a
// failure leaves the lowest failing sequence in a word after the error
// record (atomicMax of ~i; the stage zeroes it with the record); the plain
// kernel reads the word first and, where it is set, writes nothing: the
// CTA of that sequence runs its fills again on one lane, its rows in
// order as the host's dry run meets them, so that the record is the CPU's
// (`<path>_check` words it).
//
//===----------------------------------------------------------------------===//

#include "lib/Lowering/EmitCuda.h"
#include "lib/Support/Format.h"

using namespace mlir;
using imeta::fmt;

namespace imeta::emit {

bool CudaEmitter::hasCheckKernel(const PathPlan &plan) const {
  return fastFillCanFail(plan) ||
         !residentInputs(L.inputs(), L.deviceInputs(plan)).empty();
}

/// The word the check kernel leaves its verdict in: after the error record
/// (`err`, a pointer expression), the second of the 32 bytes every stage
/// zeroes (the first is a device step's key).
static std::string verdictWord(StringRef err) {
  return fmt("(reinterpret_cast<unsigned long long *>(reinterpret_cast<char "
             "*>({0}) + ((sizeof(ErrorRecord) + 15) & ~size_t(15))) + 1)",
             err);
}

void CudaEmitter::emitCheckKernel(CodeStream &cu, const PathPlan &plan) {
  const llvm::SetVector<Operation *> used = L.deviceInputs(plan);
  std::string p = PathOp(plan.path).getSymName().str();
  std::string ctx = L.ctxName(plan);
  cu.blank();
  cu.line("/// Path `{0}`, before {0}_kernel writes: the resident rows' "
          "writes, the rows on",
          p);
  cu.line("/// the device alone and the fast fills' own checks (where the "
          "proof holds), each");
  cu.line("/// CTA its sequence's part; the lowest failing sequence left "
          "after the error record.");
  CodeStream::Scope k(cu, fmt("__global__ void __launch_bounds__(256) "
                              "{0}_check_kernel(const {1} *__restrict__ pc)",
                              p, ctx));
  cu.line("__shared__ alignas(16) int4 shared_ctx[(sizeof({0}) + 15) / 16];",
          ctx);
  cu.line("__shared__ ErrorRecord dry;");
  cu.line("for (unsigned k = threadIdx.x; k < (sizeof({0}) + 15) / 16; k += "
          "blockDim.x)",
          ctx);
  cu.line("  shared_ctx[k] = reinterpret_cast<const int4 *>(pc)[k];");
  cu.line("if (threadIdx.x == 0) dry = ErrorRecord{};");
  cu.line("__syncthreads();");
  cu.line("{0} &c = *reinterpret_cast<{0} *>(shared_ctx);", ctx);
  cu.line("unsigned long long *const verdict = {0};", verdictWord("c.err"));
  emitResidentWrites(cu, used);
  cu.line("const int64_t i = blockIdx.x;");
  cu.line("if (i >= c.num_seqs) return;");
  emitDeviceRowChecks(cu, used,
                      "if (threadIdx.x == 0) atomicMax(verdict, "
                      "~(unsigned long long)i);");
  if (!fastFillCanFail(plan)) {
    cu.line("(void)dry;");
    return;
  }
  // Unproven, the host ran the checked dry run of every sequence.
  cu.line("if (!c.proven) return;");
  // Every thread has read c.err (its verdict word) before it changes.
  cu.line("__syncthreads();");
  cu.line("if (threadIdx.x == 0) c.err = &dry;");
  cu.line("__syncthreads();");
  cu.line("const int64_t j0 = int64_t(blockIdx.y) * blockDim.x + "
          "threadIdx.x;");
  cu.line("const int64_t step = int64_t(gridDim.y) * blockDim.x;");
  for (const RowSpace &space : plan.rowSpaces)
    cu.line("if (!{0}<false, false>(c, i, j0, step)) {{ atomicMax(verdict, "
            "~(unsigned long long)i); return; }",
            L.fillName(plan, space));
}

void CudaEmitter::emitCheckVerdict(CodeStream &cu, const PathPlan &plan) {
  cu.line("// The check kernel's verdict: a failure writes nothing. The "
          "lowest failing");
  cu.line("// sequence's fills again on one lane, its rows in order, so "
          "that the record is");
  cu.line("// the CPU's (where a row on the device alone failed, its "
          "record is there first).");
  cu.line("const unsigned long long failed = *{0};", verdictWord("c.err"));
  CodeStream::Scope f(cu, "if (failed)");
  if (fastFillCanFail(plan)) {
    CodeStream::Scope again(
        cu, "if (c.proven && blockIdx.y == 0 && threadIdx.x == 0 && "
            "int64_t(~failed) == int64_t(blockIdx.x))");
    emitOneLaneDryRun(cu, plan, "blockIdx.x", "false");
  }
  cu.line("return;");
}

void CudaEmitter::emitOneLaneDryRun(CodeStream &cu, const PathPlan &plan,
                                    StringRef seq, StringRef checked) {
  cu.line("[&] {");
  for (const RowSpace &space : plan.rowSpaces)
    cu.line("  if (!{0}<{1}, false>(c, {2}, 0, 1)) return;",
            L.fillName(plan, space), checked, seq);
  cu.line("}();");
}

} // namespace imeta::emit
