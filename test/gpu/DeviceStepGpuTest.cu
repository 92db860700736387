//===- DeviceStepGpuTest.cu - the device step vs. the generated C++ -------===//
//
// On a GPU: decode_zos's device step (its host stage run by every CTA,
// docs/device-step.md) against the generated CPU routine:
// - random batches: every output equal in the live rows;
// - the same batches broken on purpose (a rule, the int32 range of a fill,
//   an input below its minimum, which the device checks, with a block id
//   below 0, which the host does, a buffer too small): the CPU routine's
//   exact message from decode_zos_check (or the host's refusal), and
//   every output byte as it was;
// - one graph of the launch captured at 1024 sequences, replayed with
//   the replay batches, equal to the CPU each time, no buffer
//   moved, no device memory allocated.
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
#include <random>
#include <string>
#include <vector>

namespace gen = imeta_gen::deepinfer_v4;
using namespace imeta;

using Buffers = gen::DecodeZosBuffers;
using BufferSet = runtime::BufferSet<Buffers, gen::OutputInfo>;

namespace {

const gen::OutputInfo *info() { return gen::kDecodeZosOutputs; }
int elemSize(int k) { return info()[k].is_bool ? 1 : 4; }
constexpr char kPattern = char(0x5a);

/// The CPU routine's answer: its outputs, or its message.
struct CpuAnswer {
  gen::Status st;
  Buffers set;
  std::vector<std::vector<char>> storage;
};

CpuAnswer runCpu(ref::GeneratedInputs &in) {
  CpuAnswer a;
  a.st = gen::decode_zos_shape(in.config, in.seqs, a.set);
  if (!a.st.ok)
    return a;
  a.storage = ref::allocateHost(a.set, info(), kPattern);
  a.st = gen::decode_zos(in.config, in.seqs, a.set);
  return a;
}

/// Device buffers of `rows` rows a bucket, as wide as `shape` says, every
/// byte the pattern.
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

/// Every byte of every buffer still the pattern.
bool untouched(BufferSet &gpu, const char *what) {
  for (int k = 0; k < Buffers::kCount; ++k) {
    gen::Buffer &b = gpu.at(k);
    std::vector<char> got(size_t(b.bucket_stride) * b.max_buckets *
                          elemSize(k));
    CUDA_OK(cudaMemcpy(got.data(), b.data, got.size(),
                       cudaMemcpyDeviceToHost));
    for (size_t x = 0; x < got.size(); ++x)
      CHECK(got[x] == kPattern, "%s: output %s written at byte %zu", what,
            info()[k].name, x);
  }
  return true;
}

/// The live rows of every output equal the CPU's (LiveCompare.h; the rows
/// are device values).
bool compareLive(const ref::Batch &batch, CpuAnswer &cpu, BufferSet &gpu,
                 const char *what) {
  return gputest::compareLive(batch, info(), cpu.set, gpu, what,
                              /*hostShape=*/false);
}

/// One step: stage, launch, check.
gen::Status step(gen::GpuStaging &s, ref::GeneratedInputs &in, BufferSet &gpu,
                 cudaStream_t stream) {
  gen::Status st =
      gen::decode_zos_device_stage(s, in.config, in.seqs, gpu.buffers(), stream);
  if (!st.ok)
    return st;
  if (cudaError_t e = gen::decode_zos_device_launch(s, stream))
    return gen::Status{false, std::string("launch: ") + cudaGetErrorString(e)};
  return gen::decode_zos_check(s, stream);
}

/// A batch broken on purpose, in one of seven ways (`how`), at a random
/// sequence: the device names what the CPU names, writes nothing.
ref::Batch broken(const ref::Batch &good, int how, std::mt19937_64 &rng) {
  ref::Batch b = good;
  ref::Sequence &s = b.sequences[rng() % b.sequences.size()];
  switch (how) {
  case 0: // R3: seqlen_q <= seqlen_k
    s.seqlenQ = s.seqlenK + 1;
    break;
  case 1: // R3: seqlen_k <= max_model_len
    s.seqlenK = b.config.maxModelLen + 1 + int64_t(rng() % 5);
    break;
  case 2: // R3: the block table shorter than num_blocks
    s.blockTable.clear();
    s.seqlenK = std::max<int64_t>(s.seqlenK, 1);
    break;
  case 3: // a fill's int32 overflow (slot mapping of a huge state id)
    s.stateId = INT32_MAX / 2;
    break;
  case 4: // inputs below their minimum (checked on the device): the
          // lowest sequence's, then the input declared first
    s.stateId = -1 - int64_t(rng() % 3);
    if (rng() % 2)
      b.sequences[rng() % b.sequences.size()].seqlenK = 0;
    break;
  case 5: // a block id below 0 (the host scans the lists it copies) with
          // an input below its minimum (the device's): the host names the
          // first of both
    s.blockTable.push_back(-1);
    b.sequences[rng() % b.sequences.size()].stateId = -2;
    break;
  default: // two rules at once: the lower sequence's first
    for (ref::Sequence &t : b.sequences)
      if (rng() % 2)
        t.seqlenQ = t.seqlenK + 1;
    b.sequences.back().seqlenQ = b.sequences.back().seqlenK + 1;
    break;
  }
  return b;
}

bool randomAndBroken(int count, cudaStream_t stream) {
  gen::GpuStaging staging;
  gen::Status st = gen::gpu_staging_create(staging, 64, size_t(64) << 20);
  CHECK(st.ok, "staging: %s", st.message.c_str());
  std::mt19937_64 rng(17);
  int equal = 0, refused = 0, hostRefused = 0;
  for (int seed = 0; equal < count; ++seed) {
    ref::Batch good = ref::randomBatch(ref::PathKind::Decode,
                                       ref::kGpuSeedBase + 5000 + seed);
    if (good.sequences.size() > 64)
      continue;
    ref::GeneratedInputs in(good);
    CpuAnswer cpu = runCpu(in);
    if (!cpu.st.ok)
      continue; // a batch the CPU refuses (too large a field): not this test
    {
      BufferSet gpu(info());
      if (!allocate(gpu, cpu.set, 4096))
        return false;
      st = step(staging, in, gpu, stream);
      CHECK(st.ok, "seed %d: device step: %s", seed, st.message.c_str());
      std::string what = "random batch " + std::to_string(seed);
      if (!compareLive(good, cpu, gpu, what.c_str()))
        return false;
      ++equal;
    }
    ref::Batch bad = broken(good, seed % 7, rng);
    ref::GeneratedInputs badIn(bad);
    CpuAnswer want = runCpu(badIn);
    if (want.st.ok)
      continue; // the change broke nothing (a sequence already long)
    BufferSet gpu(info());
    if (!allocate(gpu, cpu.set, 4096))
      return false;
    gen::Status got =
        gen::decode_zos_device_stage(staging, badIn.config, badIn.seqs,
                                     gpu.buffers(), stream);
    if (!got.ok) {
      ++hostRefused; // an input check of the host's
    } else {
      CUDA_OK(gen::decode_zos_device_launch(staging, stream));
      got = gen::decode_zos_check(staging, stream);
      ++refused;
    }
    CHECK(!got.ok && got.message == want.st.message,
          "seed %d, broken %d: device '%s', CPU '%s'", seed, seed % 7,
          got.ok ? "accepts" : got.message.c_str(), want.st.message.c_str());
    std::string what = "broken batch " + std::to_string(seed);
    if (!untouched(gpu, what.c_str()))
      return false;
  }
  // Too small a buffer: refused by name, on the device.
  {
    ref::Batch good = ref::randomBatch(ref::PathKind::Decode, ref::kGpuSeedBase);
    ref::GeneratedInputs in(good);
    CpuAnswer cpu = runCpu(in);
    CHECK(cpu.st.ok, "capacity batch: %s", cpu.st.message.c_str());
    BufferSet gpu(info());
    if (!allocate(gpu, cpu.set, 1))
      return false;
    st = step(staging, in, gpu, stream);
    CHECK(!st.ok && st.message.find("rows, the buffer holds 1") !=
                        std::string::npos,
          "capacity: %s", st.ok ? "accepted" : st.message.c_str());
    if (!untouched(gpu, "too small a buffer"))
      return false;
    std::printf("capacity: '%s', nothing written\n", st.message.c_str());
  }
  gen::gpu_staging_destroy(staging);
  std::printf("device step: %d random batches equal the CPU; %d broken "
              "batches refused on the device and %d on the host, each in "
              "the CPU's words, every output byte as it was\n",
              equal, refused, hostRefused);
  CHECK(refused > count / 2, "the device refused too few batches");
  CHECK(hostRefused > 0, "no batch was refused on the host");
  return true;
}

/// One graph of the launch at 1024 sequences, replayed with smaller ones.
bool graphReplay(cudaStream_t stream) {
  const int64_t maxSeqs = 1024;
  std::vector<ref::Batch> batches = ref::graphReplayBatches();
  ref::GeneratedInputs first(batches.front());
  CpuAnswer cpu = runCpu(first);
  CHECK(cpu.st.ok, "first: %s", cpu.st.message.c_str());
  gen::GpuStaging staging;
  gen::Status st = gen::gpu_staging_create(staging, maxSeqs, size_t(64) << 20);
  CHECK(st.ok, "staging: %s", st.message.c_str());
  BufferSet gpu(info());
  if (!allocate(gpu, cpu.set, 4096))
    return false;
  st = gen::decode_zos_device_stage(staging, first.config, first.seqs,
                                    gpu.buffers(), stream);
  CHECK(st.ok, "stage: %s", st.message.c_str());
  runtime::GraphLaunch graph;
  std::string err = graph.capture(stream, [&](cudaStream_t s) {
    return gen::decode_zos_device_launch(staging, s);
  });
  CHECK(err.empty(), "capture: %s", err.c_str());
  std::vector<void *> addresses;
  for (int k = 0; k < Buffers::kCount; ++k)
    addresses.push_back(gpu.at(k).data);
  size_t freeBefore = 0, total = 0;
  CUDA_OK(cudaMemGetInfo(&freeBefore, &total));
  int replays = 0;
  for (const ref::Batch &batch : batches) {
    if (int64_t(batch.sequences.size()) > maxSeqs)
      continue;
    ref::GeneratedInputs in(batch);
    CpuAnswer want = runCpu(in);
    CHECK(want.st.ok, "replay batch: %s", want.st.message.c_str());
    st = gen::decode_zos_device_stage(staging, in.config, in.seqs,
                                      gpu.buffers(), stream);
    CHECK(st.ok, "replay %d: stage: %s", replays, st.message.c_str());
    CUDA_OK(graph.replay(stream));
    st = gen::decode_zos_check(staging, stream);
    CHECK(st.ok, "replay %d: %s", replays, st.message.c_str());
    std::string what = "replay " + std::to_string(replays);
    if (!compareLive(batch, want, gpu, what.c_str()))
      return false;
    for (int k = 0; k < Buffers::kCount; ++k)
      CHECK(gpu.at(k).data == addresses[k], "%s: buffer moved", what.c_str());
    ++replays;
  }
  size_t freeAfter = 0;
  CUDA_OK(cudaMemGetInfo(&freeAfter, &total));
  CHECK(freeAfter == freeBefore, "device memory changed: %zu -> %zu",
        freeBefore, freeAfter);
  CHECK(replays >= 10, "only %d replays", replays);
  std::printf("graph: one launch captured at %lld sequences, %d replays "
              "equal the CPU, no buffer moved, free memory unchanged\n",
              (long long)maxSeqs, replays);
  gen::gpu_staging_destroy(staging);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  const int count = argc > 1 ? std::atoi(argv[1]) : 60;
  return gputest::runOnStream([&](cudaStream_t stream) {
    const bool ok = randomAndBroken(count, stream);
    return graphReplay(stream) && ok;
  });
}
