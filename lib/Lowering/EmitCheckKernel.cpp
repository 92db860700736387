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
// kernel reads the word first and, where it is set, writes nothing.
// `<path>_check` then names the failure as the CPU does: a row on the
// device alone read back (the host checks tables first), else the host's
// fast dry run of that sequence (`<path>_fast_dry_run` on the context
// prepare left), its rows and columns in order. Not on the device: the
// GPU's column walk is a warp's (one lane would not cover a row), and it
// checks a monotone read once per row, at its ends, where the host names
// the first bad column. The sequence is the host's first failing one: the
// GPU's checks fail for a sequence exactly where the host's do (a
// monotone read's ends bound every column's index). The host state is
// the failed step's only until the next pack (the torch binding plans the
// next step before it checks this one): each pack is numbered
// (`pack_no`), and `_check` names field and row only while the numbers
// agree, the sequence alone otherwise. The fill kernel is launched as
// the check kernel's programmatic dependent where it was compiled for
// sm_90 or later (its launch overlaps; it waits before the verdict).
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
/// zeroes (a device step's key, then its grid's words, which its last CTA
/// zeroes).
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
  // The fast fills' record of a failure (only which sequence is kept).
  const bool dryRun = fastFillCanFail(plan);
  emitSharedContext(cu, plan, /*withRecord=*/dryRun);
  if (dryRun)
    cu.line("if (threadIdx.x == 0) dry = ErrorRecord{};");
  // The fill kernel, launched as this one's programmatic dependent, may
  // start (its context copy) while this one runs; it waits for this
  // one's end before it reads anything this one writes.
  cu.line("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900");
  cu.line("asm volatile(\"griddepcontrol.launch_dependents;\");");
  cu.line("#endif");
  cu.line("__syncthreads();");
  cu.line("{0} &c = *reinterpret_cast<{0} *>(shared_ctx);", ctx);
  cu.line("unsigned long long *const verdict = {0};", verdictWord("c.err"));
  emitResidentWrites(cu, used);
  cu.line("const int64_t i = blockIdx.x;");
  cu.line("if (i >= c.num_seqs) return;");
  emitDeviceRowChecks(cu, used,
                      "if (threadIdx.x == 0) atomicMax(verdict, "
                      "~(unsigned long long)i);");
  if (!dryRun)
    return;
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
  cu.line("// The check kernel's verdict: after a failure, nothing is "
          "written (`_check`");
  cu.line("// names it). Launched as its programmatic dependent: its end "
          "waited for first.");
  cu.line("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900");
  cu.line("asm volatile(\"griddepcontrol.wait;\" ::: \"memory\");");
  cu.line("#endif");
  cu.line("if (*{0}) return;", verdictWord("c.err"));
}

void CudaEmitter::emitCheckFailure(CodeStream &cu, const PathPlan &plan,
                                   unsigned gpuPath) {
  if (!fastFillCanFail(plan))
    return;
  std::string p = PathOp(plan.path).getSymName().str();
  std::string ctx = L.ctxName(plan);
  cu.line("uint64_t failed = 0;");
  cu.line("std::memcpy(&failed, back + key_at + 8, sizeof(failed));");
  CodeStream::Scope f(cu, "if (failed && e.kind == kNone)");
  // The host state names it while it is the failed pack's (not after a
  // later pack, e.g. the next step's before this check) and no other
  // thread holds the staging; else the sequence alone.
  cu.line("const int64_t i = int64_t(~failed);");
  cu.line("const std::string unnamed = \"sequence \" + std::to_string(i) + "
          "\": the fast fill failed a check on the device (a read past a "
          "list or a row)\";");
  cu.line("uint64_t packed = 0;");
  cu.line("if (cudaError_t ce = cudaMemcpy(&packed, static_cast<const char "
          "*>(s.device) + offsetof({0}, pack_no), sizeof(packed), "
          "cudaMemcpyDeviceToHost)) return cuda_fail(\"{1}: pack number\", "
          "ce);",
          ctx, p);
  cu.line("StagingClaim claim(const_cast<GpuStaging &>(s));");
  cu.line("std::shared_ptr<void> scratch = s.scratch[{0}];", gpuPath);
  cu.line("if (!claim.held() || !scratch) return fail(unnamed + \"; the "
          "staging is in use or holds no stage\");");
  cu.line("{0}_host &H = *static_cast<{0}_host *>(scratch.get());", p);
  cu.line("if (H.packs != packed || i >= H.c.num_seqs) return fail(unnamed "
          "+ \"; the stage packed again before {0}_check: check each step "
          "before the next pack to have the field and row named\");",
          p);
  for (const InputDecl *in : residentInputs(L.inputs(), L.deviceInputs(plan)))
    cu.line("if (H.table_{0} && !H.c.in_{0}) return fail(unnamed + \"; "
            "'{0}_table' has its rows on the device alone: give 'host' too "
            "to have the field and row named\");",
            in->name);
  cu.line("if (Status d = detail::{0}_fast_dry_run(H, i, i + 1); !d.ok) "
          "return d;",
          p);
  cu.line("return fail(unnamed + \"; the step's host inputs no longer "
          "show it (they changed before {0}_check)\");",
          p);
}

} // namespace imeta::emit
