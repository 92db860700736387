//===- AsyncStepGpuTest.cu - decode_async's device step -------------------===//
//
// On a GPU: decode_async (SPEC-async.md) as a device step. Its resolved
// inputs are read in place (imeta-inline-resolves): the request state
// lives in device memory as an engine keeps it (the block table a table
// of rows of one stride with their lengths, the drafts packed rows), the
// host gives only the slots and placeholder flags, the kernel's stage
// gathers the state at each slot and checks every rule. Against the
// generated CPU routine on the same state in host memory:
// - random slotted batches (ref::randomAsyncBatch: repeated slots,
//   placeholders at slot -1 and at real slots, nextn 0..3): every output
//   equal in its live rows;
// - the broken ones (a slot past the state, slot -1 without a
//   placeholder, num_drafts past nextn or below 0, num_computed below 0,
//   a drafts row of another width, a block-table row shorter than k needs,
//   k past max_model_len, a state id or a block id below 0, more blocks
//   than max_num_blocks, a ring too small): the CPU routine's exact message
//   from decode_async_check, every output byte as it was; a table row
//   longer than its stride refused before any id is read;
// - one graph of the launch captured at 64 sequences, replayed with the
//   valid batches padded to 64 with placeholders at slot -1: equal to the
//   CPU each time, no buffer moved, no device memory allocated;
// - both again on a staging for 1024 sequences, whose launch takes 512
//   threads a CTA (fewer CTAs than sequences; docs/device-step.md), the
//   random batches padded with placeholders to 100..599 sequences so that
//   a sequence's lanes are a group smaller than a CTA.
// Without a GPU it prints why and exits 77 (ctest's "skipped").
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
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace gen = imeta_gen::deepinfer_v4;
using namespace imeta;

using Buffers = gen::DecodeAsyncBuffers;
using BufferSet = runtime::BufferSet<Buffers, gen::OutputInfo>;

namespace {

const gen::OutputInfo *info() { return gen::kDecodeAsyncOutputs; }
int elemSize(int k) { return info()[k].is_bool ? 1 : 4; }
constexpr char kPattern = char(0x5a);
constexpr int64_t kMaxSeqs = 64, kWideSeqs = 1024;

/// SPEC-async.md §3: the step's decode batch, read from the state at each
/// slot (slot -1: q = k = 1, token 0, state 0, num_blocks(1) zeros); what
/// the live columns of the block tables are counted from.
ref::Batch resolved(const ref::AsyncBatch &a) {
  ref::Batch b;
  b.config = a.config;
  for (const ref::AsyncSequence &q : a.sequences) {
    ref::Sequence s{};
    s.isPlaceholder = q.isPlaceholder;
    if (q.slot < 0) {
      s.seqlenQ = s.seqlenK = 1;
    } else {
      size_t slot = size_t(q.slot);
      s.seqlenQ = 1 + a.state.numDrafts.at(slot);
      s.seqlenK = a.state.numComputed.at(slot) + s.seqlenQ;
    }
    b.sequences.push_back(std::move(s));
  }
  return b;
}

/// A batch as the generated code takes it: the config, the slots and
/// flags, and the state twice, in host memory (the drafts and the block
/// table as packed rows) and in device memory (the block table as a table
/// of rows `stride` apart with their lengths, as an engine keeps it).
struct AsyncInputs {
  ref::GeneratedInputs base; // the config (a batch without sequences)
  std::vector<int32_t> slot, computed, last, drafts, stateId, draftVals,
      tableVals, tableRows, tableLens;
  std::vector<int64_t> draftOff{0}, tableOff{0};
  std::unique_ptr<bool[]> placeholder;
  int64_t stride = 1;
  gen::Sequences host, device;
  std::vector<void *> owned;

