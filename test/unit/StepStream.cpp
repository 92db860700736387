//===- StepStream.cpp - a scheduler's decode steps -----------------------===//

#include "StepStream.h"

#include <algorithm>

namespace imeta::ref {

Config smallStreamConfig() {
  return Config{/*blockSize=*/16, /*windowSize=*/8, /*swaBlockSize=*/12,
                /*maxModelLen=*/2048, /*maxNumBlocks=*/128,
                {1, 4}, {4}, false};
}

StepStream::StepStream(const Config &config, const StepStreamOptions &options)
    : config(config), opt(options), rng(options.seed) {
  if (opt.rows < opt.numSeqs)
    opt.rows = int32_t(2 * opt.numSeqs);
  for (int32_t r = opt.rows - 1; r >= 0; --r)
    freeRows.push_back(r);
  std::shuffle(freeRows.begin(), freeRows.end(), rng);
}

std::string StepStream::join(Table &table, Live &s, int64_t &appended) {
  // A history that leaves room to grow for a while before max_model_len.
  int64_t hi = std::min(opt.maxHistory, config.maxModelLen - 64 * opt.q);
  s.k = std::uniform_int_distribution<int64_t>(opt.q, std::max(opt.q, hi))(rng);
  s.row = freeRows.back();
  freeRows.pop_back();
  s.blocks.clear();
  std::uniform_int_distribution<int32_t> id(0, opt.poolBlocks - 1);
  std::vector<int32_t> ids(size_t(numBlocks(config, s.k)));
  for (int32_t &b : ids)
    b = id(rng);
  s.blocks.assign(ids.begin(), ids.end());
  appended += int64_t(ids.size());
  changed.push_back({s.row, 0, ids});
  return table.assign(s.row, ids.data(), int32_t(ids.size()));
}

std::string StepStream::start(Table &table, Batch &batch,
                              std::vector<int32_t> &rows, int64_t &appended) {
  appended = 0;
  changed.clear();
  live.assign(size_t(opt.numSeqs), Live{});
  for (Live &s : live)
    if (std::string e = join(table, s, appended); !e.empty())
      return e;
  fillBatch(batch, rows);
  return "";
}

std::string StepStream::next(Table &table, Batch &batch,
                             std::vector<int32_t> &rows, int64_t &appended) {
  appended = 0;
  changed.clear();
  std::uniform_real_distribution<double> u(0, 1);
  std::uniform_int_distribution<int32_t> id(0, opt.poolBlocks - 1);
  for (Live &s : live) {
    if (u(rng) < opt.finishChance || s.k + opt.q > config.maxModelLen) {
      if (std::string e = table.free(s.row); !e.empty())
        return e;
      freeRows.insert(freeRows.begin(), s.row);
      if (std::string e = join(table, s, appended); !e.empty())
        return e;
      continue;
    }
    s.k += opt.q;
    std::vector<int32_t> ids;
    while (int64_t(s.blocks.size() + ids.size()) < numBlocks(config, s.k))
      ids.push_back(id(rng));
    if (!ids.empty())
      changed.push_back({s.row, int32_t(s.blocks.size()), ids});
    s.blocks.insert(s.blocks.end(), ids.begin(), ids.end());
    appended += int64_t(ids.size());
    if (std::string e = table.append(s.row, ids.data(), int32_t(ids.size()));
        !e.empty())
      return e;
  }
  fillBatch(batch, rows);
  return "";
}

void StepStream::fillBatch(Batch &batch, std::vector<int32_t> &rows) {
  batch.config = config;
  batch.sequences.resize(live.size());
  rows.resize(live.size());
  for (size_t i = 0; i < live.size(); ++i) {
    Sequence &q = batch.sequences[i];
    const Live &s = live[i];
    q.seqlenQ = opt.q;
    q.seqlenK = s.k;
    q.stateId = int64_t(s.row);
    q.isPlaceholder = false;
    q.swaValidStart = 0;
    if (opt.tables)
      q.blockTable = s.blocks;
    else
      q.blockTable.clear();
    // R5: the last confirmed token alone, as an engine holds it.
    q.tokenIds.assign(1, int64_t((s.k * 7919) % 50000));
    q.draftTokens.clear();
    for (int64_t j = 1; j < opt.q; ++j)
      q.draftTokens.push_back(int64_t((s.k + j) % 150000));
    rows[i] = s.row;
  }
}

void StepStream::fillTables(Batch &batch) const {
  for (size_t i = 0; i < live.size(); ++i)
    batch.sequences[i].blockTable = live[i].blocks;
}

} // namespace imeta::ref
