//===- EmitDeviceStep.cpp - a GPU path's step with its host stage on the device -===//
//
// For a GPU path with a device step (DeviceStageEmitter::hasStep): one
// kernel whose every CTA runs the path's sequence stage over the whole
// batch in its shared memory, the capacities and the range proof (or the
// checked dry run), so that all CTAs reach the same verdict and none
// writes an output when the batch breaks a rule; then every sequence is
// filled by a group of a CTA's threads (at most one wave of CTAs). The
// host's part per step: the input checks and the copy of the engine's
// arrays (`<path>_device_pack`). docs/device-step.md.
//
//===----------------------------------------------------------------------===//

#include "lib/Lowering/EmitCuda.h"
#include "lib/Lowering/EmitDeviceStage.h"
#include "lib/Support/Format.h"

using namespace mlir;
using imeta::fmt;

namespace imeta::emit {

/// Whether the device stage of `plan` reads an element of config list
/// `param` (a rule or a host value: a fill never does, checkDeviceReads).
static bool stageReadsConfigList(const PathPlan &plan, StringRef param) {
  auto reads = [&](Operation *root) {
    return root
        ->walk([&](ConfigAtOp at) {
          return at.getParam() == param ? WalkResult::interrupt()
                                        : WalkResult::advance();
        })
        .wasInterrupted();
  };
  for (const HostStep &step : plan.host)
    if (reads(step.op))
      return true;
  for (RequireOp rule : allRules(PathOp(plan.path)))
    if (reads(rule))
      return true;
  return false;
}

/// Threads a sequence: the CTA's, halved (down to a warp) while the grid's
/// groups are fewer than the sequences, so that every sequence is filled
/// (or checked) at once rather than one CTA taking several in turn;
/// declares `per` and `groups`.
static void emitFillGroups(CodeStream &cu) {
  cu.line("unsigned per = blockDim.x;");
  cu.line("while (per > 32 && int64_t(gridDim.x) * (blockDim.x / per) < N) "
          "per /= 2;");
  cu.line("const int64_t groups = int64_t(gridDim.x) * (blockDim.x / per);");
}

void CudaEmitter::emitDeviceStepApi(CodeStream &h, const PathPlan &plan) {
  if (!DeviceStageEmitter::hasStep(L, plan))
    return;
  std::string p = PathOp(plan.path).getSymName().str();
  h.line("/// Path `{0}`'s device step (docs/device-step.md): the host checks "
         "the inputs",
         p);
  h.line("/// and packs the engine's arrays (O(N) copies, no per-sequence "
         "arithmetic); one");
  h.line("/// kernel checks the rules, sums, capacities and int32 safety in "
         "every CTA and");
  h.line("/// writes nothing when the batch breaks one (`{0}_check` names "
         "it). Output rows",
         p);
  h.line("/// are device values (out.rows are -1). `_device_pack` packs for "
         "a graph's copy.");
  if (!DeviceStageEmitter::stateInputs(L, plan).empty())
    h.line("/// Its request state is read where the engine keeps it: "
           "Sequences' state arrays\n/// (and a state list's offsets) are "
           "device pointers here; only the slots are copied.");
  h.line("Status {0}_device_stage(GpuStaging &s, const Config &config, const "
         "Sequences &seqs, {1} &out, cudaStream_t stream);",
         p, L.buffersName(plan));
  h.line("Status {0}_device_pack(GpuStaging &s, const Config &config, const "
         "Sequences &seqs, {1} &out);",
         p, L.buffersName(plan));
  h.line("cudaError_t {0}_device_launch(const GpuStaging &s, cudaStream_t "
         "stream);",
         p);
}

/// The stage's arrays in a CTA's dynamic shared memory, after the context.
void CudaEmitter::emitStepLayout(CodeStream &cu, const PathPlan &plan) {
  std::string p = PathOp(plan.path).getSymName().str();
  cu.line("/// Path `{0}`'s device step: its host-value and row-start arrays "
          "for n sequences",
          p);
  cu.line("/// in a CTA's shared memory after the context (`base` null: the "
          "bytes only).");
  CodeStream::Scope f(cu, fmt("__host__ __device__ static size_t "
                              "{0}_step_layout({1} &c, char *base, "
                              "int64_t n)",
                              p, L.ctxName(plan)));
  cu.line("const int64_t N = n;");
  cu.line("size_t at = (sizeof({0}) + 15) & ~size_t(15);", L.ctxName(plan));
  for (Operation *op : plan.needed) {
    if (!L.isHostValue(op) || L.inContext(op))
      continue;
    CodeStream::Scope a(cu, "");
    cu.line("const size_t bytes = size_t({0}) * size_t({1}) * sizeof({2});",
            L.numBuckets(getRatios(op)), L.hostStride(op), L.hostElem(op));
    cu.line("if (base) c.h_{0} = reinterpret_cast<{1} *>(base + at);",
            symName(op), L.hostElem(op));
    cu.line("at += (bytes + 15) & ~size_t(15);");
  }
  // The request state the stage gathers at each sequence's slot (a
  // list: its row's bounds in the engine's values).
  for (const InputDecl *in : DeviceStageEmitter::stateInputs(L, plan)) {
    for (const char *part : {"", "_begin", "_end"}) {
      bool bounds = *part != 0;
      if (bounds != in->isList())
        continue;
      std::string elem = bounds ? "int64_t" : in->elemType();
      CodeStream::Scope a(cu, "");
      cu.line("if (base) c.in_{0}{1} = reinterpret_cast<{2} *>(base + at);",
              in->name, part, elem);
      cu.line("at += (size_t(N) * sizeof({0}) + 15) & ~size_t(15);", elem);
    }
  }
  for (const RowSpace &space : plan.rowSpaces) {
    std::string name = FieldOp(space.count).getSymName().str();
    CodeStream::Scope a(cu, "");
    cu.line("const size_t bytes = size_t({0}) * size_t(N + 1) * "
            "sizeof(int32_t);",
            L.numBuckets(FieldOp(space.count).getRatiosAttr()));
    cu.line("if (base) c.rowstart_{0} = reinterpret_cast<int32_t *>(base + "
            "at);",
            name);
    cu.line("at += (bytes + 15) & ~size_t(15);");
  }
  cu.line("return at;");
}

/// The kernel: the context and the stage in shared memory, the verdict,
/// then the host-value outputs, the padding and the rows of every
/// sequence, each by a group of a CTA's threads (the whole CTA, down to a
/// warp where the batch has more sequences than CTAs).
void CudaEmitter::emitStepKernel(CodeStream &cu, const PathPlan &plan) {
  std::string p = PathOp(plan.path).getSymName().str();
  std::string ctx = L.ctxName(plan);
  cu.blank();
  cu.line("/// Path `{0}`'s device step: every CTA runs the sequence stage "
          "over the batch",
          p);
  cu.line("/// (its O(rows) steps and the checked dry run for its own "
          "sequences only), the");
  cu.line("/// grid agrees on the first failure (imeta_grid_best: a "
          "cooperative launch), then");
  cu.line("/// each CTA fills its own sequences. A failure is recorded by "
          "one CTA (`key`: its");
  cu.line("/// stage key, 0 for a fill's failure in the checked dry run; "
          "key[1..3]: the");
  cu.line("/// grid's words, zero again after each launch).");
  CodeStream::Scope k(cu, fmt("__global__ void __launch_bounds__(512) "
                              "{0}_step_kernel(const {1} *__restrict__ "
                              "pc, uint64_t *__restrict__ key)",
                              p, ctx));
  cu.line("extern __shared__ int4 step_shared[];");
  cu.line("__shared__ StageShared sh;");
  cu.line("__shared__ ErrorRecord dry;");
  cu.line("__shared__ unsigned long long verdict;");
  cu.line("for (unsigned k = threadIdx.x; k < (sizeof({0}) + 15) / 16; k += "
          "blockDim.x)",
          ctx);
  cu.line("  step_shared[k] = reinterpret_cast<const int4 *>(pc)[k];");
  cu.line("__syncthreads();");
  cu.line("{0} &c = *reinterpret_cast<{0} *>(step_shared);", ctx);
  cu.line("if (threadIdx.x == 0) {0}_step_layout(c, reinterpret_cast<char "
          "*>(step_shared), c.num_seqs);",
          p);
  emitResidentWrites(cu, L.deviceInputs(plan));
  cu.line("__syncthreads();");
  cu.line("const int64_t N = c.num_seqs;");
  cu.line("BlockLanes ln(sh);");
  cu.line("ErrorRecord *const err = c.err;");
  cu.line("if (threadIdx.x == 0) dry = ErrorRecord{};");
  cu.line("uint64_t mine = kStageOk;  // this CTA's first failure");
  cu.line("int64_t dry_at = -1;  // its own sequence the checked dry run "
          "refuses");
  cu.line("[&] {");
  cu.line("if (!{0}_sequence_stage(c, ln)) {{ mine = ln.best; return; }", p);
  // Capacities: the rows each output needs, output k on the first lane of
  // warp k (modulo the warps): the warps check theirs at once, where the
  // leader alone checked every output in turn.
  {
    CodeStream::Scope all(cu, "");
    // (Rows of a rows field: its space's row starts.)
    std::string members, inits;
    for (const RowSpace &space : plan.rowSpaces) {
      std::string name = FieldOp(space.count).getSymName().str();
      members += "const int32_t *rowstart_" + name + "; ";
      inits += (inits.empty() ? "c.rowstart_" : ", c.rowstart_") + name;
    }
    if (!members.empty())
      cu.line("const struct {{ {0}} H{{{1}};", members, inits);
    if (!members.empty())
      cu.line("(void)H;");
    cu.line("const unsigned warp = threadIdx.x >> 5, warps = blockDim.x >> 5;");
    cu.line("const bool first = (threadIdx.x & 31) == 0;");
    cu.line("(void)warp, (void)warps, (void)first;");
    for (auto [k, po] : llvm::enumerate(plan.outputs)) {
      CodeStream::Scope mine(cu, fmt("if (first && warp == {0}u % warps)", k));
      CodeStream::Scope b(cu, fmt("for (int32_t b = 0; b < {0}; ++b)",
                                  L.numBuckets(po.ratios)));
      cu.line("const int64_t rows = {0};", L.outputRows(po));
      if (po.fill)
        cu.line("c.o_{0}_live[b] = rows;", po.name);
      cu.line("if (rows > c.o_{0}_capacity) ln.fail(imeta_stage_key({1}, b, "
              "0), imeta_stage_record(-1, rows));",
              po.name, DeviceStageEmitter::capacityId(plan, k));
    }
  }
  cu.line("if (ln.failed()) { mine = ln.best; return; }");
  // The dividers of scalar host values the fills divide by: the dry runs
  // below divide as the fills do.
  {
    CodeStream::Scope lead(cu, "if (threadIdx.x == 0)");
    if (!emitScalarDividers(cu, plan, "c"))
      cu.line("// (no scalar divisor)");
  }
  cu.line("__syncthreads();");
  // The proof, else the checked dry run, sequence by sequence, each by
  // the whole CTA (the fills' lanes): the first failing sequence's record,
  // its row the CPU's (the sequence run again on one lane, below).
  // The proof's leaves (the host widens its box from CTA 0's), then the
  // box or the proof.
  std::string P = L.pascal(p);
  // Within the box, each lane tests its own elements (one barrier);
  // else the leaves are reduced and the proof runs over them. CTA 0's
  // leaves are what the host widens the box around (the box itself where
  // they lie within it: nothing to widen).
  cu.line("Range lv[k{0}ProofLeaves] = {{};", P);
  cu.line("const bool in_box = k{0}ProofBoxes && c.box_n == "
          "k{0}ProofLeaves && {1}_proof_within(c, ln, c.box);",
          P, p);
  cu.line("bool proven = in_box;");
  {
    CodeStream::Scope outside(cu, "if (!in_box)");
    cu.line("{0}_proof_leaves(c, ln, lv);", p);
    cu.line("proven = {0}_proof_over(c, lv, ln);", p);
  }
  // Constant indices only: `lv` stays in registers.
  cu.line("if (blockIdx.x == 0 && threadIdx.x == 0) for (int k = 0; k < "
          "k{0}ProofLeaves; ++k) c.seen[k] = in_box ? c.box[k] : lv[k];",
          P);
  {
    // Proven, a fast fill that reads list elements still checks them
    // (fastFillCanFail): its checks alone run first, as the checked dry
    // run does where the proof fails, so that no CTA writes on a refusal.
    // Every sequence at once, a group of lanes each as the fill runs; the
    // CTA's lowest failing sequence is its part of the verdict.
    bool fastCanFail = fastFillCanFail(plan);
    cu.line("if (threadIdx.x == 0) c.err = &dry;");
    cu.line("__syncthreads();");
    if (fastCanFail) {
      CodeStream::Scope fast(cu, "if (proven)");
      cu.line("__shared__ unsigned long long first_bad;");
      cu.line("if (threadIdx.x == 0) first_bad = ~0ull;");
      cu.line("__syncthreads();");
      emitFillGroups(cu);
      {
        CodeStream::Scope i(cu, "for (int64_t i = int64_t(blockIdx.x) * "
                                "(blockDim.x / per) + threadIdx.x / per; i < "
                                "N; i += groups)");
        cu.line("[&] {");
        for (const RowSpace &space : plan.rowSpaces)
          cu.line("  if (!{0}<false, false>(c, i, threadIdx.x % per, per)) {{ "
                  "atomicMin(&first_bad, (unsigned long long)i); return; }",
                  L.fillName(plan, space));
        cu.line("}();");
      }
      cu.line("__syncthreads();");
      cu.line("if (first_bad != ~0ull) {{ mine = imeta_stage_key({0}, "
              "int64_t(first_bad), 0); dry_at = int64_t(first_bad); }",
              DeviceStageEmitter::capacityId(plan, plan.outputs.size()));
    }
    CodeStream::Scope unproven(cu, fastCanFail ? "else" : "if (!proven)");
    {
      // Its own sequences, in order: the first that fails is its part of
      // the grid's verdict (keyed after every stage key).
      CodeStream::Scope j(cu, "for (int64_t j = blockIdx.x; j < N; j += "
                              "gridDim.x)");
      cu.line("[&] {");
      for (const RowSpace &space : plan.rowSpaces)
        cu.line("  if (!{0}<true, false>(c, j, threadIdx.x, blockDim.x)) "
                "return;",
                L.fillName(plan, space));
      cu.line("}();");
      cu.line("__syncthreads();");
      cu.line("const bool failed = dry.kind != kNone;");
      cu.line("__syncthreads();");
      cu.line("if (failed) {{ mine = imeta_stage_key({0}, j, 0); dry_at = j; "
              "break; }",
              DeviceStageEmitter::capacityId(plan, plan.outputs.size()));
    }
  }
  cu.line("if (threadIdx.x == 0) c.err = err;");
  cu.line("__syncthreads();");
  cu.line("}();");
  // The grid's first failure: the CTA that found it records it (a fill's:
  // its sequence again on one lane, its rows in order as the CPU fills
  // it, names the CPU's row).
  cu.line("bool writes = false;");
  cu.line("const uint64_t best = imeta_grid_best(mine, "
          "reinterpret_cast<unsigned long long *>(key + 1), verdict, "
          "writes);");
  {
    CodeStream::Scope refused(cu, "if (best != kStageOk)");
    CodeStream::Scope writer(cu, "if (threadIdx.x == 0 && writes)");
    {
      CodeStream::Scope fill(cu, "if (dry_at >= 0)");
      cu.line("dry = ErrorRecord{};");
      cu.line("c.err = &dry;");
      cu.line("[&] {");
      for (const RowSpace &space : plan.rowSpaces)
        cu.line("  if (!{0}<true, false>(c, dry_at, 0, 1)) return;",
                L.fillName(plan, space));
      cu.line("}();");
      cu.line("*err = dry;");
      cu.line("*key = 0;");
    }
    cu.line("else { *err = ln.rec; *key = best; }");
  }
  cu.line("if (best != kStageOk) return;");
  cu.line("const int64_t tid = int64_t(blockIdx.x) * blockDim.x + "
          "threadIdx.x;");
  cu.line("const int64_t nthreads = int64_t(gridDim.x) * blockDim.x;");
  cu.line("(void)tid, (void)nthreads;");
  emitHostOutputCopies(cu, plan);
  emitPaddingFills(cu, plan);
  emitFillGroups(cu);
  CodeStream::Scope seqs(cu, "for (int64_t i = int64_t(blockIdx.x) * "
                            "(blockDim.x / per) + threadIdx.x / per; i < N; "
                            "i += groups)");
  for (const RowSpace &space : plan.rowSpaces)
    cu.line("if (!{0}<false>(c, i, threadIdx.x % per, per)) return;",
            L.fillName(plan, space));
}

/// The host's part: input checks and shapes without rows (prepare, stage
/// 2), the context, every input the stage and the fills read.
void CudaEmitter::emitStepImpl(CodeStream &cu, const PathPlan &plan,
                               unsigned gpuPath) {
  std::string p = PathOp(plan.path).getSymName().str();
  std::string ctx = L.ctxName(plan);
  std::string P = L.pascal(p);
  cu.blank();
  CodeStream::Scope f(cu, fmt("static Status {0}_device_impl(GpuStaging "
                              "&s, const Config &config, const Sequences "
                              "&seqs, {1} &out, cudaStream_t stream, bool "
                              "copy)",
                              p, L.buffersName(plan)));
  cu.line("StagingClaim claim(s);");
  cu.line("if (!claim.held()) return fail(claim.refusal());");
  cu.line("std::shared_ptr<void> &scratch = s.scratch[{0}];", gpuPath);
  cu.line("if (!scratch) scratch = std::make_shared<{0}_host>();", p);
  cu.line("{0}_host &H = *static_cast<{0}_host *>(scratch.get());", p);
  cu.line("Packer pk{{static_cast<char *>(s.host), static_cast<char "
          "*>(s.device), s.bytes, k{0}SeenOffset + "
          "align16(k{0}ProofLeaves * sizeof(Range))};",
          P);
  cu.line("Status st = {0}_prepare(config, seqs, out, true, H, "
          "FillMode::kAuto, &pk, 2);",
          p);
  cu.line("if (!st.ok) return st;");
  emitDeviceContext(cu, plan);
  // A config list the stage reads (a lookup table the host holds): into
  // the staging with the step's arrays, where the kernel reads it.
  for (const ConfigDecl &cfg : L.configs())
    if (cfg.isList && stageReadsConfigList(plan, cfg.name))
      cu.line("dc.cfgl_{0} = dc.cfgl_{0} ? pk.put(dc.cfgl_{0}, "
              "size_t(dc.cfgn_{0})) : nullptr;",
              cfg.name);
  for (const InputDecl &in : L.inputs())
    if (in.isList() && in.op.getMin())
      cu.line("dc.lo_{0} = H.lo_{0}; dc.hi_{0} = H.hi_{0};", in.name);
  emitStageInputs(cu, plan, /*all=*/true);
  // The proof box, for the configuration it was found for; the kernel's
  // leaves right after the key (what `_check` reads back).
  cu.line("const bool boxed = H.box_ok && {0}_same_config(H.box_for, dc);",
          p);
  cu.line("dc.box = boxed ? pk.put(H.box.data(), H.box.size()) : nullptr;");
  cu.line("dc.box_n = boxed ? int64_t(H.box.size()) : 0;");
  cu.line("dc.seen = reinterpret_cast<Range *>(pk.device + k{0}SeenOffset);",
          P);
  cu.line("Buffer *buffers = out.begin();");
  for (auto [k, po] : llvm::enumerate(plan.outputs)) {
    cu.line("dc.o_{0} = static_cast<{1} *>(buffers[{2}].data);", po.name,
            elemType(po.isBool), k);
    cu.line("dc.o_{0}_stride = buffers[{1}].bucket_stride;", po.name, k);
    cu.line("dc.o_{0}_width = buffers[{1}].width;", po.name, k);
    cu.line("dc.o_{0}_capacity = buffers[{1}].capacity;", po.name, k);
  }
  // One CTA a sequence of the largest batch (or as many as one wave
  // holds); its arrays for max_seqs sequences in dynamic shared memory.
  cu.line("s.per_seq = 1;");
  cu.line("s.shared_bytes = {0}_step_layout(dc, nullptr, s.max_seqs);", p);
  // The device's opt-in limit, asked once per process; the kernel's own
  // limit raised only when a staging needs more than any before (not a
  // driver call every step).
  cu.line("static const int max_shared = [] { int device = 0, n = 0; return "
          "cudaGetDevice(&device) || cudaDeviceGetAttribute(&n, "
          "cudaDevAttrMaxSharedMemoryPerBlockOptin, device) ? 48 * 1024 : n; "
          "}();");
  cu.line("if (s.shared_bytes + sizeof(StageShared) + sizeof(ErrorRecord) > "
          "size_t(max_shared)) return fail(\"{0}: the device step's \" + "
          "std::to_string(s.shared_bytes) + \" bytes of shared memory for \" "
          "+ std::to_string(s.max_seqs) + \" sequences exceed the device's \" "
          "+ std::to_string(max_shared) + \"; use a smaller max_seqs\");",
          p);
  cu.line("static std::atomic<size_t> opted{0};");
  {
    CodeStream::Scope raise(cu, "if (s.shared_bytes > opted.load())");
    cu.line("if (cudaError_t e = cudaFuncSetAttribute({0}_step_kernel, "
            "cudaFuncAttributeMaxDynamicSharedMemorySize, "
            "int(s.shared_bytes))) return cuda_fail(\"{0}: shared memory\", "
            "e);",
            p);
    cu.line("opted.store(s.shared_bytes);");
  }
  // CTAs: at most one wave (each runs the stage; more would run it again
  // after the first wave), their threads' groups filling the sequences.
  // 256 threads a CTA; 512 where a wave of those holds fewer CTAs than
  // sequences and a wave of 512-thread CTAs holds as many: the same CTAs
  // with twice the lanes for the stage's passes, the own steps' rows and
  // the fills (at N = 1024 a warp a sequence waited on each of a long
  // row's loads in turn; H200, 2026-12-06: 8-15 us less a step there; no
  // gain where every sequence has a CTA). Where the 512-thread wave is
  // smaller (registers: one CTA an SM), it would be the same lanes in
  // fewer CTAs. Both waves at these shared bytes, asked once per size and
  // kept in one word with it (bytes << 32 | CTAs of 256 << 16 | of 512),
  // so a concurrent pack of another size reads a whole one.
  cu.line("static std::atomic<int64_t> wave{-1};");
  cu.line("int64_t known = wave.load();");
  {
    CodeStream::Scope ask(cu, "if (known >> 32 != int64_t(s.shared_bytes))");
    cu.line("int64_t narrow = 0, wide = 0;");
    for (int threads : {256, 512})
      cu.line("if (cudaError_t e = resident_blocks(reinterpret_cast<const "
              "void *>({0}_step_kernel), {1}, s.shared_bytes, &{2})) return "
              "cuda_fail(\"{0}: occupancy\", e);",
              p, threads, threads == 256 ? "narrow" : "wide");
    cu.line("known = int64_t(s.shared_bytes) << 32 | std::min<int64_t>(narrow, "
            "0xffff) << 16 | std::min<int64_t>(wide, 0xffff);");
    cu.line("wave.store(known);");
  }
  cu.line("const int64_t narrow = std::max<int64_t>(1, known >> 16 & 0xffff), "
          "wide = known & 0xffff;");
  cu.line("const bool wider = narrow < s.max_seqs && wide >= narrow;");
  cu.line("s.threads = wider ? 512 : 256;");
  cu.line("s.blocks = unsigned(std::min<int64_t>(s.max_seqs, wider ? wide : "
          "narrow));");
  emitStagingFinish(cu, plan);
}

/// After a step that passed, from the leaves its kernel wrote: the path's
/// proof box widened around them (`<path>_widen_box`), unless another
/// thread holds the staging.
void CudaEmitter::emitWidenBox(CodeStream &cu, const PathPlan &plan,
                               unsigned gpuPath) {
  std::string p = PathOp(plan.path).getSymName().str();
  CodeStream::Scope f(cu, fmt("static void {0}_widen_staging_box(const "
                              "GpuStaging &s, const Range *seen)",
                              p));
  cu.line("if (!s.scratch[{0}]) return;", gpuPath);
  cu.line("StagingClaim claim(const_cast<GpuStaging &>(s));");
  cu.line("if (!claim.held()) return;");
  cu.line("{0}_widen_box(*static_cast<{0}_host *>(s.scratch[{1}].get()), "
          "*static_cast<const {2} *>(s.host), seen);",
          p, gpuPath, L.ctxName(plan));
}

void CudaEmitter::emitDeviceStep(CodeStream &cu, const PathPlan &plan,
                                 unsigned gpuPath) {
  if (!DeviceStageEmitter::hasStep(L, plan))
    return;
  std::string p = PathOp(plan.path).getSymName().str();
  std::string P = L.pascal(p);
  cu.blank();
  emitStepLayout(cu, plan);
  emitStepKernel(cu, plan);
  cu.line("/// A device step's stage key: after the error record; the "
          "proof's leaves after it.");
  cu.line("constexpr size_t k{0}KeyOffset = k{0}ErrorOffset + "
          "align16(sizeof(ErrorRecord));",
          P);
  cu.line("constexpr size_t k{0}SeenOffset = k{0}KeyOffset + 32;", P);
  emitWidenBox(cu, plan, gpuPath);
  emitStepImpl(cu, plan, gpuPath);
  cu.blank();
  cu.line("Status {0}_device_stage(GpuStaging &s, const Config &config, "
          "const Sequences &seqs, {1} &out, cudaStream_t stream) {{ return "
          "{0}_device_impl(s, config, seqs, out, stream, true); }",
          p, L.buffersName(plan));
  cu.line("Status {0}_device_pack(GpuStaging &s, const Config &config, const "
          "Sequences &seqs, {1} &out) {{ return {0}_device_impl(s, config, "
          "seqs, out, nullptr, false); }",
          p, L.buffersName(plan));
  CodeStream::Scope f(cu, fmt("cudaError_t {0}_device_launch(const "
                              "GpuStaging &s, cudaStream_t stream)",
                              p));
  // Cooperative: its CTAs wait for each other (imeta_grid_best), so all
  // must be resident at once, which the launch then guarantees (or
  // refuses) whatever else the device runs.
  cu.line("cudaLaunchConfig_t cfg{};");
  cu.line("cfg.gridDim = dim3(s.blocks ? s.blocks : unsigned(s.max_seqs));");
  cu.line("cfg.blockDim = dim3(s.threads);");
  cu.line("cfg.dynamicSmemBytes = s.shared_bytes;");
  cu.line("cfg.stream = stream;");
  cu.line("cudaLaunchAttribute cooperative[1];");
  cu.line("cooperative[0].id = cudaLaunchAttributeCooperative;");
  cu.line("cooperative[0].val.cooperative = 1;");
  cu.line("cfg.attrs = cooperative;");
  cu.line("cfg.numAttrs = 1;");
  cu.line("return cudaLaunchKernelEx(&cfg, {0}_step_kernel, static_cast<const "
          "{1} *>(s.device), reinterpret_cast<uint64_t *>(static_cast<char "
          "*>(s.device) + k{2}KeyOffset));",
          p, L.ctxName(plan), P);
}

} // namespace imeta::emit