  static ref::Batch configOnly(const ref::AsyncBatch &a) {
    ref::Batch b;
    b.config = a.config;
    return b;
  }
  explicit AsyncInputs(const ref::AsyncBatch &a) : base(configOnly(a)) {
    base.config.nextn = int32_t(a.config.nextn);
    const ref::AsyncState &st = a.state;
    const size_t slots = st.numComputed.size();
    placeholder.reset(new bool[a.sequences.size() + 1]());
    for (size_t i = 0; i < a.sequences.size(); ++i) {
      slot.push_back(int32_t(a.sequences[i].slot));
      placeholder[i] = a.sequences[i].isPlaceholder;
    }
    for (size_t r = 0; r < slots; ++r) {
      computed.push_back(int32_t(st.numComputed[r]));
      last.push_back(int32_t(st.lastToken[r]));
      drafts.push_back(int32_t(st.numDrafts[r]));
      stateId.push_back(int32_t(st.stateId[r]));
      for (int64_t v : st.draftTokens[r])
        draftVals.push_back(int32_t(v));
      draftOff.push_back(int64_t(draftVals.size()));
      for (int64_t v : st.blockTable[r])
        tableVals.push_back(int32_t(v));
      tableOff.push_back(int64_t(tableVals.size()));
      tableLens.push_back(int32_t(st.blockTable[r].size()));
      stride = std::max<int64_t>(stride, int64_t(st.blockTable[r].size()));
    }
    // The table: row r at r * stride, the rest of each row -7 (never read).
    tableRows.assign(slots * size_t(stride), -7);
    for (size_t r = 0; r < slots; ++r)
      std::copy(st.blockTable[r].begin(), st.blockTable[r].end(),
                tableRows.begin() + r * size_t(stride));
    host.num_seqs = int32_t(a.sequences.size());
    host.slot = slot.data();
    host.is_placeholder = placeholder.get();
    host.slot_slots = int32_t(slots);
    host.num_computed = computed.data();
    host.slot_last_token = last.data();
    host.num_drafts = drafts.data();
    host.slot_draft_tokens = draftVals.data();
    host.slot_draft_tokens_offsets = draftOff.data();
    host.slot_state_id = stateId.data();
    host.slot_block_table = tableVals.data();
    host.slot_block_table_offsets = tableOff.data();
    device = host;
    device.num_computed = put(computed);
    device.slot_last_token = put(last);
    device.num_drafts = put(drafts);
    device.slot_draft_tokens = put(draftVals);
    device.slot_draft_tokens_offsets = put(draftOff);
    device.slot_state_id = put(stateId);
    device.slot_block_table = put(tableRows);
    device.slot_block_table_offsets = nullptr;
    device.slot_block_table_stride = stride;
    device.slot_block_table_lengths = put(tableLens);
  }
  ~AsyncInputs() {
    for (void *d : owned)
      cudaFree(d);
  }
  template <typename T> const T *put(const std::vector<T> &v) {
    void *d = nullptr;
    if (cudaMalloc(&d, std::max<size_t>(1, v.size()) * sizeof(T)) !=
        cudaSuccess)
      return nullptr;
    owned.push_back(d);
    cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
    return static_cast<const T *>(d);
  }
  const gen::Config &config() const { return base.config; }
};

/// A valid batch of config `c`: one padding placeholder at slot -1 over
/// one idle slot.
ref::AsyncBatch idleBatch(const ref::Config &c) {
  ref::AsyncBatch a;
  a.config = c;
  a.state.numComputed = {0};
  a.state.lastToken = {0};
  a.state.numDrafts = {0};
  a.state.stateId = {0};
  a.state.draftTokens = {std::vector<int64_t>(size_t(c.nextn), 0)};
  a.state.blockTable = {std::vector<int64_t>(size_t(ref::numBlocks(c, 1)), 0)};
  a.sequences = {{-1, true, true}};
  return a;
}

/// The graph-replay test's config (ref::graphBatch's) with nextn 2.
ref::Config graphConfig(std::mt19937_64 &rng) {
  ref::Config config = ref::graphBatch(rng, 8).config;
  config.nextn = 2;
  config.swaBlockSize =
      std::max(config.swaBlockSize, config.windowSize + config.nextn);
  return config;
}

/// A valid step of `n` sequences of config `c` over `slots` random
/// requests (histories up to max_model_len - nextn - 1, 0..nextn drafts,
/// block-table rows num_blocks(k) long and up to 2 more), some sequences
/// placeholders, then padded to `padTo` with slot -1 placeholders (a
/// graph captured at padTo sequences replays any of them).
ref::AsyncBatch graphBatch(const ref::Config &c, std::mt19937_64 &rng,
                           int64_t n, int64_t padTo = 0) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  ref::AsyncBatch a;
  a.config = c;
  const int64_t slots = pick(1, 80);
  for (int64_t r = 0; r < slots; ++r) {
    const int64_t drafts = pick(0, c.nextn);
    const int64_t computed = pick(0, c.maxModelLen - c.nextn - 1);
    a.state.numComputed.push_back(computed);
    a.state.lastToken.push_back(pick(0, 1 << 20));
    a.state.numDrafts.push_back(drafts);
    a.state.stateId.push_back(pick(0, 1000));
    std::vector<int64_t> row(size_t(c.nextn));
    for (int64_t &t : row)
      t = pick(0, 1 << 20);
    a.state.draftTokens.push_back(row);
    const int64_t k = computed + 1 + drafts;
    std::vector<int64_t> table(size_t(ref::numBlocks(c, k) + pick(0, 2)));
    for (int64_t &b : table)
      b = pick(0, 100000);
    a.state.blockTable.push_back(table);
  }
  for (int64_t i = 0; i < n; ++i)
    a.sequences.push_back({pick(0, slots - 1), pick(0, 9) == 0, true});
  while (int64_t(a.sequences.size()) < padTo)
    a.sequences.push_back({-1, true, true});
  return a;
}

