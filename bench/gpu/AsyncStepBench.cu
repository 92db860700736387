//===- AsyncStepBench.cu - decode on device request state: imeta, (b''), (a) ===//
//
// Issue 32's benchmark (point 6): the decode step under asynchronous
// scheduling, where the request state lives on the device (SPEC-async.md):
// per slot num_computed, last_token, num_drafts, nextn drafts, state_id and
// a resident block-table row of max_num_blocks (baseline/AsyncState.h).
// A stream of steps (AsyncStream.h): each step's batch is the live slots
// padded to the captured N with placeholders at slot -1; after it a device
// kernel plays the sampler (new last token, 0..nextn drafts, num_computed
// + 1 + accepted, a block appended when the next k may cross one); ~1% of
// the requests finish a step and new ones join free slots with histories
// up to `hist`, their state sent as join records in the step's copies.
// Config: StepBench's (block 128, dense {1}, sparse {4}, window 128, ring
// 160, max_model_len 131072, 1024 blocks a row) plus nextn. Each step, in
// turn and from the same state (a join is written by each, idempotently),
// host clock around the whole step including the final sync; medians over
// 500 steps after 20:
//   floor        replay of an empty kernel's graph + sync;
//   (b'')        the hand-written vLLM-style step (baseline/AsyncDecode):
//                the host writes N slots, N flags and the joins' records
//                into pinned staging; one graph (the copy, one fused kernel
//                whose CTAs sum the q before them and write decode_async's
//                fields from the state by slot; no rule checks); sync;
//   (b'') host   of it, the host's work before the replay is issued;
//   chk copy     docs/device-step.md's plan, by hand: (b'') whose CTAs
//                each also check every sequence's rules and write nothing
//                when one fails (AsyncShape::kCopyChecked);
//   chk mapped   the same, its slots read from mapped pinned memory: the
//                graph one kernel node (AsyncShape::kMappedChecked);
//   chk full     chk copy that also checks what imeta's step checks of the
//                rows: every block id a row copies >= 0 and its slots in
//                int32, each CTA its own sequences' rows, one grid-wide
//                verdict before any write (AsyncShape::kCopyFullChecked);
//   imeta        the generated decode_async's device step on the state
//                where it lives (imeta-inline-resolves; AsyncInputs.h's
//                AsyncDeviceInputs: the block table read as the engine's
//                table): decode_async_device_pack (N slots and flags
//                into double-buffered pinned staging) and the joins'
//                records after it, one graph replay (the copy, the
//                engine's scatter of the joins, the kernel that gathers
//                the state at each slot, checks every rule and fills,
//                StepGraph.h), sync;
//   imeta host   of it, the host's work before the replay is issued;
//   imeta alone  the same step without the joins (applied by the step
//                before): decode_async_device_pack, a graph of the copy
//                and the kernel, sync; what the torch binding's step wraps
//                (bench/torch/async_step.py);
//   imeta pack   of it, decode_async_device_pack alone (the staging's
//                slot and the batch's arrays ready): the generated host
//                part of a step;
//   (b'') cold, chk full cold: those two again with the device's L2
//                flushed before each (untimed: a write of twice its size),
//                after every warm column;
//   alone cold   imeta alone again, the L2 flushed the same way (imeta
//                alone runs right after imeta on the same state and
//                outputs); after the two above, so that the next step's
//                imeta finds its code in the L2 as before;
//   (a)          what an engine without device-side metadata pays: the
//                joins' copy + scatter, the state to the host, sync, the
//                eager loops (the generated CPU decode_async) into pinned
//                buffers, every field's live rows copied to the device,
//                sync.
// Also printed: (b'')'s host-to-device bytes and the joins per step
// (medians). Untimed, every 50 steps and at the last: the state copied
// back, the generated CPU decode_async run on it, and every live output
// byte of each GPU step compared with it (block_tables: each row's
// num_blocks columns); a difference ends the bench (exit 1) naming the
// field. imeta's kernel status and the checked shapes' verdicts are
// read after every step; after the last, each checked shape is given a
// slot past the state and must name it and leave every output byte.
// Environment: IMETA_BENCH_N=<N> runs that batch size only (a profiler's
// run); IMETA_BENCH_NO_CHECK skips the comparison with the CPU routine
// (only for a measurement build whose kernel is cut short,
// cut_async_step.py).
//
// Run (on a GPU machine; exits 77 without one), from generated sources in
// gen/ (imeta-gen specs/deepinfer_v4.mlir -o gen):
//   cmake -S . -B build/dev -G Ninja -DIMETA_GPU_ONLY=ON
//         -DIMETA_GENERATED_DIR=$PWD/gen -DCMAKE_BUILD_TYPE=Release
//   (one command)
//   cmake --build build/dev --target imeta-bench-async-step
//   build/dev/bench/gpu/imeta-bench-async-step [STEPS]   (default 500)
// (In the full build: build/bench/gpu/imeta-bench-async-step.)
//
//===----------------------------------------------------------------------===//

