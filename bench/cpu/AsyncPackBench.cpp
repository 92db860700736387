//===- AsyncPackBench.cpp - decode_async's per-step host work, on a CPU ---===//
//
// Google Benchmark: the host half of decode_async_device_pack, the device
// step's whole per-step host work besides copying its context into the
// staging (the .cu's part, which needs a GPU): decode_async_prepare in mode
// 2 (the config's and inputs' checks, the request state's pointers, the
// outputs' shapes and buckets) and the two arrays the step sends, the
// slots and placeholder flags, put into a staging buffer. Issue 32 asks
// for a step's host work <= 1 us at N = 1024; this follows its CPU part
// where no GPU is (CI runs it briefly), warm and with the caches written
// over before each pack (`Cold`: what the device's host pays between
// steps, where the warm figure is a tenth of it); and the generated CPU
// routine on the same kind of state (`BM_AsyncCpuRoutine`, the GPU bench's
// (a) column's host part). Config: block 128, dense {1},
// sparse {4}, window 128, ring 160, max_model_len 131072, 1024 blocks,
// nextn 2; 2N request slots, the step's N at random slots.
//
//===----------------------------------------------------------------------===//

#include "GeneratedInputs.h"
#include "deepinfer_v4.h"
#include "deepinfer_v4_impl.h"

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace gen = imeta_gen::deepinfer_v4;

namespace {

/// The request state of `slots` slots (the engine's arrays) and a step of
/// `n` sequences over it.
struct AsyncStep {
  std::vector<int32_t> dense{1}, sparse{4};
  gen::Config config;
  std::vector<int32_t> computed, last, drafted, draftTokens, stateId, table;
  std::vector<int64_t> draftOff, tableOff;
  std::vector<int32_t> slot;
  std::vector<char> placeholder;
  gen::Sequences seqs;

  /// Histories below `history` tokens, each slot's row as long as the
  /// longest needs (blocks of 128).
  explicit AsyncStep(int32_t n, int32_t history = 8000) {
    const int32_t nextn = 2, slots = 2 * n, rowLen = (history + 127) / 128;
    config.block_size = 128;
    config.window_size = 128;
    config.swa_block_size = 160;
    config.max_model_len = 131072;
    config.max_num_blocks = 1024;
    config.nextn = nextn;
    config.dense_ratios = dense.data();
    config.num_dense_ratios = int32_t(dense.size());
    config.sparse_ratios = sparse.data();
    config.num_sparse_ratios = int32_t(sparse.size());
    std::mt19937 rng{uint32_t(n)};
    for (int32_t s = 0; s < slots; ++s) {
      computed.push_back(int32_t(rng() % uint32_t(history - nextn - 1)));
      last.push_back(7);
      drafted.push_back(int32_t(rng() % (nextn + 1)));
      stateId.push_back(s);
    }
    draftTokens.assign(size_t(slots) * nextn, 3);
    table.assign(size_t(slots) * rowLen, 5);
    for (int32_t s = 0; s <= slots; ++s) {
      draftOff.push_back(int64_t(s) * nextn);
      tableOff.push_back(int64_t(s) * rowLen);
    }
    for (int32_t i = 0; i < n; ++i) {
      slot.push_back(int32_t(rng() % uint32_t(slots)));
      placeholder.push_back(0);
    }
    seqs.num_seqs = n;
    seqs.slot = slot.data();
    seqs.is_placeholder = reinterpret_cast<const bool *>(placeholder.data());
    seqs.slot_slots = slots;
    seqs.num_computed = computed.data();
    seqs.slot_last_token = last.data();
    seqs.num_drafts = drafted.data();
    seqs.slot_draft_tokens = draftTokens.data();
    seqs.slot_draft_tokens_offsets = draftOff.data();
    seqs.slot_state_id = stateId.data();
    seqs.slot_block_table = table.data();
    seqs.slot_block_table_offsets = tableOff.data();
  }
};

/// The pack of one step of `n` sequences, as the device step makes it.
struct AsyncPack {
  AsyncStep step;
  gen::DecodeAsyncBuffers out;
  std::vector<char> staging = std::vector<char>(size_t(1) << 20);
  gen::detail::decode_async_host host;