/// The CPU routine's answer: its outputs, or its message.
struct CpuAnswer {
  gen::Status st;
  Buffers set;
  std::vector<std::vector<char>> storage;
};

CpuAnswer runCpu(const AsyncInputs &in) {
  CpuAnswer a;
  a.st = gen::decode_async_shape(in.config(), in.host, a.set);
  if (!a.st.ok)
    return a;
  a.storage = ref::allocateHost(a.set, info(), kPattern);
  a.st = gen::decode_async(in.config(), in.host, a.set);
  return a;
}

/// Device buffers of `rows` rows a bucket, as wide as the config makes
/// them, every byte the pattern.
bool allocate(BufferSet &gpu, const Buffers &shape, int64_t rows) {
  for (int k = 0; k < Buffers::kCount; ++k) {
    const gen::Buffer &s = const_cast<Buffers &>(shape).begin()[k];
    std::string err = gpu.getOrCreate(info()[k].name, rows, s.width,
                                      std::max(s.buckets, 1),
                                      runtime::Memory::Device);
    CHECK(err.empty(), "allocate: %s", err.c_str());
    gen::Buffer &b = gpu.at(k);
    CUDA_OK(cudaMemset(b.data, kPattern,
                       size_t(b.bucket_stride) * b.max_buckets * elemSize(k)));
  }
  return true;
}

/// Every output's bytes, copied back.
bool snapshot(BufferSet &gpu, std::vector<std::vector<char>> &out) {
  out.clear();
  for (int k = 0; k < Buffers::kCount; ++k) {
    gen::Buffer &b = gpu.at(k);
    out.emplace_back(size_t(b.bucket_stride) * b.max_buckets * elemSize(k));
    CUDA_OK(cudaMemcpy(out.back().data(), b.data, out.back().size(),
                       cudaMemcpyDeviceToHost));
  }
  return true;
}

/// One device step: stage (the slots and flags), launch, check.
gen::Status step(gen::GpuStaging &s, const AsyncInputs &in, BufferSet &gpu,
                 cudaStream_t stream) {
  gen::Status st = gen::decode_async_device_stage(s, in.config(), in.device,
                                                  gpu.buffers(), stream);
  if (!st.ok)
    return st;
  if (cudaError_t e = gen::decode_async_device_launch(s, stream))
    return gen::Status{false, std::string("launch: ") + cudaGetErrorString(e)};
  return gen::decode_async_check(s, stream);
}

