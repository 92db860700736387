//===- CpuBench.cpp - generated CPU routines vs. hand-written ones --------===//
//
// Google Benchmark, one binary: the generated prompt routine against the
// hand-written prompt routine (baseline c) at total_q = 32768 (8 x 4096
// and 64 x 512 chunks, histories from 0 to 64K), and the generated decode
// routine against the eager decode's loops (baseline a) at N = 64, 256,
// 1024 (seqlen_q 2), and against the same loops behind SPEC.md's decode
// rules checked by hand (a + checks: what (a) needs to keep the contract
// the generated routine keeps). Config: block 128, dense {1}, sparse {4},
// window 128, ring 160, max_model_len 131072, 1024 blocks. Before timing,
// each baseline is checked against the SPEC.md reference on its batch, and
// the hand checks must refuse what the generated routine refuses.
//
//===----------------------------------------------------------------------===//

#include "Baselines.h"
#include "DecodeChecks.h"
#include "GeneratedInputs.h"
#include "ReferenceV4.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>

namespace gen = imeta_gen::deepinfer_v4;
using namespace imeta;

namespace {

ref::Config benchConfig() {
  return {/*blockSize=*/128, /*windowSize=*/128, /*swaBlockSize=*/160,
          /*maxModelLen=*/131072, /*maxNumBlocks=*/1024, {1}, {4},
          /*forceLoadBalance=*/false};
}

ref::Batch promptBatch(int64_t chunks, int64_t chunk) {
  std::mt19937_64 rng(chunks);
  ref::Batch b;
  b.config = benchConfig();
  for (int64_t i = 0; i < chunks; ++i) {
    ref::Sequence s;
    s.seqlenQ = chunk;
    s.seqlenK = chunk + std::uniform_int_distribution<int64_t>(0, 65536)(rng);
    s.stateId = i;
    for (int64_t k = 0; k < ref::numBlocks(b.config, s.seqlenK); ++k)
      s.blockTable.push_back(int64_t(rng() % 100000));
    s.tokenIds.resize(s.seqlenK);
    for (size_t k = 0; k < s.tokenIds.size(); ++k)
      s.tokenIds[k] = int64_t(k % 50000);
    b.sequences.push_back(std::move(s));
  }
  return b;
}

ref::Batch decodeBatch(int64_t n) {
  std::mt19937_64 rng(n);
  ref::Batch b;
  b.config = benchConfig();
  for (int64_t i = 0; i < n; ++i) {
    ref::Sequence s;
    s.seqlenQ = 2;
    s.seqlenK = std::uniform_int_distribution<int64_t>(2, 131072)(rng);
    s.stateId = i;
    for (int64_t k = 0; k < ref::numBlocks(b.config, s.seqlenK); ++k)
      s.blockTable.push_back(int64_t(rng() % 100000));
    s.tokenIds.assign(s.seqlenK - 1, 7);
    s.draftTokens = {8};
    b.sequences.push_back(std::move(s));
  }
  return b;
}

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "baseline check failed: %s\n", what);
    std::exit(1);
  }
}

void BM_PromptGenerated(benchmark::State &state) {
  ref::Batch batch = promptBatch(state.range(0), state.range(1));
  ref::GeneratedInputs in(batch);
  gen::PromptBuffers out;
  check(gen::prompt_shape(in.config, in.seqs, out).ok, "prompt shape");
  auto storage = ref::allocateHost(out, gen::kPromptOutputs, 0);
  for (auto _ : state) {
    gen::Status st = gen::prompt(in.config, in.seqs, out);
    benchmark::DoNotOptimize(st.ok);
  }
}

void BM_PromptBaseline(benchmark::State &state) {
  ref::Batch batch = promptBatch(state.range(0), state.range(1));
  baseline::Outputs out;
  baseline::promptRoutine(batch, out);
  ref::Fields want = ref::prompt(batch);
  const ref::Field &pivots = want["kv_swa_full_index_pivots"];
  check(std::equal(pivots.data.begin(), pivots.data.end(),
                   out.fields[8].begin()),
        "prompt pivots");
  const ref::Field &slots = want["slot_mapping_store_ca.4"];
  check(std::equal(slots.data.begin(), slots.data.end(),
                   out.fields[18 + 2].begin()),
        "prompt slot_mapping_store_ca.4");
  for (auto _ : state) {
    baseline::promptRoutine(batch, out);
    benchmark::DoNotOptimize(out.fields.data());
  }
}