  explicit AsyncPack(int32_t n) : step(n) {
    for (gen::Buffer *b = out.begin(); b != out.begin() + out.kCount; ++b)
      b->max_buckets = gen::kMaxRatios;
    if (!run()) {
      std::fprintf(stderr, "decode_async pack refused the bench's step\n");
      std::exit(1);
    }
  }
  bool run() {
    const auto n = size_t(step.seqs.num_seqs);
    gen::detail::Packer pk{staging.data(), staging.data(), staging.size(), 0};
    gen::Status st = gen::detail::decode_async_prepare(
        step.config, step.seqs, out, true, host, gen::FillMode::kAuto, &pk,
        /*stage=*/2);
    pk.put(host.c.in_is_placeholder, n);
    pk.put(host.c.in_slot, n);
    return st.ok && !pk.overflow;
  }
};

void BM_AsyncDevicePackHost(benchmark::State &state) {
  AsyncPack pack(int32_t(state.range(0)));
  for (auto _ : state) {
    bool ok = pack.run();
    benchmark::DoNotOptimize(ok);
    benchmark::ClobberMemory();
  }
}

/// The same pack with the host's caches cold, as an engine's step finds
/// them after its other work (on the GPU bench's host, after the eager
/// column: 1-2 us there where the warm pack takes 0.15 here): twice the
/// last-level cache written over, untimed, before each pack.
void BM_AsyncDevicePackHostCold(benchmark::State &state) {
  AsyncPack pack(int32_t(state.range(0)));
#ifdef _SC_LEVEL3_CACHE_SIZE
  const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE); // glibc's; 0 if unknown
#else
  const long l3 = 0;
#endif
  std::vector<char> other(2 * size_t(std::max(l3, 32L << 20)));
  for (auto _ : state) {
    for (size_t k = 0; k < other.size(); k += 64)
      other[k] = char(other[k] + 1);
    benchmark::ClobberMemory();
    const auto t0 = std::chrono::steady_clock::now();
    bool ok = pack.run();
    const auto t1 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(ok);
    state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
  }
}

/// What the GPU bench's (a) column runs on the host: the generated CPU
/// routine on the state (N = 1024, nextn 2; histories up to range(0)
/// tokens), every field written, for a host whose (a) moved between two
/// builds (bench/RESULTS.md, 2026-12-07, latest).
void BM_AsyncCpuRoutine(benchmark::State &state) {
  const int32_t n = 1024;
  AsyncStep step(n, int32_t(state.range(0)));
  gen::DecodeAsyncBuffers out;
  gen::Status st = gen::decode_async_shape(step.config, step.seqs, out);
  auto storage = imeta::ref::allocateHost(out, gen::kDecodeAsyncOutputs, 0);
  if (st.ok)
    st = gen::decode_async(step.config, step.seqs, out);
  if (!st.ok) {
    std::fprintf(stderr, "decode_async refused the bench's step: %s\n",
                 st.message.c_str());
    std::exit(1);
  }
  for (auto _ : state) {
    gen::Status st = gen::decode_async(step.config, step.seqs, out);
    benchmark::DoNotOptimize(st.ok);
    benchmark::ClobberMemory();
  }
}

} // namespace

BENCHMARK(BM_AsyncCpuRoutine)->Arg(4096)->Arg(131072)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AsyncDevicePackHost)
    ->Arg(64)
    ->Arg(256)
    ->Arg(1024)
    ->Unit(benchmark::kMicrosecond);
// Few iterations: each writes over the caches first (tens of ms).
BENCHMARK(BM_AsyncDevicePackHostCold)
    ->Arg(64)
    ->Arg(1024)
    ->Iterations(100)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