/// Random slotted batches, valid and broken, each on buffers of its
/// config's widths, on a staging for `maxSeqs` sequences (its launch's
/// shape: 1024 takes 512 threads a CTA, docs/device-step.md).
bool randomAndBroken(int count, int64_t maxSeqs, cudaStream_t stream) {
  gen::GpuStaging staging;
  gen::Status st = gen::gpu_staging_create(staging, maxSeqs, size_t(16) << 20);
  CHECK(st.ok, "staging: %s", st.message.c_str());
  int equal = 0, refused = 0, skipped = 0;
  for (uint64_t seed = 0; equal + refused < count; ++seed) {
    ref::AsyncBatch a = ref::randomAsyncBatch(seed);
    // One slot count in the C++ API: arrays of other lengths do not exist.
    if (a.broken == ref::AsyncBreak::StateLengths) {
      ++skipped;
      continue;
    }
    // On a wide staging, more sequences than its CTAs: placeholders at
    // slot -1 after the batch's own (valid; the CPU's message unchanged).
    if (maxSeqs > kMaxSeqs)
      while (int64_t(a.sequences.size()) < 100 + int64_t(seed % 500))
        a.sequences.push_back({-1, true, true});
    AsyncInputs in(a);
    CpuAnswer cpu = runCpu(in);
    const std::string what = "seed " + std::to_string(seed);
    // The buffers' widths, from a valid batch of the same config (a broken
    // one has no shape).
    AsyncInputs idle(idleBatch(a.config));
    Buffers shape;
    gen::Status sh = gen::decode_async_shape(idle.config(), idle.host, shape);
    if (!sh.ok) {
      ++skipped; // a config no batch can satisfy
      continue;
    }
    BufferSet gpu(info());
    if (!allocate(gpu, shape, 4 * maxSeqs))
      return false;
    std::vector<std::vector<char>> before;
    if (!snapshot(gpu, before))
      return false;
    gen::Status got = step(staging, in, gpu, stream);
    if (cpu.st.ok) {
      CHECK(got.ok, "%s (%s): the device refuses a batch the CPU accepts: %s",
            what.c_str(), a.brokenRule(), got.message.c_str());
      if (!gputest::compareLive(resolved(a), info(), cpu.set, gpu,
                                what.c_str(), /*hostShape=*/false))
        return false;
      ++equal;
      continue;
    }
    CHECK(!got.ok && got.message == cpu.st.message,
          "%s (breaks %s): device '%s', CPU '%s'", what.c_str(),
          a.brokenRule(), got.ok ? "accepts" : got.message.c_str(),
          cpu.st.message.c_str());
    std::vector<std::vector<char>> after;
    if (!snapshot(gpu, after))
      return false;
    for (int k = 0; k < Buffers::kCount; ++k)
      CHECK(after[size_t(k)] == before[size_t(k)],
            "%s (breaks %s): output %s was written", what.c_str(),
            a.brokenRule(), info()[k].name);
    ++refused;
  }
  // A table row that says it holds far more ids than its stride: refused
  // before any id is read (no read past the table), nothing written.
  {
    std::mt19937_64 rng(7);
    ref::AsyncBatch a = graphBatch(graphConfig(rng), rng, 8);
    AsyncInputs in(a);
    std::vector<int32_t> lengths = in.tableLens;
    const size_t last = lengths.size() - 1;
    lengths[last] = int32_t(in.stride + 100000000);
    in.device.slot_block_table_lengths = in.put(lengths);
    in.slot[0] = int32_t(last);
    AsyncInputs idle(idleBatch(a.config));
    Buffers shape;
    CHECK(gen::decode_async_shape(idle.config(), idle.host, shape).ok,
          "idle shape");
    BufferSet gpu(info());
    if (!allocate(gpu, shape, 1024))
      return false;
    std::vector<std::vector<char>> before, after;
    if (!snapshot(gpu, before))
      return false;
    gen::Status got = step(staging, in, gpu, stream);
    const std::string want =
        "state 'block_table' slot " + std::to_string(last) + ": has " +
        std::to_string(lengths[last]) + " entries, outside its table's [0, " +
        std::to_string(in.stride) + "]";
    CHECK(!got.ok && got.message == want, "long table row: '%s', want '%s'",
          got.ok ? "accepted" : got.message.c_str(), want.c_str());
    if (!snapshot(gpu, after))
      return false;
    CHECK(after == before, "long table row: an output was written");
  }
  // On sm_90 the stage's arrays for 1024 sequences leave one CTA an SM:
  // the shape this run is for.
  CHECK(maxSeqs != kWideSeqs || staging.threads == 512,
        "a staging for %lld sequences launched %u threads a CTA",
        (long long)maxSeqs, staging.threads);
  std::printf("decode_async device step, staging for %lld sequences (%u "
              "CTAs of %u threads): %d random slotted batches equal the "
              "CPU; %d broken ones refused on the device in the CPU's words, "
              "every output byte as it was (%d with state arrays of other "
              "lengths skipped: the C++ API has one slot count)\n",
              (long long)maxSeqs, staging.blocks, staging.threads, equal,
              refused, skipped);
  gen::gpu_staging_destroy(staging);
  CHECK(equal > count / 2 && refused > count / 20,
        "too few batches of a kind: %d equal, %d refused", equal, refused);
  return true;
}