#include "AsyncCheck.h"
#include "AsyncDecode.h"
#include "AsyncInputs.h"
#include "AsyncStream.h"
#include "BenchSupport.h"
#include "GeneratedInputs.h"
#include "StepCases.h"
#include "deepinfer_v4_cuda.h"
#include "runtime/BufferSet.h"
#include "runtime/GraphLaunch.h"
#include "runtime/StepGraph.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

namespace gen = imeta_gen::deepinfer_v4;
using namespace imeta;
using bench::die;
using bench::median;
using bench::nowUs;

namespace {

using bench::AsyncSet;

const gen::OutputInfo *info() { return bench::asyncInfo(); }
size_t elemOf(int k) { return bench::asyncElem(k); }

void allocate(AsyncSet &set, const bench::AsyncConfig &cfg, int32_t n,
              runtime::Memory memory) {
  if (std::string e = bench::allocateAsync(set, cfg, n, memory); !e.empty())
    die(e);
}

/// (b'')'s output views onto `set` (decode_zos's order, then seqlens_q).
void bindViews(baseline::AsyncDecode &bpp, AsyncSet &set) {
  baseline::FusedDecodeArgs &a = bpp.views();
  baseline::View *views[] = {
      &a.cu_seqlens_q, &a.positions,     &a.input_ids,       &a.gate,
      &a.valid,        &a.query_indices, &a.context_lens,    &a.state_block_idx,
      &a.block_tables, &a.slot_swa,      &a.positions_c,     &a.slot_ca,
      &a.klen,         &a.swa_off_len,   &a.ca_off_len,      &bpp.seqlensQ()};
  static_assert(sizeof(views) / sizeof(views[0]) ==
                gen::DecodeAsyncBuffers::kCount);
  for (int k = 0; k < gen::DecodeAsyncBuffers::kCount; ++k)
    *views[k] = {set.at(k).data, set.at(k).bucket_stride, set.at(k).width};
}

/// The GPU steps' outputs, by name.
using Runs = bench::AsyncRuns;

/// Every byte of `set`'s buffers, on the host.
std::vector<std::vector<char>> snapshot(AsyncSet &set) {
  std::vector<std::vector<char>> all;
  for (int k = 0; k < gen::DecodeAsyncBuffers::kCount; ++k) {
    const gen::Buffer &b = set.at(k);
    all.emplace_back(size_t(b.bucket_stride) * b.max_buckets * elemOf(k));
    CUDA_OK(cudaMemcpy(all.back().data(), b.data, all.back().size(),
                       cudaMemcpyDeviceToHost));
  }
  return all;
}

/// One step of a checked shape on `slots` (no joins), expected to refuse
/// with `want` ("sequence <i>: <rule>") and to write no output byte;
/// `what` names the case in the failure.
void expectRefusal(const std::string &what, baseline::AsyncDecode &shape,
                   AsyncSet &set, const int32_t *slots, const bool *ph,
                   const std::string &want, cudaStream_t stream) {
  const auto before = snapshot(set);
  std::string e = shape.pack(slots, ph, {});
  if (e.empty())
    e = shape.launch(stream);
  if (!e.empty())
    die(e);
  const std::string got = shape.verdict(stream);
  if (got != want)
    die(what + ": '" + got + "', expected '" + want + "'");
  if (snapshot(set) != before)
    die(what + ": a refused step wrote an output");
}

std::string refusalText(int32_t seq, baseline::AsyncRule rule) {
  return "sequence " + std::to_string(seq) + ": " +
         baseline::asyncRuleText(rule);
}

/// A checked shape given a slot past the state at its last live sequence:
/// it names that sequence and rule and writes no byte.
void checkRefusal(const char *name, baseline::AsyncDecode &shape,
                  AsyncSet &set, bench::AsyncStream &st, int32_t n,
                  cudaStream_t stream) {
  std::vector<int32_t> slots(st.slots(), st.slots() + n);
  int32_t bad = n - 1;
  while (bad > 0 && slots[size_t(bad)] < 0)
    --bad;
  slots[size_t(bad)] = st.host().slots;
  expectRefusal(std::string(name) + ": a slot past the state", shape, set,
                slots.data(), st.placeholders(),
                refusalText(bad, baseline::kAsyncSlotRange), stream);
}

/// A negative block id in the first live sequence's state row: the full
/// check must name that sequence and write nothing (the id restored).
void checkBadBlock(baseline::AsyncDecode &shape, AsyncSet &set,
                   bench::AsyncStream &st, int32_t n, cudaStream_t stream) {
  const int32_t *slots = st.slots();
  int32_t seq = 0;
  while (seq < n && slots[seq] < 0)
    ++seq;
  if (seq == n)
    return;
  int32_t *at =
      st.device().block_table + int64_t(slots[seq]) * st.device().max_blocks;
  int32_t old = 0;
  const int32_t bad = -1;
  CUDA_OK(cudaMemcpy(&old, at, 4, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(at, &bad, 4, cudaMemcpyHostToDevice));
  expectRefusal("chk full: a negative block id", shape, set, slots,
                st.placeholders(), refusalText(seq, baseline::kAsyncBlockId),
                stream);
  CUDA_OK(cudaMemcpy(at, &old, 4, cudaMemcpyHostToDevice));
}

void check(int step, const ref::Config &rc, const bench::AsyncConfig &cfg,
           bench::AsyncStream &st, bench::AsyncInputs &in, int32_t n,
           const Runs &runs, cudaStream_t stream) {
  // Measurement-only (bench/gpu/cut_async_step.py): a kernel cut short
  // writes no output, so there is nothing to compare.
  if (std::getenv("IMETA_BENCH_NO_CHECK"))
    return;
  if (std::string e = bench::compareWithCpu(rc, cfg, st, in, n, runs, stream);
      !e.empty())
    die("step " + std::to_string(step) + ": " + e);
}

struct Row {
  double floor, bpp, bppHost, chk, map, full, imeta, imetaHost, alone, pack,
      cold, bppCold, fullCold, eager, bppBytes, joins;
};

/// The medians of a case's steps.
Row run(int32_t n, int32_t nextn, int64_t hist, int steps, cudaStream_t stream,
        runtime::GraphLaunch &empty, void *flush, size_t flushBytes) {
  ref::Config rc = bench::stepConfig();
  rc.nextn = nextn;
  const bench::AsyncConfig cfg(rc);
  const int32_t maxJoins = std::max(8, n / 16);
  bench::AsyncStream st(rc, n, hist, maxJoins,
                        uint64_t(n) * 10 + nextn + (hist < 65536 ? 5 : 0));
  if (std::string e = st.start(stream); !e.empty())
    die(e);
  bench::AsyncInputs in(st.host());
  AsyncSet bppSet(info()), chkSet(info()), mapSet(info()), fullSet(info()),
      imetaSet(info()), eagerDev(info()), eagerHost(info());
  allocate(bppSet, cfg, n, runtime::Memory::Device);
  allocate(chkSet, cfg, n, runtime::Memory::Device);
  allocate(mapSet, cfg, n, runtime::Memory::Device);
  allocate(fullSet, cfg, n, runtime::Memory::Device);
  allocate(imetaSet, cfg, n, runtime::Memory::Device);
  allocate(eagerDev, cfg, n, runtime::Memory::Device);
  allocate(eagerHost, cfg, n, runtime::Memory::PinnedHost);

  baseline::AsyncDecode bpp(rc, st.device(), n, maxJoins);
  bindViews(bpp, bppSet);
  if (std::string e = bpp.create(stream); !e.empty())
    die(e);
  baseline::AsyncDecode chk(rc, st.device(), n, maxJoins,
                            baseline::AsyncShape::kCopyChecked),
      map(rc, st.device(), n, maxJoins, baseline::AsyncShape::kMappedChecked),
      full(rc, st.device(), n, maxJoins,
           baseline::AsyncShape::kCopyFullChecked);
  bindViews(chk, chkSet);
  bindViews(map, mapSet);
  bindViews(full, fullSet);
  for (baseline::AsyncDecode *shape : {&chk, &map, &full})
    if (std::string e = shape->create(stream); !e.empty())
      die(e);
  const Runs runs = {{"(b'')", &bppSet},
                     {"chk copy", &chkSet},
                     {"chk mapped", &mapSet},
                     {"chk full", &fullSet},
                     {"imeta", &imetaSet}};

  // imeta: one pack before the capture, so that the graph launches at the
  // geometry the first pack picks (the same every step).
  bench::AsyncDeviceInputs din(st.device());
  gen::GpuStaging staging;
  gen::Status status = gen::gpu_staging_create(
      staging, n, (size_t(1) << 20) + size_t(n) * 64 + st.joinBlobBytes());
  if (!status.ok)
    die(status.message);
  status = gen::decode_async_device_pack(
      staging, cfg.config, din.build(n, st.slots(), st.placeholders()),
      imetaSet.buffers());
  if (!status.ok)
    die("first pack: " + status.message);
  // The joins travel in the step's copy, after the pack (at a fixed
  // offset past its extent, the proof box's leaves included), and the
  // engine's scatter kernel runs in the same graph before the step.
  const size_t joinsAt =
      (staging.used + 512 + 15) / 16 * 16;
  if (joinsAt + st.joinBlobBytes() > staging.bytes)
    die("imeta: the staging holds no room for the joins");
  auto *const joinsDevice = reinterpret_cast<const int32_t *>(
      static_cast<char *>(staging.device) + joinsAt);
  auto graph = std::make_unique<runtime::StepGraph>();
  if (std::string e = graph->create(
          staging.device, staging.bytes, stream,
          [&](cudaStream_t s) {
            if (cudaError_t e = st.scatterPacked(joinsDevice, s))
              return e;
            return gen::decode_async_device_launch(staging, s);
          });
      !e.empty())
    die(e);

  // imeta alone: the same step without the joins (the step above applied
  // them), its own staging and graph (the copy and the kernel): what the
  // torch binding's step wraps (bench/torch/async_step.py).
  gen::GpuStaging alone;
  status = gen::gpu_staging_create(alone, n, (size_t(1) << 20) + size_t(n) * 64);
  if (!status.ok)
    die(status.message);
  status = gen::decode_async_device_pack(
      alone, cfg.config, din.build(n, st.slots(), st.placeholders()),
      imetaSet.buffers());
  if (!status.ok)
    die("first pack (alone): " + status.message);
  auto aloneGraph = std::make_unique<runtime::StepGraph>();
  if (std::string e = aloneGraph->create(
          alone.device, alone.bytes, stream,
          [&](cudaStream_t s) {
            return gen::decode_async_device_launch(alone, s);
          });
      !e.empty())
    die(e);

  const int warm = 20, total = warm + steps;
  std::vector<Row> rows;
  auto timed = [&](auto &&work) {
    const double t0 = nowUs();
    work();
    CUDA_OK(cudaStreamSynchronize(stream));
    return nowUs() - t0;
  };
  for (int step = 0; step < total; ++step) {
    const int32_t *slots = st.slots();
    const bool *ph = st.placeholders();
    Row r{};
    r.floor = timed([&] { CUDA_OK(empty.replay(stream)); });
    r.bpp = timed([&] {
      const double t0 = nowUs();
      std::string e = bpp.pack(slots, ph, st.joins());
      r.bppHost = nowUs() - t0;
      if (e.empty())
        e = bpp.launch(stream);
      if (!e.empty())
        die(e);
    });
    auto checked = [&](baseline::AsyncDecode &shape) {
      return timed([&] {
        std::string e = shape.pack(slots, ph, st.joins());
        if (e.empty())
          e = shape.launch(stream);
        if (!e.empty())
          die(e);
      });
    };
    r.chk = checked(chk);
    r.map = checked(map);
    r.full = checked(full);
    for (baseline::AsyncDecode *shape : {&chk, &map, &full})
      if (std::string e = shape->verdict(stream); !e.empty())
        die("step " + std::to_string(step) + ": a checked shape refused: " +
            e);
    r.imeta = timed([&] {
      const double t0 = nowUs();
      staging.host = graph->next();
      if (!staging.host)
        die("imeta: staging wait failed");
      gen::Status s = gen::decode_async_device_pack(
          staging, cfg.config, din.build(n, slots, ph), imetaSet.buffers());
      if (!s.ok)
        die("step " + std::to_string(step) + ": imeta pack: " + s.message);
      if (staging.used > joinsAt)
        die("imeta: the pack reaches the joins");
      const size_t joinBytes = st.packJoins(reinterpret_cast<int32_t *>(
          static_cast<char *>(staging.host) + joinsAt));
      r.imetaHost = nowUs() - t0;
      if (std::string e = graph->replay(joinsAt + joinBytes, stream);
          !e.empty())
        die(e);
    });
    status = gen::decode_async_check(staging, stream);
    if (!status.ok)
      die("step " + std::to_string(step) + ": imeta kernel: " +
          status.message);
    // imeta alone: the pack (its time in `pack`, if given) and the replay.
    auto aloneStep = [&](const std::string &what, double *pack) {
      const double us = timed([&] {
        alone.host = aloneGraph->next();
        if (!alone.host)
          die(what + ": staging wait failed");
        const gen::Sequences &seqs = din.build(n, slots, ph);
        const double t0 = nowUs();
        gen::Status s = gen::decode_async_device_pack(alone, cfg.config, seqs,
                                                      imetaSet.buffers());
        if (pack)
          *pack = nowUs() - t0;
        if (!s.ok)
          die("step " + std::to_string(step) + ": " + what + ": " + s.message);
        if (std::string e = aloneGraph->replay(alone.used, stream); !e.empty())
          die(e);
      });
      gen::Status s = gen::decode_async_check(alone, stream);
      if (!s.ok)
        die("step " + std::to_string(step) + ": " + what +
            "'s kernel: " + s.message);
      return us;
    };
    r.alone = aloneStep("imeta alone", &r.pack);
    // The cold columns, after every warm one: the device's L2 written
    // over (untimed) before each, as an engine's forward pass leaves it.
    // alone cold last, so that the next step's imeta finds its code where
    // the columns before these left it.
    auto flushL2 = [&] {
      CUDA_OK(cudaMemsetAsync(flush, step & 0xff, flushBytes, stream));
      CUDA_OK(cudaStreamSynchronize(stream));
    };
    flushL2();
    r.bppCold = checked(bpp);
    flushL2();
    r.fullCold = checked(full);
    if (std::string e = full.verdict(stream); !e.empty())
      die("step " + std::to_string(step) + ": chk full cold refused: " + e);
    flushL2();
    r.cold = aloneStep("alone cold", nullptr);
    r.eager = timed([&] {
      CUDA_OK(st.applyJoins(stream));
      CUDA_OK(st.copyBack(stream));
      CUDA_OK(cudaStreamSynchronize(stream));
      gen::Status s = gen::decode_async(cfg.config, in.build(n, slots, ph),
                                        eagerHost.buffers());
      if (!s.ok)
        die("step " + std::to_string(step) + ": (a): " + s.message);
      for (int k = 0; k < gen::DecodeAsyncBuffers::kCount; ++k) {
        const gen::Buffer &h = eagerHost.at(k), &d = eagerDev.at(k);
        const size_t elem = elemOf(k);
        for (int32_t b = 0; b < h.buckets; ++b)
          CUDA_OK(cudaMemcpyAsync(
              static_cast<char *>(d.data) + b * d.bucket_stride * elem,
              static_cast<const char *>(h.data) + b * h.bucket_stride * elem,
              size_t(h.rows[b] * h.width) * elem, cudaMemcpyHostToDevice,
              stream));
      }
    });
    r.bppBytes = double(bpp.lastBytes());
    r.joins = double(st.joins().size());
    if (step % 50 == 0 || step == total - 1)
      check(step, rc, cfg, st, in, n, runs, stream);
    if (step >= warm)
      rows.push_back(r);
    if (step + 1 < total)
      if (std::string e = st.advance(stream); !e.empty())
        die(e);
  }
  checkRefusal("chk copy", chk, chkSet, st, n, stream);
  checkRefusal("chk mapped", map, mapSet, st, n, stream);
  checkRefusal("chk full", full, fullSet, st, n, stream);
  checkBadBlock(full, fullSet, st, n, stream);
  graph.reset();
  staging.host = staging.host_owned;
  gen::gpu_staging_destroy(staging);
  aloneGraph.reset();
  alone.host = alone.host_owned;
  gen::gpu_staging_destroy(alone);
  auto med = [&](double Row::*f) {
    std::vector<double> v;
    for (const Row &r : rows)
      v.push_back(r.*f);
    return median(v);
  };
  return {med(&Row::floor),    med(&Row::bpp),       med(&Row::bppHost),
          med(&Row::chk),      med(&Row::map),       med(&Row::full),
          med(&Row::imeta),    med(&Row::imetaHost), med(&Row::alone),
          med(&Row::pack),     med(&Row::cold),      med(&Row::bppCold),
          med(&Row::fullCold), med(&Row::eager),     med(&Row::bppBytes),
          med(&Row::joins)};
}

} // namespace

int main(int argc, char **argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 500;
  if (steps < 1)
    die("usage: imeta-bench-async-step [STEPS >= 1]");
  bench::exitUnlessDevice();
  cudaDeviceProp prop;
  CUDA_OK(cudaGetDeviceProperties(&prop, 0));
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreate(&stream));
  runtime::GraphLaunch empty;
  bench::captureEmpty(empty, stream);
  // Written before each cold column: twice the L2.
  const size_t flushBytes = size_t(2) * size_t(prop.l2CacheSize);
  void *flush = nullptr;
  CUDA_OK(cudaMalloc(&flush, flushBytes));
  std::printf("decode_async step on request state in device memory, %s: us "
              "per step, medians of %d steps after 20; every output byte of "
              "(b'') and imeta checked against the CPU routine every "
              "50 steps\n\n",
              prop.name, steps);
  std::printf(
      "| N | nextn | hist | floor | (b'') | (b'') host | chk copy | "
      "chk mapped | chk full | imeta | imeta host | imeta alone | imeta pack | "
      "alone cold | (b'') cold | chk full cold | (a) | (a)/imeta | imeta/(b'') "
      "| (b'') H2D B | "
      "joins |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
              "---|---|---|---|---|---|\n");
  // IMETA_BENCH_N=<N>: that batch size only (a profiler's run).
  const char *only = std::getenv("IMETA_BENCH_N");
  for (int32_t n : {64, 256, 1024})
    for (int32_t nextn : {0, 2})
      for (int64_t hist : {131072, 4096}) {
        if (only && std::atoi(only) != n)
          continue;
        const Row r =
            run(n, nextn, hist, steps, stream, empty, flush, flushBytes);
        std::printf(
            "| %d | %d | %lldK | %.1f | %.1f | %.2f | %.1f | %.1f | "
            "%.1f | %.1f | %.2f | %.1f | %.2f | %.1f | %.1f | %.1f | %.1f | "
            "%.1f | %.2f | %.0f | %.0f |\n",
            n, nextn, (long long)(hist / 1024), r.floor, r.bpp, r.bppHost,
            r.chk, r.map, r.full, r.imeta, r.imetaHost, r.alone, r.pack, r.cold,
            r.bppCold, r.fullCold, r.eager, r.eager / r.imeta, r.imeta / r.bpp,
            r.bppBytes, r.joins);
        std::fflush(stdout);
      }
  CUDA_OK(cudaFree(flush));
  CUDA_OK(cudaStreamDestroy(stream));
  return 0;
}
