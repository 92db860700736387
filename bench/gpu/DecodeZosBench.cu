//===- DecodeZosBench.cu - decode_zos step time on the GPU ----------------===//
//
// Times the generated decode_zos path (expansions included) per step with
// the issue-4 config: block 128, dense {1}, sparse {4}, window 128, ring
// 160, max_model_len 131072, 1024 blocks; N = 64, 256, 1024 sequences;
// seqlen_q 1 and 2; seqlen_k uniform in [q, 131072]. In one run it reports
// the median of: the host stage (checks, sizes, one host-to-device copy),
// graph replay + sync of the path's launch, the same for an empty kernel
// (the launch floor), the kernel alone (20 launches in one graph, divided),
// and the bytes the step writes over the measured device-to-device copy
// bandwidth (the bandwidth floor).
//
//===----------------------------------------------------------------------===//

#include "GeneratedInputs.h"
#include "RandomBatch.h"
#include "ReferenceV4.h"
#include "deepinfer_v4_cuda.h"
#include "runtime/BufferSet.h"
#include "runtime/GraphLaunch.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

namespace gen = imeta_gen::deepinfer_v4;
using namespace imeta;
using Buffers = gen::DecodeZosBuffers;

#define CUDA_OK(call)                                                          \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call,       \
                   cudaGetErrorString(e_));                                    \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

namespace {

__global__ void emptyKernel() {}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double nowUs() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

ref::Batch benchBatch(int64_t numSeqs, int64_t q, std::mt19937_64 &rng) {
  ref::Batch b;
  b.config = {/*blockSize=*/128, /*windowSize=*/128, /*swaBlockSize=*/160,
              /*maxModelLen=*/131072, /*maxNumBlocks=*/1024, {1}, {4},
              /*forceLoadBalance=*/false};
  auto draw = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int64_t i = 0; i < numSeqs; ++i) {
    ref::Sequence s;
    s.seqlenQ = q;
    s.seqlenK = draw(q, b.config.maxModelLen);
    s.stateId = i;
    int64_t nb = ref::numBlocks(b.config, s.seqlenK);
    for (int64_t k = 0; k < nb; ++k)
      s.blockTable.push_back(draw(0, 1 << 20));
    s.tokenIds.resize(s.seqlenK - q + 1);
    for (size_t k = 0; k < s.tokenIds.size(); ++k)
      s.tokenIds[k] = int64_t(k % 50000);
    for (int64_t k = 0; k < q - 1; ++k)
      s.draftTokens.push_back(draw(0, 150000));
    b.sequences.push_back(std::move(s));
  }
  return b;
}

/// Median microseconds of `replay(); sync` over `reps` runs.
template <typename F> double timeSynced(F &&replay, cudaStream_t stream,
                                        int reps) {
  std::vector<double> us;
  for (int k = 0; k < reps + 10; ++k) {
    double t0 = nowUs();
    replay();
    CUDA_OK(cudaStreamSynchronize(stream));
    if (k >= 10)
      us.push_back(nowUs() - t0);
  }
  return median(us);
}