/// One graph of the launch captured at maxSeqs sequences, replayed with
/// valid batches of the same config, unpadded and padded.
bool graphReplay(int64_t maxSeqs, cudaStream_t stream) {
  // One config for the graph (an engine's): the graph-replay test's,
  // with nextn 2.
  std::mt19937_64 rng(2026);
  const ref::Config config = graphConfig(rng);
  std::vector<ref::AsyncBatch> batches;
  for (int k = 0; k < 20; ++k) {
    const int64_t n = 1 + int64_t(rng() % uint64_t(maxSeqs));
    batches.push_back(graphBatch(config, rng, n));
    batches.push_back(graphBatch(config, rng, n, maxSeqs));
  }
  AsyncInputs first(graphBatch(config, rng, maxSeqs));
  CpuAnswer cpu = runCpu(first);
  CHECK(cpu.st.ok, "first: %s", cpu.st.message.c_str());
  gen::GpuStaging staging;
  gen::Status st = gen::gpu_staging_create(staging, maxSeqs, size_t(16) << 20);
  CHECK(st.ok, "staging: %s", st.message.c_str());
  BufferSet gpu(info());
  if (!allocate(gpu, cpu.set, 4 * maxSeqs * (1 + config.nextn)))
    return false;
  st = gen::decode_async_device_stage(staging, first.config(), first.device,
                                      gpu.buffers(), stream);
  CHECK(st.ok, "stage: %s", st.message.c_str());
  runtime::GraphLaunch graph;
  std::string err = graph.capture(stream, [&](cudaStream_t s) {
    return gen::decode_async_device_launch(staging, s);
  });
  CHECK(err.empty(), "capture: %s", err.c_str());
  std::vector<void *> addresses;
  for (int k = 0; k < Buffers::kCount; ++k)
    addresses.push_back(gpu.at(k).data);
  // Every batch's state in device memory before the first replay: the
  // replays allocate nothing.
  std::vector<std::unique_ptr<AsyncInputs>> inputs;
  for (const ref::AsyncBatch &a : batches)
    inputs.push_back(std::make_unique<AsyncInputs>(a));
  size_t freeBefore = 0, total = 0;
  CUDA_OK(cudaMemGetInfo(&freeBefore, &total));
  int replays = 0;
  for (size_t x = 0; x < batches.size(); ++x) {
    CpuAnswer want = runCpu(*inputs[x]);
    CHECK(want.st.ok, "replay batch: %s", want.st.message.c_str());
    st = gen::decode_async_device_stage(staging, inputs[x]->config(),
                                        inputs[x]->device, gpu.buffers(),
                                        stream);
    CHECK(st.ok, "replay %d: stage: %s", replays, st.message.c_str());
    CUDA_OK(graph.replay(stream));
    st = gen::decode_async_check(staging, stream);
    CHECK(st.ok, "replay %d: %s", replays, st.message.c_str());
    std::string what = "replay " + std::to_string(replays);
    if (!gputest::compareLive(resolved(batches[x]), info(), want.set, gpu,
                              what.c_str(), /*hostShape=*/false))
      return false;
    for (int k = 0; k < Buffers::kCount; ++k)
      CHECK(gpu.at(k).data == addresses[k], "%s: buffer moved", what.c_str());
    ++replays;
  }
  size_t freeAfter = 0;
  CUDA_OK(cudaMemGetInfo(&freeAfter, &total));
  CHECK(freeAfter == freeBefore, "device memory changed: %zu -> %zu",
        freeBefore, freeAfter);
  std::printf("graph: one launch captured at %lld sequences (%u CTAs of %u "
              "threads), %d replays (half padded with slot -1 placeholders) "
              "equal the CPU, no buffer moved, free memory unchanged\n",
              (long long)maxSeqs, staging.blocks, staging.threads, replays);
  gen::gpu_staging_destroy(staging);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  const int count = argc > 1 ? std::atoi(argv[1]) : 400;
  return gputest::runOnStream([&](cudaStream_t stream) {
    // kMaxSeqs: a CTA a sequence; kWideSeqs: fewer CTAs than sequences
    // in a wave, 512 threads each.
    bool ok = randomAndBroken(count, kMaxSeqs, stream);
    ok = randomAndBroken(std::max(count / 4, 40), kWideSeqs, stream) && ok;
    ok = graphReplay(kMaxSeqs, stream) && ok;
    return graphReplay(kWideSeqs, stream) && ok;
  });
}
