//===- StepStream.h - a scheduler's decode steps, for tests and benches -*- C++ -*-===//
//
// A stream of decode steps as an engine's scheduler makes them: every live
// sequence gains q tokens a step and a block when it crosses into one; a
// few finish each step and new ones join with long histories. Each step
// changes a ResidentTable by deltas (assign on join, append, free on
// finish) and gives the step's batch twice: with block tables rebuilt from
// scratch (packed, for the reference and the packed API) and as rows of
// the table. LLVM-free, for the CPU and GPU tests and the GPU bench.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_TEST_UNIT_STEPSTREAM_H
#define IMETA_TEST_UNIT_STEPSTREAM_H

#include "ReferenceV4.h"
#include "deepinfer_v4.h"
#include "runtime/ResidentTable.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace imeta::ref {

using Table = runtime::ResidentTable<imeta_gen::deepinfer_v4::ListTable>;

struct StepStreamOptions {
  int64_t numSeqs = 16, q = 1;
  /// A joining sequence's history: seqlen_k uniform in [q, maxHistory].
  int64_t maxHistory = 4096;
  /// Per step, the chance that a sequence finishes (and one joins).
  double finishChance = 0.02;
  /// The KV pool's blocks: ids are drawn from [0, poolBlocks).
  int32_t poolBlocks = 1 << 20;
  /// The table's rows (request slots), >= numSeqs.
  int32_t rows = 0;
  uint64_t seed = 1;
  /// Each step's batch carries its block tables (what the reference and
  /// the packed API read). Off: the tables stay empty until fillTables (a
  /// bench of the resident step, whose engine holds no per-step tables,
  /// keeps the copies out of its caches).
  bool tables = true;
};

/// The tests' small config, in which tables grow over many steps: block
/// 16, dense {1, 4}, sparse {4}, window 8, ring 12, max_model_len 2048,
/// 128 blocks a row.
Config smallStreamConfig();

class StepStream {
public:
  StepStream(const Config &config, const StepStreamOptions &options);

  /// Advances one step: changes `table` by the step's deltas, then gives
  /// the batch (`batch.sequences[i].blockTable` rebuilt from the stream's
  /// own record) and each sequence's row. `appended` counts the ids the
  /// deltas wrote. An error is a refused delta (a bug in the stream).
  std::string next(Table &table, Batch &batch, std::vector<int32_t> &rows,
                   int64_t &appended);

  /// What the last step changed in the table: per row, the ids written
  /// from column `at` (a join's whole table, or an append).
  struct Delta {
    int32_t row, at;
    std::vector<int32_t> ids;
  };
  const std::vector<Delta> &deltas() const { return changed; }

  /// Gives `batch` (this step's) its block tables.
  void fillTables(Batch &batch) const;

  /// The first step's table (every sequence joins): call once, first.
  std::string start(Table &table, Batch &batch, std::vector<int32_t> &rows,
                    int64_t &appended);

private:
  struct Live {
    int64_t k;
    int32_t row;
    std::vector<int64_t> blocks;
  };
  std::string join(Table &table, Live &s, int64_t &appended);
  void fillBatch(Batch &batch, std::vector<int32_t> &rows);

  Config config;
  StepStreamOptions opt;
  std::mt19937_64 rng;
  std::vector<Live> live;
  std::vector<int32_t> freeRows;
  std::vector<Delta> changed;
};

} // namespace imeta::ref

#endif // IMETA_TEST_UNIT_STEPSTREAM_H
