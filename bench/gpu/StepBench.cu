//===- StepBench.cu - the whole decode step, resident tables, vs (a), (b') ===//
//
// Issue 16's benchmark: what an engine pays per decode step, from the
// scheduler's values in host memory to every decode_zos field on the
// device, timed per step (host work + copy + kernel + sync) on a stream of
// steps (test/unit/StepStream: every sequence gains q tokens a step and a
// block when it crosses one; 1% finish per step and new ones join with
// histories up to `hist` tokens). Config: block 128, dense {1}, sparse
// {4}, window 128, ring 160, max_model_len 131072, 1024 blocks a row.
// Each step, in turn (so that the host's and the device's state of the
// moment reaches all alike), medians over 200 steps after 20:
//   floor  replay of an empty kernel's graph + sync;
//   zos    decode_zos_pack (checks, host stage, proof; the table's changed
//          rows) into double-buffered pinned staging, one graph replay
//          (copy + kernel, runtime/StepGraph.h), sync;
//   dev    the device step (docs/device-step.md): decode_zos_device_pack
//          (input checks, the engine's arrays; no per-sequence arithmetic)
//          into its own pinned staging, one graph replay (copy + the kernel
//          whose CTAs run the host stage), sync;
//   (b')   the hand-written vLLM-style step (bench/baseline/ResidentDecode):
//          pack scalars and appended ids, one copy, one fused kernel, sync;
//   (a)    the hand-written eager CPU loops, then every field copied to
//          the device (pinned), sync.
// The deltas (appends, joins) reach imeta's ResidentTable and (b')'s own
// record between steps, untimed. The step's batch carries no block tables
// (an engine has none per step; rebuilding 4 MiB of them each step for
// the reference only flushed the caches both steps read from): they are
// filled, untimed, before (a) and for the final comparison. Also printed: host-to-device bytes per
// step (medians), and after the run that zos and (b') wrote the same
// bytes.
//
//===----------------------------------------------------------------------===//

#include "Baselines.h"
#include "BenchSupport.h"
#include "GeneratedInputs.h"
#include "ResidentDecode.h"
#include "StepCases.h"
#include "StepStream.h"
#include "deepinfer_v4_cuda.h"
#include "runtime/BufferSet.h"
#include "runtime/DeviceResidentTable.h"
#include "runtime/GraphLaunch.h"
#include "runtime/StepGraph.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace gen = imeta_gen::deepinfer_v4;
using namespace imeta;
using bench::die;
using bench::median;
using bench::nowUs;

