//===- DecodeZosBench.cu - the decode step on the GPU vs. (a) and (b) -----===//
//
// Issue 4's GPU benchmark, config block 128, dense {1}, sparse {4}, window
// 128, ring 160, max_model_len 131072, 1024 blocks; N = 64, 256, 1024
// sequences; seqlen_q 1 and 2; seqlen_k uniform in [q, 131072]; fresh
// random inputs per (N, q). In one run, medians of (floor, chain, zos and
// (b) replayed in turn, 300 rounds, so that drift in the host's or the
// device's state reaches all four alike):
//   floor    graph replay + sync of an empty kernel (the launch floor);
//   chain    the same for the least a decode kernel does: per sequence
//            (one CTA each) read where its block table starts, read that
//            entry, store it: two dependent loads and a store;
//   zos      graph replay + sync of the generated decode_zos launch;
//   (b)      the same for the hand-written fused kernel (bench/baseline),
//            checked byte for byte against decode_zos's output;
//   (a)      the hand-written eager CPU loops plus the host-to-device
//            copies of every field (pinned), + sync;
//   kernel   20 launches in one graph, divided (zos and (b));
//   bwfloor  the bytes the step writes over the measured device-to-device
//            copy bandwidth;
// and the expansions: the decode_zos_expanded kernel (20 launches in one
// graph, divided), its bytes and achieved bandwidth against the copy
// bandwidth; beside it the same for a kernel that only stores as many
// bytes (16-byte streaming stores from every resident thread): what any
// kernel writing them can reach at that size.
//
//===----------------------------------------------------------------------===//

#include "Baselines.h"
#include "BenchSupport.h"
#include "FusedDecode.h"
#include "GeneratedInputs.h"
#include "RandomBatch.h"
#include "ReferenceV4.h"
#include "deepinfer_v4_cuda.h"
#include "runtime/BufferSet.h"
#include "runtime/GraphLaunch.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <vector>

namespace gen = imeta_gen::deepinfer_v4;
using namespace imeta;
using bench::median;
using bench::nowUs;

namespace {

__global__ void emptyKernel() {}

/// The dependent-load chain every decode kernel has, and nothing else.
__global__ void loadChainKernel(const int32_t *off, const int32_t *bt,
                                int32_t *out) {
  if (threadIdx.x == 0)
    out[blockIdx.x] = bt[off[blockIdx.x]];
}

/// The least an expansion kernel does: store its bytes, nothing else.
__global__ void storeOnlyKernel(int4 *out, size_t n16) {
  for (size_t k = blockIdx.x * size_t(blockDim.x) + threadIdx.x; k < n16;
       k += size_t(gridDim.x) * blockDim.x)
    __stcs(out + k, make_int4(-1, -1, -1, -1));
}

template <typename Buffers>
using Set = runtime::BufferSet<Buffers, gen::OutputInfo>;



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

/// Runs each of `work` in turn, each followed by a sync: 10 warm-up rounds,
/// then `reps`; each one's median µs. Timed in turn, they share the host's
/// and the device's state of the moment, so their ratios do not drift with
/// it.
std::vector<double> timeInTurn(const std::vector<std::function<void()>> &work,
                               cudaStream_t stream, int reps) {
  std::vector<std::vector<double>> us(work.size());
  for (int k = 0; k < reps + 10; ++k)
    for (size_t w = 0; w < work.size(); ++w) {
      double t0 = nowUs();
      work[w]();
      CUDA_OK(cudaStreamSynchronize(stream));
      if (k >= 10)
        us[w].push_back(nowUs() - t0);
    }
  std::vector<double> out;
  for (std::vector<double> &v : us)
    out.push_back(median(std::move(v)));
  return out;
}

/// One replay of `graph` on `stream`, as `timeInTurn` work.
std::function<void()> replay(runtime::GraphLaunch &graph, cudaStream_t stream) {
  return [&graph, stream] { CUDA_OK(graph.replay(stream)); };
}

/// A graph of `launches` calls of `launch(stream) -> cudaError_t`. One
/// launch: the step as an engine replays it; many: the kernel alone.
template <typename L>
std::unique_ptr<runtime::GraphLaunch> capture(L &&launch, int launches,
                                              cudaStream_t stream) {
  auto graph = std::make_unique<runtime::GraphLaunch>();
  std::string err = graph->capture(stream, [&](cudaStream_t s) {
    cudaError_t e = cudaSuccess;
    for (int k = 0; k < launches && e == cudaSuccess; ++k)
      e = launch(s);
    return e;
  });
  if (!err.empty())
    std::fprintf(stderr, "%s\n", err.c_str()), std::exit(1);
  return graph;
}

/// Median microseconds per launch of a graph of `launches` launches,
/// replayed (+ sync) `reps` times.
template <typename L>
double timeGraph(L &&launch, int launches, int reps, cudaStream_t stream) {
  auto graph = capture(launch, launches, stream);
  return timeInTurn({replay(*graph, stream)}, stream, reps)[0] / launches;
}

/// storeOnlyKernel over `bytes` (rounded up to 16): 20 launches of one
/// resident wave in a graph, divided; µs.
double storeOnlyUs(double bytes, cudaStream_t stream) {
  const size_t n16 = (size_t(bytes) + 15) / 16;
  int4 *out;
  CUDA_OK(cudaMalloc(&out, n16 * sizeof(int4)));
  int device = 0, sms = 0, perSm = 0;
  CUDA_OK(cudaGetDevice(&device));
  CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm,
                                                        storeOnlyKernel, 256, 0));
  double us = timeGraph(
      [&](cudaStream_t s) {
        storeOnlyKernel<<<unsigned(sms * perSm), 256, 0, s>>>(out, n16);
        return cudaGetLastError();
      },
      20, 30, stream);
  CUDA_OK(cudaFree(out));
  return us;
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


