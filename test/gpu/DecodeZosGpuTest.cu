//===- DecodeZosGpuTest.cu - generated CUDA vs. generated C++ -------------===//
//
// On a GPU: the decode_zos_expanded kernel (decode_zos and its expansions)
// generated from specs/deepinfer_v4.mlir
// must write exactly what the generated CPU routine writes (which CI proves
// equal to the reference evaluator on the same random batches), on many
// random batches; and a launch captured in a CUDA graph at a maximum of
// 1024 rows must, replayed with smaller random batches, give the CPU values
// in the live prefix every time, with no buffer moved and no device memory
// allocated after capture. Without a GPU it prints why and exits 77
// (ctest's "skipped").
//
// LLVM-free: builds from pre-generated sources with nvcc alone.
//
//===----------------------------------------------------------------------===//

#include "GeneratedInputs.h"
#include "GpuTestSupport.h"
#include "LiveCompare.h"
#include "RandomBatch.h"
#include "ReferenceV4.h"
#include "deepinfer_v4_cuda.h"
#include "runtime/BufferSet.h"
#include "runtime/GraphLaunch.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace gen = imeta_gen::deepinfer_v4;
using namespace imeta;
using imeta::gputest::DriverArgs;

using Buffers = gen::DecodeZosExpandedBuffers;
using BufferSet = runtime::BufferSet<Buffers, gen::OutputInfo>;