/// Device-to-device copy bandwidth (bytes read + written per second).
double copyBandwidth(cudaStream_t stream) {
  size_t bytes = size_t(1) << 30;
  void *a, *b;
  CUDA_OK(cudaMalloc(&a, bytes));
  CUDA_OK(cudaMalloc(&b, bytes));
  CUDA_OK(cudaMemset(a, 1, bytes));
  cudaEvent_t e0, e1;
  CUDA_OK(cudaEventCreate(&e0));
  CUDA_OK(cudaEventCreate(&e1));
  std::vector<double> ms;
  for (int k = 0; k < 13; ++k) {
    CUDA_OK(cudaEventRecord(e0, stream));
    CUDA_OK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream));
    CUDA_OK(cudaEventRecord(e1, stream));
    CUDA_OK(cudaEventSynchronize(e1));
    float t;
    CUDA_OK(cudaEventElapsedTime(&t, e0, e1));
    if (k >= 3)
      ms.push_back(t);
  }
  CUDA_OK(cudaFree(a));
  CUDA_OK(cudaFree(b));
  return 2.0 * bytes / (median(ms) * 1e-3);
}

} // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreate(&stream));
  double bw = copyBandwidth(stream);
  std::printf("device-to-device copy bandwidth: %.0f GB/s (read + write)\n",
              bw / 1e9);

  runtime::GraphLaunch empty;
  std::string err = empty.capture(stream, [](cudaStream_t s) {
    emptyKernel<<<1, 1, 0, s>>>();
    return cudaGetLastError();
  });
  if (!err.empty())
    return std::fprintf(stderr, "%s\n", err.c_str()), 1;
  double floorUs = timeSynced([&] { CUDA_OK(empty.replay(stream)); }, stream,
                              500);

  std::printf("%6s %3s %10s %10s %10s %10s %10s %10s %10s\n", "N", "q",
              "stage_us", "replay_us", "floor_us", "kernel_us", "MiB",
              "bwfloor_us", "kernel_GB/s");
  std::mt19937_64 rng(4);
  for (int64_t n : {64, 256, 1024})
    for (int64_t q : {1, 2}) {
      ref::Batch batch = benchBatch(n, q, rng);
      ref::GeneratedInputs in(batch);
      Buffers shape;
      gen::Status st = gen::decode_zos_shape(in.config, in.seqs, shape);
      if (!st.ok)
        return std::fprintf(stderr, "shape: %s\n", st.message.c_str()), 1;
      runtime::BufferSet<Buffers, gen::OutputInfo> bufs(
          gen::kDecodeZosOutputs);
      double bytes = 0;
      for (int k = 0; k < Buffers::kCount; ++k) {
        gen::Buffer &s = shape.begin()[k];
        int64_t rows = 1;
        for (int b = 0; b < s.buckets; ++b) {
          rows = std::max(rows, s.rows[b]);
          bool isTable = std::string(gen::kDecodeZosOutputs[k].name) ==
                         "block_tables";
          int elem = gen::kDecodeZosOutputs[k].is_bool ? 1 : 4;
          if (!isTable)
            bytes += double(s.rows[b]) * s.cols[b] * elem;
        }
        std::string e = bufs.getOrCreate(gen::kDecodeZosOutputs[k].name, rows,
                                         s.width, s.buckets,
                                         runtime::Memory::Device);
        if (!e.empty())
          return std::fprintf(stderr, "%s\n", e.c_str()), 1;
      }
      // block_tables: only the live columns are written.
      for (const ref::Sequence &s : batch.sequences)
        bytes += double(s.seqlenQ) * ref::numBlocks(batch.config, s.seqlenK) * 4;

      gen::GpuStaging staging;
      st = gen::gpu_staging_create(staging, n, size_t(64) << 20);
      if (!st.ok)
        return std::fprintf(stderr, "%s\n", st.message.c_str()), 1;
      std::vector<double> stageUs;
      for (int k = 0; k < 30; ++k) {
        double t0 = nowUs();
        st = gen::decode_zos_stage(staging, in.config, in.seqs,
                                   bufs.buffers(), stream);
        CUDA_OK(cudaStreamSynchronize(stream));
        stageUs.push_back(nowUs() - t0);
        if (!st.ok)
          return std::fprintf(stderr, "stage: %s\n", st.message.c_str()), 1;
      }
      runtime::GraphLaunch one, many;
      err = one.capture(stream, [&](cudaStream_t s) {
        return gen::decode_zos_launch(staging, s);
      });
      err += many.capture(stream, [&](cudaStream_t s) {
        cudaError_t e = cudaSuccess;
        for (int k = 0; k < 20 && e == cudaSuccess; ++k)
          e = gen::decode_zos_launch(staging, s);
        return e;
      });
      if (!err.empty())
        return std::fprintf(stderr, "%s\n", err.c_str()), 1;
      double replayUs =
          timeSynced([&] { CUDA_OK(one.replay(stream)); }, stream, 200);
      double manyUs =
          timeSynced([&] { CUDA_OK(many.replay(stream)); }, stream, 50);
      st = gen::decode_zos_check(staging, stream);
      if (!st.ok)
        return std::fprintf(stderr, "kernel: %s\n", st.message.c_str()), 1;
      double kernelUs = manyUs / 20;
      std::printf("%6lld %3lld %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f %10.0f\n",
                  (long long)n, (long long)q, median(stageUs), replayUs,
                  floorUs, kernelUs, bytes / (1 << 20), bytes / bw * 1e6,
                  bytes / (kernelUs * 1e-6) / 1e9);
      gen::gpu_staging_destroy(staging);
    }
  return 0;
}