/// Allocates `set` (device) with the shapes of `shape`; returns the bytes
/// the path writes (block_tables: the live columns only).
template <typename Buffers>
double allocate(Set<Buffers> &set, Buffers &shape, const gen::OutputInfo *info,
                const ref::Batch &batch) {
  double bytes = 0;
  for (int k = 0; k < Buffers::kCount; ++k) {
    gen::Buffer &s = shape.begin()[k];
    int64_t rows = 1;
    bool isTable = std::string(info[k].name) == "block_tables";
    for (int b = 0; b < s.buckets; ++b) {
      rows = std::max(rows, s.rows[b]);
      if (!isTable)
        bytes += double(s.rows[b]) * s.cols[b] * (info[k].is_bool ? 1 : 4);
    }
    std::string e = set.getOrCreate(info[k].name, rows, s.width, s.buckets,
                                    runtime::Memory::Device);
    if (!e.empty())
      std::fprintf(stderr, "%s\n", e.c_str()), std::exit(1);
    gen::Buffer &b = set.at(k);
    CUDA_OK(cudaMemset(b.data, 0x5a, size_t(b.bucket_stride) * b.max_buckets *
                                         (info[k].is_bool ? 1 : 4)));
  }
  for (const ref::Sequence &s : batch.sequences)
    bytes += double(s.seqlenQ) * ref::numBlocks(batch.config, s.seqlenK) * 4;
  return bytes;
}

/// A generated GPU path on one batch: staged, captured once (the step,
/// which `timeStep` times) and 20 times (the kernel alone).
struct PathRun {
  double stageUs = 0, kernelUs = 0, bytes = 0;
};

template <typename Buffers, typename Shape, typename Stage, typename Launch,
          typename Check, typename TimeStep>
PathRun runPath(const ref::Batch &batch, Set<Buffers> &set,
                const gen::OutputInfo *info, Shape shape, Stage stage,
                Launch launch, Check check, cudaStream_t stream,
                TimeStep &&timeStep) {
  PathRun out;
  ref::GeneratedInputs in(batch);
  Buffers shapes;
  gen::Status st = shape(in.config, in.seqs, shapes);
  if (!st.ok)
    std::fprintf(stderr, "shape: %s\n", st.message.c_str()), std::exit(1);
  out.bytes = allocate(set, shapes, info, batch);
  gen::GpuStaging staging;
  st = gen::gpu_staging_create(staging, int64_t(batch.sequences.size()),
                               size_t(64) << 20);
  if (!st.ok)
    std::fprintf(stderr, "%s\n", st.message.c_str()), std::exit(1);
  std::vector<double> stageUs;
  for (int k = 0; k < 30; ++k) {
    double t0 = nowUs();
    st = stage(staging, in.config, in.seqs, set.buffers(), stream,
               gen::FillMode::kAuto);
    CUDA_OK(cudaStreamSynchronize(stream));
    stageUs.push_back(nowUs() - t0);
    if (!st.ok || !st.proven)
      std::fprintf(stderr, "stage: %s (proven %d)\n", st.message.c_str(),
                   st.proven),
          std::exit(1);
  }
  out.stageUs = median(stageUs);
  auto step = [&](cudaStream_t s) { return launch(staging, s); };
  timeStep(*capture(step, 1, stream));
  out.kernelUs = timeGraph(step, 20, 30, stream);
  st = check(staging, stream);
  if (!st.ok)
    std::fprintf(stderr, "kernel: %s\n", st.message.c_str()), std::exit(1);
  gen::gpu_staging_destroy(staging);
  return out;
}