namespace {

const gen::OutputInfo *info() { return gen::kDecodeZosExpandedOutputs; }
int elemSize(int k) { return info()[k].is_bool ? 1 : 4; }

/// The CPU oracle: the generated routine's output in host buffers.
struct HostOutputs {
  Buffers set;
  std::vector<std::vector<char>> storage;
};

bool runCpu(ref::GeneratedInputs &in, HostOutputs &out) {
  gen::Status st = gen::decode_zos_expanded_shape(in.config, in.seqs, out.set);
  CHECK(st.ok, "cpu shape: %s", st.message.c_str());
  out.storage = ref::allocateHost(out.set, info(), char(0x5a));
  st = gen::decode_zos_expanded(in.config, in.seqs, out.set);
  CHECK(st.ok, "cpu fill: %s", st.message.c_str());
  return true;
}

/// The live rows of every GPU output equal the CPU's (LiveCompare.h); the
/// buffers' shape was set on the host.
bool compareLive(const ref::Batch &batch, HostOutputs &cpu, BufferSet &gpu,
                 const char *what) {
  return gputest::compareLive(batch, info(), cpu.set, gpu, what,
                              /*hostShape=*/true);
}

/// Device buffers for the outputs: the shape `shape` records, with at least
/// `rowsAtLeast` rows per bucket (the capture-time maximum).
bool allocate(BufferSet &gpu, Buffers &shape, int64_t rowsAtLeast) {
  for (int k = 0; k < Buffers::kCount; ++k) {
    gen::Buffer &s = shape.begin()[k];
    int64_t rows = rowsAtLeast;
    for (int b = 0; b < s.buckets; ++b)
      rows = std::max(rows, s.rows[b]);
    std::string err = gpu.getOrCreate(info()[k].name, rows, s.width, s.buckets,
                                      runtime::Memory::Device);
    CHECK(err.empty(), "allocate: %s", err.c_str());
  }
  return true;
}

/// The CPU oracle's outputs of `in`, and device buffers of their shape.
bool cpuAndBuffers(ref::GeneratedInputs &in, HostOutputs &cpu,
                   BufferSet &gpu) {
  return runCpu(in, cpu) && allocate(gpu, cpu.set, 0);
}

/// Random batches, one staging each: GPU equals CPU everywhere, where the
/// range proof holds and, every third batch, after the checking dry run.
bool randomBatches(int count, cudaStream_t stream) {
  int proven = 0, dryRun = 0;
  gen::GpuStaging staging;
  gen::Status st = gen::gpu_staging_create(staging, 64, size_t(64) << 20);
  CHECK(st.ok, "staging: %s", st.message.c_str());
  int tested = 0;
  for (int seed = 0; tested < count; ++seed) {
    ref::Batch batch = ref::randomBatch(ref::PathKind::Decode, ref::kGpuSeedBase + seed);
    ref::GeneratedInputs in(batch);
    HostOutputs cpu;
    BufferSet gpu(info());
    if (!cpuAndBuffers(in, cpu, gpu))
      return false;
    for (int k = 0; k < Buffers::kCount; ++k) {
      gen::Buffer &b = gpu.at(k);
      CUDA_OK(cudaMemset(b.data, 0x5a,
                         size_t(b.bucket_stride) * b.max_buckets * elemSize(k)));
    }
    gen::FillMode mode =
        seed % 3 == 0 ? gen::FillMode::kChecked : gen::FillMode::kAuto;
    st = gen::decode_zos_expanded_stage(staging, in.config, in.seqs,
                                        gpu.buffers(), stream, mode);
    CHECK(st.ok, "seed %d: stage: %s", seed, st.message.c_str());
    proven += st.proven;
    dryRun += !st.proven;
    CUDA_OK(gen::decode_zos_expanded_launch(staging, stream));
    st = gen::decode_zos_expanded_check(staging, stream);
    CHECK(st.ok, "seed %d: kernel: %s", seed, st.message.c_str());
    std::string what = "random batch " + std::to_string(seed);
    if (!compareLive(batch, cpu, gpu, what.c_str()))
      return false;
    ++tested;
  }
  gen::gpu_staging_destroy(staging);
  std::printf("random batches: %d (%d proven, %d after the dry run), GPU == "
              "CPU on every output\n",
              tested, proven, dryRun);
  CHECK(proven > count / 2 && dryRun > count / 4, "both ways must have run");
  return true;
}

/// Capture at 1024 rows, replay 20 smaller batches.
bool graphReplay(cudaStream_t stream) {
  const int64_t maxRows = 1024;
  // The same batches the CPU test checks against the evaluator.
  std::vector<ref::Batch> batches = ref::graphReplayBatches();
  const ref::Batch &first = batches.front();
  ref::GeneratedInputs in(first);
  HostOutputs cpu;
  if (!runCpu(in, cpu))
    return false;
  gen::GpuStaging staging;
  gen::Status st = gen::gpu_staging_create(staging, maxRows, size_t(64) << 20);
  CHECK(st.ok, "staging: %s", st.message.c_str());
  BufferSet gpu(info());
  if (!allocate(gpu, cpu.set, maxRows + 1))
    return false;
  st = gen::decode_zos_expanded_stage(staging, in.config, in.seqs, gpu.buffers(),
                             stream);
  CHECK(st.ok, "stage: %s", st.message.c_str());

  runtime::GraphLaunch graph;
  std::string err = graph.capture(stream, [&](cudaStream_t s) {
    return gen::decode_zos_expanded_launch(staging, s);
  });
  CHECK(err.empty(), "capture: %s", err.c_str());
  std::vector<void *> addresses;
  for (int k = 0; k < Buffers::kCount; ++k)
    addresses.push_back(gpu.at(k).data);
  CUDA_OK(graph.replay(stream));
  st = gen::decode_zos_expanded_check(staging, stream);
  CHECK(st.ok, "first replay: %s", st.message.c_str());
  if (!compareLive(first, cpu, gpu, "replay at 1024 rows"))
    return false;

  size_t freeBefore = 0, total = 0;
  CUDA_OK(cudaMemGetInfo(&freeBefore, &total));
  for (int replay = 0; replay < 20; ++replay) {
    const ref::Batch &batch = batches[replay + 1];
    int64_t rows = 0;
    for (const ref::Sequence &s : batch.sequences)
      rows += s.seqlenQ;
    ref::GeneratedInputs step(batch);
    HostOutputs want;
    if (!runCpu(step, want))
      return false;
    st = gen::decode_zos_expanded_stage(staging, step.config, step.seqs, gpu.buffers(),
                               stream);
    CHECK(st.ok, "replay %d: stage: %s", replay, st.message.c_str());
    CUDA_OK(graph.replay(stream));
    st = gen::decode_zos_expanded_check(staging, stream);
    CHECK(st.ok, "replay %d: %s", replay, st.message.c_str());
    std::string what = "replay " + std::to_string(replay) + " (" +
                       std::to_string(rows) + " rows, " +
                       std::to_string(batch.sequences.size()) + " sequences)";
    if (!compareLive(batch, want, gpu, what.c_str()))
      return false;
    for (int k = 0; k < Buffers::kCount; ++k)
      CHECK(gpu.at(k).data == addresses[k], "%s: buffer %s moved",
            what.c_str(), info()[k].name);
    std::printf("%s: live prefix equals the CPU\n", what.c_str());
  }
  size_t freeAfter = 0;
  CUDA_OK(cudaMemGetInfo(&freeAfter, &total));
  CHECK(freeAfter == freeBefore,
        "device memory changed during replays: %zu -> %zu free", freeBefore,
        freeAfter);
  std::printf("graph: captured at %lld rows, 20 replays, no buffer moved, "
              "free device memory unchanged (%zu bytes)\n",
              (long long)maxRows, freeAfter);
  gen::gpu_staging_destroy(staging);
  return true;
}

/// The named values imeta-run passes the generated driver.
DriverArgs driverArgs(const ref::Batch &b) {
  DriverArgs args;
  const ref::Config &c = b.config;
  args.config("block_size", {c.blockSize});
  args.config("window_size", {c.windowSize});
  args.config("swa_block_size", {c.swaBlockSize});
  args.config("max_model_len", {c.maxModelLen});
  args.config("max_num_blocks", {c.maxNumBlocks});
  args.config("force_load_balance", {c.forceLoadBalance});
  args.config("dense_ratios", c.denseRatios);
  args.config("sparse_ratios", c.sparseRatios);
  args.config("cp_size", {c.cpSize});
  args.config("cp_rank", {c.cpRank});
  args.config("nextn", {c.nextn});
  std::vector<int64_t> q, k, st, ph, vs, bt, tok, dr, bo{0}, to{0}, dof{0};
  for (const ref::Sequence &s : b.sequences) {
    q.push_back(s.seqlenQ);
    k.push_back(s.seqlenK);
    st.push_back(s.stateId);
    ph.push_back(s.isPlaceholder);
    vs.push_back(s.swaValidStart);
    bt.insert(bt.end(), s.blockTable.begin(), s.blockTable.end());
    bo.push_back(bt.size());
    tok.insert(tok.end(), s.tokenIds.begin(), s.tokenIds.end());
    to.push_back(tok.size());
    dr.insert(dr.end(), s.draftTokens.begin(), s.draftTokens.end());
    dof.push_back(dr.size());
  }
  args.input("seqlen_q", q);
  args.input("seqlen_k", k);
  args.input("state_id", st);
  args.input("is_placeholder", ph);
  args.input("swa_valid_start", vs);
  args.input("block_table", bt, bo);
  args.input("token_ids", tok, to);
  args.input("draft_tokens", dr, dof);
  return args;
}

/// imeta-run --backend cuda's runtime half: the generated driver on the GPU
/// prints the same field file as on the CPU (whose output lit tests prove
/// byte-identical to the evaluator's).
bool driverGpuEqualsCpu(const char *path, ref::PathKind kind, int count) {
  for (int seed = 0; seed < count; ++seed) {
    ref::Batch batch = ref::randomBatch(kind, ref::kGpuSeedBase + seed);
    DriverArgs args = driverArgs(batch);
    const int32_t n = int32_t(batch.sequences.size());
    std::string cpu, gpu;
    CHECK(args.run(imeta_driver_run, path, n, 0, cpu) == 0,
          "driver cpu: %s", cpu.c_str());
    CHECK(args.run(imeta_driver_run, path, n, 1, gpu) == 0,
          "driver gpu: %s", gpu.c_str());
    CHECK(cpu == gpu, "%s seed %d: the GPU field file differs", path, seed);
  }
  std::printf("driver (imeta-run --backend cuda), path %s: %d batches, GPU "
              "field file == CPU field file\n",
              path, count);
  return true;
}

/// decode_async's values (SPEC-async.md): a random request state of 1 to
/// 12 slots and 1 to 16 sequences naming them (slots repeat; -1 for some
/// placeholders), every rule kept; `n` gets the sequence count.
DriverArgs asyncArgs(uint64_t seed, int32_t &n) {
  std::mt19937_64 rng(seed);
  auto pick = [&](int64_t lo, int64_t hi) {
    return lo + int64_t(rng() % uint64_t(hi - lo + 1));
  };
  const int64_t block = 16, maxLen = 256, nextn = pick(0, 3);
  const std::vector<int64_t> dense{4}, sparse{pick(0, 1) ? 2 : 8};
  const int64_t r0 = std::min(dense[0], sparse[0]);
  DriverArgs args;
  args.config("block_size", {block});
  args.config("window_size", {4});
  args.config("swa_block_size", {4 + nextn + pick(0, 3)});
  args.config("max_model_len", {maxLen});
  args.config("max_num_blocks", {16});
  args.config("force_load_balance", {pick(0, 1)});
  args.config("dense_ratios", dense);
  args.config("sparse_ratios", sparse);
  args.config("cp_size", {1});
  args.config("cp_rank", {0});
  args.config("nextn", {nextn});
  const int64_t slots = pick(1, 12);
  std::vector<int64_t> computed, last, drafts, draftRows, draftOffs{0}, state,
      table, tableOffs{0};
  for (int64_t s = 0; s < slots; ++s) {
    const int64_t d = pick(0, nextn);
    const int64_t c = pick(0, maxLen - 1 - nextn);
    computed.push_back(c);
    last.push_back(pick(0, 50000));
    drafts.push_back(d);
    for (int64_t t = 0; t < nextn; ++t)
      draftRows.push_back(pick(0, 50000));
    draftOffs.push_back(int64_t(draftRows.size()));
    state.push_back(pick(0, 40));
    const int64_t k = c + 1 + d;
    const int64_t blocks = ((k / r0) + block / r0 - 1) / (block / r0);
    for (int64_t b = 0; b < blocks + pick(0, 2) && b < 16; ++b)
      table.push_back(pick(0, 1000));
    tableOffs.push_back(int64_t(table.size()));
  }
  n = int32_t(pick(1, 16));
  std::vector<int64_t> slot, placeholder;
  for (int32_t i = 0; i < n; ++i) {
    const int64_t s = pick(-1, slots - 1);
    slot.push_back(s);
    placeholder.push_back(s < 0 || pick(0, 9) == 0);
  }
  args.input("slot", slot);
  args.input("is_placeholder", placeholder);
  args.input("num_computed", computed);
  args.input("slot_last_token", last);
  args.input("num_drafts", drafts);
  args.input("slot_draft_tokens", draftRows, draftOffs);
  args.input("slot_state_id", state);
  args.input("slot_block_table", table, tableOffs);
  return args;
}

/// decode_async through the driver: the GPU's field file equals the CPU's
/// on random request state (the first stage resolves on the host).
bool asyncGpuEqualsCpu(int count) {
  for (int seed = 0; seed < count; ++seed) {
    int32_t n = 0;
    DriverArgs args = asyncArgs(ref::kGpuSeedBase + uint64_t(seed), n);
    std::string cpu, gpu;
    CHECK(args.run(imeta_driver_run, "decode_async", n, 0, cpu) == 0,
          "decode_async seed %d, driver cpu: %s", seed, cpu.c_str());
    CHECK(args.run(imeta_driver_run, "decode_async", n, 1, gpu) == 0,
          "decode_async seed %d, driver gpu: %s", seed, gpu.c_str());
    CHECK(cpu == gpu, "decode_async seed %d: the GPU field file differs", seed);
  }
  std::printf("driver (imeta-run --backend cuda), path decode_async: %d "
              "batches of random request state, GPU field file == CPU field "
              "file\n",
              count);
  return true;
}

/// The buffer set refuses a caller's buffer of the wrong element type,
/// width or size, naming the output, and leaves the set as it was.
bool bufferSetChecks() {
  BufferSet set(info());
  std::string err = set.getOrCreate("positions", 16, 1, 1,
                                    runtime::Memory::Device);
  CHECK(err.empty(), "allocate positions: %s", err.c_str());
  void *before = set.at(set.find("positions")).data;
  runtime::CallerBuffer small{before, 4, 1, 8, 1, runtime::Memory::Device};
  err = set.getOrCreate("positions", 16, 1, 1, runtime::Memory::Device,
                        &small);
  CHECK(err == "output 'positions': the buffer is [1, 8, 1], smaller than "
               "[1, 16, 1]",
        "small buffer: %s", err.c_str());
  runtime::CallerBuffer bytes{before, 1, 1, 16, 1, runtime::Memory::Device};
  err = set.getOrCreate("positions", 16, 1, 1, runtime::Memory::Device,
                        &bytes);
  CHECK(err == "output 'positions': element size 1, the field needs 4",
        "element size: %s", err.c_str());
  err = set.getOrCreate("kv_swa_index_offset_len", 16, 3, 1,
                        runtime::Memory::Device);
  CHECK(err == "output 'kv_swa_index_offset_len': rows of 3 values, the "
               "field has 2",
        "width: %s", err.c_str());
  err = set.getOrCreate("nope", 16, 1, 1, runtime::Memory::Device);
  CHECK(err == "no output named 'nope'", "name: %s", err.c_str());
  // A size that wraps (it allocated a few bytes, then the fill overflowed
  // the heap) and a negative one are refused.
  err = set.getOrCreate("block_tables", int64_t(1) << 40, int64_t(1) << 40,
                        1, runtime::Memory::Device);
  CHECK(err == "output 'block_tables': [1, 1099511627776, 1099511627776] "
               "values overflow a size",
        "overflow: %s", err.c_str());
  err = set.getOrCreate("positions", -4, 1, 1, runtime::Memory::Device);
  CHECK(err == "output 'positions': a negative capacity or width",
        "negative: %s", err.c_str());
  CHECK(set.at(set.find("positions")).data == before &&
            set.at(set.find("positions")).capacity == 16,
        "a refused buffer changed the set");
  std::printf("buffer set: wrong size, element type, width, name, a "
              "wrapping or negative size refused with the output named\n");
  return true;
}

/// A set whose get_or_create another thread holds (the claim is set by
/// hand: deterministic, where two real threads would race to it).
struct HeldSet : BufferSet {
  using BufferSet::BufferSet;
  void hold(bool held) { inUse = held; }
};

/// A staging or buffer set used by a second thread while one call runs is
/// refused with an error, nothing written; a staging never created too.
bool oneThreadChecks(cudaStream_t stream) {
  HeldSet set(info());
  set.hold(true);
  std::string err = set.getOrCreate("positions", 16, 1, 1,
                                    runtime::Memory::Device);
  CHECK(err == "output 'positions': the buffer set is in use by another "
               "thread (one get_or_create at a time)",
        "held set: %s", err.c_str());
  CHECK(set.at(set.find("positions")).data == nullptr,
        "a refused get_or_create changed the set");
  set.hold(false);
  err = set.getOrCreate("positions", 16, 1, 1, runtime::Memory::Device);
  CHECK(err.empty(), "released set: %s", err.c_str());

  ref::Batch batch = ref::randomBatch(ref::PathKind::Decode, ref::kGpuSeedBase);
  ref::GeneratedInputs in(batch);
  HostOutputs cpu;
  BufferSet gpu(info());
  if (!cpuAndBuffers(in, cpu, gpu))
    return false;
  gen::GpuStaging never;
  gen::Status st = gen::decode_zos_expanded_stage(never, in.config, in.seqs,
                                                  gpu.buffers(), stream);
  CHECK(!st.ok && st.message == "gpu staging: not created "
                                "(gpu_staging_create)",
        "uncreated staging: %s", st.message.c_str());
  gen::GpuStaging staging;
  st = gen::gpu_staging_create(staging, 64, size_t(64) << 20);
  CHECK(st.ok, "staging: %s", st.message.c_str());
  std::memset(staging.host, 0x5a, 256);
  *staging.in_use = true;
  const char *busy =
      "gpu staging: in use by another thread (one stage or pack at a time)";
  st = gen::decode_zos_expanded_stage(staging, in.config, in.seqs,
                                      gpu.buffers(), stream);
  CHECK(!st.ok && st.message == busy, "held stage: %s", st.message.c_str());
  st = gen::decode_zos_expanded_pack(staging, in.config, in.seqs,
                                     gpu.buffers());
  CHECK(!st.ok && st.message == busy, "held pack: %s", st.message.c_str());
  const unsigned char *host = static_cast<unsigned char *>(staging.host);
  for (int i = 0; i < 256; ++i)
    CHECK(host[i] == 0x5a, "a refused stage wrote the staging at byte %d", i);
  CHECK(staging.used == 0, "a refused stage set used = %zu", staging.used);
  *staging.in_use = false;
  st = gen::decode_zos_expanded_stage(staging, in.config, in.seqs,
                                      gpu.buffers(), stream);
  CHECK(st.ok, "released stage: %s", st.message.c_str());
  CHECK(!*staging.in_use, "a stage kept its claim");
  CUDA_OK(gen::decode_zos_expanded_launch(staging, stream));
  st = gen::decode_zos_expanded_check(staging, stream);
  CHECK(st.ok, "kernel: %s", st.message.c_str());
  if (!compareLive(batch, cpu, gpu, "after a refused stage"))
    return false;
  gen::gpu_staging_destroy(staging);
  std::printf("one thread: a held buffer set or staging, and a staging "
              "never created, refused with nothing written\n");
  return true;
}

} // namespace

int main(int argc, char **argv) {
  int count = argc > 1 ? std::atoi(argv[1]) : 600;
  if (!gputest::haveDevice())
    return 77;
  cudaStream_t stream;
  if (cudaStreamCreate(&stream) != cudaSuccess)
    return 1;
  bool ok = bufferSetChecks() && oneThreadChecks(stream) &&
            randomBatches(count, stream) &&
            graphReplay(stream) &&
            driverGpuEqualsCpu("decode_zos", ref::PathKind::Decode, 100) &&
            driverGpuEqualsCpu("decode_zos_expanded", ref::PathKind::Decode,
                               100) &&
            driverGpuEqualsCpu("prompt_expanded", ref::PathKind::Prompt, 100) &&
            driverGpuEqualsCpu("decode_varlen", ref::PathKind::Decode, 100) &&
            asyncGpuEqualsCpu(100) &&
            driverGpuEqualsCpu("prompt_cp_mirror", ref::PathKind::Prompt, 100) &&
            driverGpuEqualsCpu("prompt_cp_expanded", ref::PathKind::Prompt,
                               100);
  cudaStreamDestroy(stream);
  return gputest::finish(ok);
}
