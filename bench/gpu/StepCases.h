//===- StepCases.h - the decode-step benches' config, stream and cases -*- C++ -*-===//
//
// What bench/gpu/StepBench.cu (the whole step) and PackBench.cu (its host
// work alone) measure alike: the config (block 128, dense {1}, sparse {4},
// window 128, ring 160, max_model_len 131072, 1024 blocks a row), the
// scheduler stream of each case (1% finish a step, a pool of 2^20 blocks,
// twice as many table rows as sequences, no reference tables in the
// batch), and the cases (N = 64, 256, 1024 at q = 1, 2 with 128K
// histories; N = 1024 with 4K).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_BENCH_GPU_STEPCASES_H
#define IMETA_BENCH_GPU_STEPCASES_H

#include "StepStream.h"

#include <vector>

namespace imeta::bench {

inline ref::Config stepConfig() {
  return ref::Config{/*blockSize=*/128, /*windowSize=*/128,
                     /*swaBlockSize=*/160, /*maxModelLen=*/131072,
                     /*maxNumBlocks=*/1024, {1}, {4}, false};
}

/// The stream of N sequences of q tokens a step, histories up to `hist`.
inline ref::StepStreamOptions stepStream(int64_t n, int64_t q, int64_t hist) {
  ref::StepStreamOptions opt;
  opt.numSeqs = n;
  opt.q = q;
  opt.maxHistory = hist;
  opt.finishChance = 0.01;
  opt.poolBlocks = 1 << 20;
  opt.rows = int32_t(2 * n);
  opt.seed = uint64_t(n * 10 + q);
  opt.tables = false; // the engine's step has none: no copies in the caches
  return opt;
}

struct StepCase {
  int64_t n, q, hist;
};
inline std::vector<StepCase> stepCases() {
  std::vector<StepCase> cases;
  for (int64_t n : {64, 256, 1024})
    for (int64_t q : {1, 2})
      cases.push_back({n, q, 131072});
  cases.push_back({1024, 1, 4096});
  cases.push_back({1024, 2, 4096});
  return cases;
}

} // namespace imeta::bench

#endif // IMETA_BENCH_GPU_STEPCASES_H