/// (b)'s arguments, writing into a buffer set shaped like decode_zos's.
baseline::FusedDecodeArgs fusedArgs(baseline::FusedDecodeInputs &in,
                                    Set<gen::DecodeZosBuffers> &set) {
  baseline::FusedDecodeArgs a = in.args;
  baseline::View *views[] = {
      &a.cu_seqlens_q, &a.positions,     &a.input_ids,     &a.gate,
      &a.valid,        &a.query_indices, &a.context_lens,  &a.state_block_idx,
      &a.block_tables, &a.slot_swa,      &a.positions_c,   &a.slot_ca,
      &a.klen,         &a.swa_off_len,   &a.ca_off_len};
  static_assert(sizeof(views) / sizeof(views[0]) ==
                gen::DecodeZosBuffers::kCount);
  for (int k = 0; k < gen::DecodeZosBuffers::kCount; ++k)
    *views[k] = {set.at(k).data, set.at(k).bucket_stride, set.at(k).width};
  return a;
}

/// Exits unless (b) wrote into `got` exactly what decode_zos wrote into
/// `want`.
void sameBytes(Set<gen::DecodeZosBuffers> &want,
               Set<gen::DecodeZosBuffers> &got) {
  for (int k = 0; k < gen::DecodeZosBuffers::kCount; ++k) {
    gen::Buffer &a = want.at(k), &b = got.at(k);
    size_t bytes = size_t(a.bucket_stride) * a.max_buckets *
                   (gen::kDecodeZosOutputs[k].is_bool ? 1 : 4);
    std::vector<char> x(bytes), y(bytes);
    CUDA_OK(cudaMemcpy(x.data(), a.data, bytes, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(y.data(), b.data, bytes, cudaMemcpyDeviceToHost));
    if (x != y)
      std::fprintf(stderr, "(b) differs from decode_zos in '%s'\n",
                   gen::kDecodeZosOutputs[k].name),
          std::exit(1);
  }
}

/// (a): the eager loops, then every field to the device from pinned memory.
double eagerWithCopies(const ref::Batch &batch, cudaStream_t stream) {
  baseline::Outputs out;
  baseline::decodeEager(batch, out);
  std::vector<void *> device(out.fields.size());
  for (size_t k = 0; k < out.fields.size(); ++k) {
    size_t bytes = out.fields[k].size() * sizeof(int32_t);
    CUDA_OK(cudaMalloc(&device[k], std::max<size_t>(bytes, 4)));
    if (bytes)
      CUDA_OK(cudaHostRegister(out.fields[k].data(), bytes,
                               cudaHostRegisterDefault));
  }
  auto step = [&] {
    baseline::decodeEager(batch, out);
    for (size_t k = 0; k < out.fields.size(); ++k)
      CUDA_OK(cudaMemcpyAsync(device[k], out.fields[k].data(),
                              out.fields[k].size() * sizeof(int32_t),
                              cudaMemcpyHostToDevice, stream));
  };
  double us = timeInTurn({step}, stream, 30)[0];
  for (size_t k = 0; k < out.fields.size(); ++k) {
    if (!out.fields[k].empty())
      CUDA_OK(cudaHostUnregister(out.fields[k].data()));
    CUDA_OK(cudaFree(device[k]));
  }
  return us;
}

} // namespace