namespace {

using ZosSet = runtime::BufferSet<gen::DecodeZosBuffers, gen::OutputInfo>;

/// Device buffers for decode_zos at the widest shape of N sequences of q.
void allocate(ZosSet &set, int64_t n, int64_t q) {
  ref::Batch widest;
  widest.config = bench::stepConfig();
  for (int64_t i = 0; i < n; ++i) {
    ref::Sequence s;
    s.seqlenQ = q;
    s.seqlenK = widest.config.maxModelLen;
    s.stateId = 0;
    s.blockTable.assign(size_t(ref::numBlocks(widest.config, s.seqlenK)), 0);
    s.tokenIds = {0};
    s.draftTokens.assign(size_t(q - 1), 0);
    widest.sequences.push_back(s);
  }
  ref::GeneratedInputs in(widest);
  gen::DecodeZosBuffers shape;
  gen::Status st = gen::decode_zos_shape(in.config, in.seqs, shape);
  if (!st.ok)
    die("shape: " + st.message);
  for (int k = 0; k < gen::DecodeZosBuffers::kCount; ++k) {
    gen::Buffer &b = shape.begin()[k];
    int64_t rows = 1;
    for (int32_t r = 0; r < b.buckets; ++r)
      rows = std::max(rows, b.rows[r]);
    std::string e = set.getOrCreate(gen::kDecodeZosOutputs[k].name, rows,
                                    b.width, b.buckets, runtime::Memory::Device);
    if (!e.empty())
      die(e);
    gen::Buffer &d = set.at(k);
    CUDA_OK(cudaMemset(d.data, 0x5a, size_t(d.bucket_stride) * d.max_buckets *
                                         (gen::kDecodeZosOutputs[k].is_bool ? 1 : 4)));
  }
}

/// (b')'s output views onto `set`.
void bindViews(baseline::FusedDecodeArgs &a, ZosSet &set) {
  baseline::View *views[] = {
      &a.cu_seqlens_q, &a.positions,     &a.input_ids,     &a.gate,
      &a.valid,        &a.query_indices, &a.context_lens,  &a.state_block_idx,
      &a.block_tables, &a.slot_swa,      &a.positions_c,   &a.slot_ca,
      &a.klen,         &a.swa_off_len,   &a.ca_off_len};
  static_assert(sizeof(views) / sizeof(views[0]) ==
                gen::DecodeZosBuffers::kCount);
  for (int k = 0; k < gen::DecodeZosBuffers::kCount; ++k)
    *views[k] = {set.at(k).data, set.at(k).bucket_stride, set.at(k).width};
}

/// Live bytes of output k under `shape` (the step's recorded shape).
std::vector<char> live(ZosSet &set, int k, const gen::Buffer &shape) {
  gen::Buffer &b = set.at(k);
  size_t elem = gen::kDecodeZosOutputs[k].is_bool ? 1 : 4;
  std::vector<char> all(size_t(b.bucket_stride) * b.max_buckets * elem);
  CUDA_OK(cudaMemcpy(all.data(), b.data, all.size(), cudaMemcpyDeviceToHost));
  return ref::liveBytes(all.data(), b, shape, elem);
}

struct Row {
  double floor, zos, bprime, eager, pack, zosBytes, bprimeBytes, appended,
      dev, devPack;
};

Row run(int64_t n, int64_t q, int64_t hist, cudaStream_t stream,
        runtime::GraphLaunch &empty) {
  const ref::StepStreamOptions opt = bench::stepStream(n, q, hist);
  ref::StepStream stream_(bench::stepConfig(), opt);
  runtime::DeviceResidentTable<gen::ListTable> table(
      "block_table", opt.rows, 1024, opt.poolBlocks);
  CUDA_OK(table.allocation());
  baseline::ResidentDecode bprime(bench::stepConfig(), opt.rows, 1024, n);
  CUDA_OK(bprime.status());
  ZosSet zosSet(gen::kDecodeZosOutputs), bSet(gen::kDecodeZosOutputs),
      devSet(gen::kDecodeZosOutputs);
  allocate(zosSet, n, q);
  allocate(bSet, n, q);
  allocate(devSet, n, q);
  bindViews(bprime.args(), bSet);

  gen::GpuStaging staging;
  gen::Status st = gen::gpu_staging_create(staging, n, size_t(16) << 20);
  if (!st.ok)
    die(st.message);
  runtime::StepGraph graph;
  std::string err = graph.create(staging.device, staging.bytes, stream,
                                 [&](cudaStream_t s) {
                                   return gen::decode_zos_launch(staging, s);
                                 });
  if (!err.empty())
    die(err);

  ref::Batch batch;
  std::vector<int32_t> rows;
  int64_t appended = 0;
  if (std::string e = stream_.start(table, batch, rows, appended); !e.empty())
    die(e);
  // The device step: its launch's shape is fixed by a first step, run in
  // full (the table's rows it sends are the device's only once it runs).
  gen::GpuStaging devStaging;
  st = gen::gpu_staging_create(devStaging, n, size_t(16) << 20);
  if (!st.ok)
    die(st.message);
  {
    ref::GeneratedInputs in(batch, /*blockTables=*/false);
    gen::Sequences seqs = ref::withTable(in.seqs, table.gpuView(), rows);
    st = gen::decode_zos_device_stage(devStaging, in.config, seqs,
                                      devSet.buffers(), stream);
    if (!st.ok)
      die("device step: " + st.message);
    CUDA_OK(gen::decode_zos_device_launch(devStaging, stream));
    st = gen::decode_zos_check(devStaging, stream);
    if (!st.ok)
      die("device step: " + st.message);
  }
  runtime::StepGraph devGraph;
  err = devGraph.create(devStaging.device, devStaging.bytes, stream,
                        [&](cudaStream_t s) {
                          return gen::decode_zos_device_launch(devStaging, s);
                        });
  if (!err.empty())
    die(err);
  baseline::Outputs eagerOut;
  std::vector<void *> eagerDevice;
  std::vector<Row> steps;
  for (int step = 0; step < 221; ++step) {
    if (step > 0)
      if (std::string e = stream_.next(table, batch, rows, appended);
          !e.empty())
        die(e);
    ref::GeneratedInputs in(batch, /*blockTables=*/false);
    gen::Sequences seqs = ref::withTable(in.seqs, table.gpuView(), rows);
    Row r{};
    double packUs = 0;
    auto zos = [&] {
      double t0 = nowUs();
      staging.host = graph.next();
      gen::Status s = gen::decode_zos_pack(staging, in.config, seqs,
                                           zosSet.buffers());
      packUs = nowUs() - t0;
      if (!s.ok || !s.proven)
        die("pack: " + s.message);
      if (std::string e = graph.replay(staging.used, stream); !e.empty())
        die(e);
    };
    double devPackUs = 0;
    auto dev = [&] {
      double t0 = nowUs();
      devStaging.host = devGraph.next();
      gen::Status s = gen::decode_zos_device_pack(devStaging, in.config, seqs,
                                                  devSet.buffers());
      devPackUs = nowUs() - t0;
      if (!s.ok)
        die("device pack: " + s.message);
      if (std::string e = devGraph.replay(devStaging.used, stream); !e.empty())
        die(e);
    };
    auto bp = [&] {
      CUDA_OK(bprime.step(batch, rows, stream_.deltas(), stream));
    };
    auto floor = [&] { CUDA_OK(empty.replay(stream)); };
    auto eager = [&] {
      baseline::decodeEager(batch, eagerOut); // its tables filled untimed
      if (eagerDevice.empty())
        for (std::vector<int32_t> &f : eagerOut.fields) {
          void *d = nullptr;
          CUDA_OK(cudaMalloc(&d, std::max<size_t>(4, f.size() * 4)));
          eagerDevice.push_back(d);
        }
      for (size_t k = 0; k < eagerOut.fields.size(); ++k)
        CUDA_OK(cudaMemcpyAsync(eagerDevice[k], eagerOut.fields[k].data(),
                                eagerOut.fields[k].size() * 4,
                                cudaMemcpyHostToDevice, stream));
    };
    auto timed = [&](auto &&work) {
      double t0 = nowUs();
      work();
      CUDA_OK(cudaStreamSynchronize(stream));
      return nowUs() - t0;
    };
    r.floor = timed(floor);
    r.zos = timed(zos);
    r.pack = packUs;
    st = gen::decode_zos_check(staging, stream);
    if (!st.ok)
      die("kernel: " + st.message);
    r.dev = timed(dev);
    r.devPack = devPackUs;
    st = gen::decode_zos_check(devStaging, stream);
    if (!st.ok)
      die("device step: " + st.message);
    r.bprime = timed(bp);
    if (step % 4 == 0) // (a) is slow: every 4th step
      stream_.fillTables(batch);
    r.eager = step % 4 == 0 ? timed(eager) : 0;
    r.zosBytes = double(staging.used);
    r.bprimeBytes = double(bprime.lastBytes());
    r.appended = double(appended);
    if (step >= 21)
      steps.push_back(r);
  }
  // zos and (b') wrote the same fields on the last step.
  {
    stream_.fillTables(batch);
    ref::GeneratedInputs in(batch);
    gen::DecodeZosBuffers shape;
    st = gen::decode_zos_shape(in.config, in.seqs, shape);
    if (!st.ok)
      die(st.message);
    for (int k = 0; k < gen::DecodeZosBuffers::kCount; ++k)
      if (live(zosSet, k, shape.begin()[k]) != live(bSet, k, shape.begin()[k]))
        die(std::string("(b') differs from decode_zos in '") +
            gen::kDecodeZosOutputs[k].name + "'");
      else if (live(zosSet, k, shape.begin()[k]) !=
               live(devSet, k, shape.begin()[k]))
        die(std::string("the device step differs from decode_zos in '") +
            gen::kDecodeZosOutputs[k].name + "'");
  }
  staging.host = staging.host_owned;
  gen::gpu_staging_destroy(staging);
  devStaging.host = devStaging.host_owned;
  gen::gpu_staging_destroy(devStaging);
  for (void *d : eagerDevice)
    cudaFree(d);
  auto med = [&](double Row::*f, bool skipZero = false) {
    std::vector<double> v;
    for (const Row &r : steps)
      if (!skipZero || r.*f > 0)
        v.push_back(r.*f);
    return median(v);
  };
  return Row{med(&Row::floor),     med(&Row::zos),
             med(&Row::bprime),    med(&Row::eager, true),
             med(&Row::pack),      med(&Row::zosBytes),
             med(&Row::bprimeBytes), med(&Row::appended),
             med(&Row::dev),       med(&Row::devPack)};
}

} // namespace