void BM_DecodeGenerated(benchmark::State &state) {
  ref::Batch batch = decodeBatch(state.range(0));
  ref::GeneratedInputs in(batch);
  gen::DecodeBuffers out;
  check(gen::decode_shape(in.config, in.seqs, out).ok, "decode shape");
  auto storage = ref::allocateHost(out, gen::kDecodeOutputs, 0);
  for (auto _ : state) {
    gen::Status st = gen::decode(in.config, in.seqs, out);
    benchmark::DoNotOptimize(st.ok);
  }
}

/// The generated decode's checks and host stage alone (no fill): where a
/// step's fixed cost goes.
void BM_DecodeGeneratedShape(benchmark::State &state) {
  ref::Batch batch = decodeBatch(state.range(0));
  ref::GeneratedInputs in(batch);
  gen::DecodeBuffers out;
  for (auto _ : state) {
    gen::Status st = gen::decode_shape(in.config, in.seqs, out);
    benchmark::DoNotOptimize(st.ok);
  }
}

void BM_DecodeBaseline(benchmark::State &state) {
  ref::Batch batch = decodeBatch(state.range(0));
  baseline::Outputs out;
  baseline::decodeEager(batch, out);
  ref::Fields want = ref::decode(batch, /*zos=*/false);
  const ref::Field &swa = want["kv_swa_index_offset_len"];
  check(std::equal(swa.data.begin(), swa.data.end(), out.fields[10].begin()),
        "decode kv_swa_index_offset_len");
  const ref::Field &slots = want["slot_mapping_store_ca.4"];
  check(std::equal(slots.data.begin(), slots.data.end(),
                   out.fields[11 + 4 + 1].begin()),
        "decode slot_mapping_store_ca.4");
  for (auto _ : state) {
    baseline::decodeEager(batch, out);
    benchmark::DoNotOptimize(out.fields.data());
  }
}

/// (a) behind the hand checks. First, the checks must pass the bench's batch
/// and refuse, as the generated routine does, copies broken one rule at a
/// time.
void BM_DecodeBaselineChecked(benchmark::State &state) {
  ref::Batch batch = decodeBatch(state.range(0));
  check(baseline::decodeChecks(batch).empty(), "hand checks pass the batch");
  auto refused = [](const ref::Batch &bad) {
    ref::GeneratedInputs in(bad);
    gen::DecodeBuffers out;
    gen::Status st = gen::decode_shape(in.config, in.seqs, out);
    if (st.ok) {
      auto storage = ref::allocateHost(out, gen::kDecodeOutputs, 0);
      st = gen::decode(in.config, in.seqs, out);
    }
    return !baseline::decodeChecks(bad).empty() && !st.ok;
  };
  std::vector<std::function<void(ref::Batch &)>> breaks = {
      [](ref::Batch &b) { b.sequences.back().blockTable.back() = -1; },
      [](ref::Batch &b) { b.sequences[0].seqlenQ = 0; },
      [](ref::Batch &b) { b.sequences[1].tokenIds.push_back(7); },
      [](ref::Batch &b) { b.sequences[0].draftTokens.clear(); },
      [](ref::Batch &b) { b.sequences.back().stateId = -1; },
      [](ref::Batch &b) { b.sequences.back().stateId = 1 << 30; },
      [](ref::Batch &b) { b.config.maxNumBlocks = 1; },
      [](ref::Batch &b) { b.config.swaBlockSize = 128; },
      [](ref::Batch &b) { b.config.sparseRatios = {3}; },
      [](ref::Batch &b) { b.config.maxNumBlocks = 1 << 24; },
      [](ref::Batch &b) {
        for (int64_t &id : b.sequences[0].blockTable)
          id = int64_t(1) << 30;
      },
  };
  for (auto &brk : breaks) {
    ref::Batch bad = batch;
    brk(bad);
    check(refused(bad), "hand checks and the generated routine refuse a "
                        "broken batch alike");
  }
  baseline::Outputs out;
  for (auto _ : state) {
    std::string err = baseline::decodeChecks(batch);
    if (err.empty())
      baseline::decodeEager(batch, out);
    benchmark::DoNotOptimize(out.fields.data());
  }
}

} // namespace

BENCHMARK(BM_PromptGenerated)->Args({8, 4096})->Args({64, 512})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PromptBaseline)->Args({8, 4096})->Args({64, 512})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DecodeGenerated)->Arg(64)->Arg(256)->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DecodeGeneratedShape)->Arg(64)->Arg(256)->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DecodeBaseline)->Arg(64)->Arg(256)->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DecodeBaselineChecked)->Arg(64)->Arg(256)->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