int main() {
  bench::exitUnlessDevice();
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreate(&stream));
  double bw = copyBandwidth(stream);
  std::printf("device-to-device copy bandwidth: %.0f GB/s (read + write)\n",
              bw / 1e9);
  auto empty = capture(
      [](cudaStream_t s) {
        emptyKernel<<<1, 1, 0, s>>>();
        return cudaGetLastError();
      },
      1, stream);

  std::printf("\nstep (us; replay = graph replay + sync):\n");
  std::printf("%5s %2s %6s %6s %7s %7s %6s %7s %7s %8s %7s %7s %7s %7s\n",
              "N", "q", "floor", "chain", "zos", "(b)", "zos/b", "zos_k",
              "(b)_k", "(a)+cp", "a/zos", "KiB", "bwfl", "target");
  std::vector<std::string> expansions;
  std::mt19937_64 rng(4);
  for (int64_t n : {64, 256, 1024})
    for (int64_t q : {1, 2}) {
      ref::Batch batch = benchBatch(n, q, rng);
      Set<gen::DecodeZosBuffers> zosSet(gen::kDecodeZosOutputs),
          fusedSet(gen::kDecodeZosOutputs);
      ref::GeneratedInputs in(batch);
      gen::DecodeZosBuffers shapes;
      gen::decode_zos_shape(in.config, in.seqs, shapes);
      allocate(fusedSet, shapes, gen::kDecodeZosOutputs, batch);
      baseline::FusedDecodeInputs fin;
      CUDA_OK(baseline::stageFusedDecode(batch, fin));
      baseline::FusedDecodeArgs args = fusedArgs(fin, fusedSet);
      int32_t *chainOut = nullptr;
      CUDA_OK(cudaMalloc(&chainOut, n * sizeof(int32_t)));
      auto chain = capture(
          [&](cudaStream_t s) {
            loadChainKernel<<<unsigned(n), 128, 0, s>>>(args.bt_off, args.bt,
                                                         chainOut);
            return cudaGetLastError();
          },
          1, stream);
      auto fusedLaunch = [&](cudaStream_t s) {
        return baseline::launchFusedDecode(args, s);
      };
      auto fused = capture(fusedLaunch, 1, stream);
      // The four steps in turn: floor, chain, decode_zos, (b).
      std::vector<double> stepUs;
      PathRun zos = runPath<gen::DecodeZosBuffers>(
          batch, zosSet, gen::kDecodeZosOutputs, gen::decode_zos_shape,
          gen::decode_zos_stage, gen::decode_zos_launch, gen::decode_zos_check,
          stream, [&](runtime::GraphLaunch &step) {
            stepUs = timeInTurn({replay(*empty, stream), replay(*chain, stream),
                                 replay(step, stream), replay(*fused, stream)},
                                stream, 300);
          });
      CUDA_OK(cudaFree(chainOut));
      sameBytes(zosSet, fusedSet);
      const double floorUs = stepUs[0], chainUs = stepUs[1],
                   zosUs = stepUs[2], fusedUs = stepUs[3];
      double fusedKernelUs = timeGraph(fusedLaunch, 20, 30, stream);
      double eagerUs = eagerWithCopies(batch, stream);
      double bwFloorUs = zos.bytes / bw * 1e6;
      std::printf("%5lld %2lld %6.1f %6.1f %7.1f %7.1f %6.2f %7.2f %7.2f "
                  "%8.1f %7.1f %7.0f %7.2f %7.1f\n",
                  (long long)n, (long long)q, floorUs, chainUs, zosUs,
                  fusedUs, zosUs / fusedUs, zos.kernelUs, fusedKernelUs,
                  eagerUs, eagerUs / zosUs, zos.bytes / 1024, bwFloorUs,
                  floorUs + 2 * bwFloorUs);

      Set<gen::DecodeZosExpandedBuffers> expSet(gen::kDecodeZosExpandedOutputs);
      double expReplayUs = 0;
      PathRun exp = runPath<gen::DecodeZosExpandedBuffers>(
          batch, expSet, gen::kDecodeZosExpandedOutputs,
          gen::decode_zos_expanded_shape, gen::decode_zos_expanded_stage,
          gen::decode_zos_expanded_launch, gen::decode_zos_expanded_check,
          stream, [&](runtime::GraphLaunch &step) {
            expReplayUs = timeInTurn({replay(step, stream)}, stream, 200)[0];
          });
      const double storeUs = storeOnlyUs(exp.bytes, stream);
      char line[256];
      std::snprintf(line, sizeof line,
                    "%5lld %2lld %9.1f %9.1f %9.1f %8.0f %6.0f%% %9.1f "
                    "%6.0f%%",
                    (long long)n, (long long)q, exp.bytes / (1 << 20),
                    exp.kernelUs, expReplayUs,
                    exp.bytes / (exp.kernelUs * 1e-6) / 1e9,
                    100 * exp.bytes / (exp.kernelUs * 1e-6) / bw, storeUs,
                    100 * exp.bytes / (storeUs * 1e-6) / bw);
      expansions.push_back(line);
    }
  std::printf("\ndecode_zos_expanded (us; GB/s and %% of copy bandwidth "
              "from kernel_us; store_k: a kernel that only stores as many "
              "bytes):\n");
  std::printf("%5s %2s %9s %9s %9s %8s %7s %9s %7s\n", "N", "q", "MiB",
              "kernel", "replay", "GB/s", "of_copy", "store_k", "of_copy");
  for (const std::string &l : expansions)
    std::printf("%s\n", l.c_str());
  return 0;
}
