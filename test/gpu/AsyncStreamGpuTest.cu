//===- AsyncStreamGpuTest.cu - decode_async over a stream of steps --------===//
//
// On a GPU: decode_async's device step (SPEC-async.md) driven as an engine
// under asynchronous scheduling drives it (bench/gpu/AsyncStream.h): the
// request state in device memory, one graph of the step captured at N
// sequences and replayed every step with the live slots padded to N at
// slot -1, a device kernel playing the sampler after each step (new last
// token, 0..nextn drafts, num_computed + 1 + accepted, a block appended
// when the next k may cross one), requests finishing and joining (their
// state written through join records before the step). For each of
// 500+ steps in each case, every output byte poisoned before it: the
// step's verdict is ok, and every live output byte equals the generated
// CPU decode_async run on the state copied back after the step (the CPU routine equals the evaluator on
// every batch CI draws: test/Eval); no buffer moves, no device memory is
// allocated after the first step.
// Without a GPU it prints why and exits 77 (ctest's "skipped").
//
//===----------------------------------------------------------------------===//

#include "AsyncCheck.h"
#include "AsyncInputs.h"
#include "AsyncStream.h"
#include "GpuTestSupport.h"
#include "StepCases.h"
#include "deepinfer_v4_cuda.h"
#include "runtime/StepGraph.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace gen = imeta_gen::deepinfer_v4;
using namespace imeta;

struct StreamCase {
  int32_t n, nextn;
  int64_t hist;
};

/// `steps` steps of one stream, each checked; false on the first failure.
bool runStream(const StreamCase &sc, int steps, cudaStream_t stream) {
  ref::Config rc = bench::stepConfig();
  rc.nextn = sc.nextn;
  const bench::AsyncConfig cfg(rc);
  const int32_t maxJoins = std::max(8, sc.n / 16);
  bench::AsyncStream st(rc, sc.n, sc.hist, maxJoins,
                        uint64_t(sc.n) * 31 + uint64_t(sc.nextn));
  std::string e = st.start(stream);
  CHECK(e.empty(), "start: %s", e.c_str());
  bench::AsyncInputs in(st.host());
  bench::AsyncDeviceInputs din(st.device());
  bench::AsyncSet set(bench::asyncInfo());
  e = bench::allocateAsync(set, cfg, sc.n, runtime::Memory::Device);
  CHECK(e.empty(), "allocate: %s", e.c_str());
  gen::GpuStaging staging;
  gen::Status status = gen::gpu_staging_create(
      staging, sc.n, (size_t(1) << 20) + size_t(sc.n) * 64);
  CHECK(status.ok, "staging: %s", status.message.c_str());
  status = gen::decode_async_device_pack(
      staging, cfg.config, din.build(sc.n, st.slots(), st.placeholders()),
      set.buffers());
  CHECK(status.ok, "first pack: %s", status.message.c_str());
  auto graph = std::make_unique<runtime::StepGraph>();
  e = graph->create(staging.device, staging.bytes, stream,
                    [&](cudaStream_t s) {
                      return gen::decode_async_device_launch(staging, s);
                    });
  CHECK(e.empty(), "graph: %s", e.c_str());
  std::vector<void *> addresses;
  for (int k = 0; k < gen::DecodeAsyncBuffers::kCount; ++k)
    addresses.push_back(set.at(k).data);
  size_t freeBefore = 0, total = 0;
  int joins = 0, padded = 0;
  for (int step = 0; step < steps; ++step) {
    // Free memory once every kernel of the loop has run (the sampler's
    // too): a kernel's first launch may load its code (lazy loading, in
    // 2 MiB pieces), which is no reallocation.
    if (step == 1)
      CUDA_OK(cudaMemGetInfo(&freeBefore, &total));
    joins += int(st.joins().size());
    padded += st.live() < sc.n ? 1 : 0;
    // Every output byte poisoned before the step (0x5a and 0xa5 in turn):
    // a live byte the step failed to write cannot pass for last step's.
    for (int k = 0; k < gen::DecodeAsyncBuffers::kCount; ++k) {
      const gen::Buffer &b = set.at(k);
      CUDA_OK(cudaMemsetAsync(b.data, step % 2 ? 0xa5 : 0x5a,
                              size_t(b.bucket_stride) * b.max_buckets *
                                  bench::asyncElem(k),
                              stream));
    }
    CUDA_OK(st.applyJoins(stream));
    staging.host = graph->next();
    CHECK(staging.host, "step %d: staging wait failed", step);
    status = gen::decode_async_device_pack(
        staging, cfg.config, din.build(sc.n, st.slots(), st.placeholders()),
        set.buffers());
    CHECK(status.ok, "step %d: pack: %s", step, status.message.c_str());
    e = graph->replay(staging.used, stream);
    CHECK(e.empty(), "step %d: %s", step, e.c_str());
    status = gen::decode_async_check(staging, stream);
    CHECK(status.ok, "step %d: refused: %s", step, status.message.c_str());
    e = bench::compareWithCpu(rc, cfg, st, in, sc.n, {{"imeta", &set}},
                              stream);
    CHECK(e.empty(), "step %d: %s", step, e.c_str());
    for (int k = 0; k < gen::DecodeAsyncBuffers::kCount; ++k)
      CHECK(set.at(k).data == addresses[size_t(k)], "step %d: buffer moved",
            step);
    e = st.advance(stream);
    CHECK(e.empty(), "step %d: sampler: %s", step, e.c_str());
  }
  size_t freeAfter = 0;
  CUDA_OK(cudaMemGetInfo(&freeAfter, &total));
  CHECK(freeAfter == freeBefore, "device memory changed: %zu -> %zu",
        freeBefore, freeAfter);
  // A stream that never joined or padded tested less than it says.
  CHECK(joins > 0 && padded > 0, "N = %d: %d joins, %d padded steps", sc.n,
        joins, padded);
  std::printf("N = %d, nextn = %d, histories up to %lld: %d steps equal the "
              "CPU on the state copied back (%d joins, %d steps padded with "
              "slot -1), no buffer moved, free memory unchanged\n",
              sc.n, sc.nextn, (long long)sc.hist, steps, joins, padded);
  graph.reset();
  gen::gpu_staging_destroy(staging);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 520;
  return gputest::runOnStream([&](cudaStream_t stream) {
    bool ok = true;
    for (const StreamCase &sc : {StreamCase{64, 2, 4096},
                                 StreamCase{256, 0, 131072},
                                 StreamCase{1024, 2, 16384}})
      ok = runStream(sc, steps, stream) && ok;
    return ok;
  });
}