int main() {
  bench::exitUnlessDevice();
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreate(&stream));
  runtime::GraphLaunch empty;
  bench::captureEmpty(empty, stream);
  std::printf("decode step, us per step (medians of 200 steps; (a) of 50); "
              "H2D: bytes per step\n");
  std::printf("%5s %2s %7s %6s %6s %6s %6s %6s %6s %7s %7s %8s %7s %8s %8s "
              "%6s\n",
              "N", "q", "hist", "floor", "zos", "pack", "dev", "dpack",
              "(b')", "zos/b'", "dev/b'", "(a)", "a/zos", "H2D_zos", "H2D_b'",
              "ids");
  for (const bench::StepCase &c : bench::stepCases()) {
    Row r = run(c.n, c.q, c.hist, stream, empty);
    std::printf("%5lld %2lld %7lld %6.1f %6.1f %6.1f %6.1f %6.1f %6.1f %7.2f "
                "%7.2f %8.1f %7.1f %8.0f %8.0f %6.0f\n",
                (long long)c.n, (long long)c.q, (long long)c.hist, r.floor,
                r.zos, r.pack, r.dev, r.devPack, r.bprime, r.zos / r.bprime,
                r.dev / r.bprime, r.eager, r.eager / r.zos, r.zosBytes,
                r.bprimeBytes, r.appended);
  }
  return 0;
}
