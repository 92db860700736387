//===- AsyncCheck.h - decode_async outputs on the device against the CPU -*- C++ -*-===//
//
// What the decode_async bench and the stream test share: output buffers
// sized for the widest step of a stream, and the check of a step's device
// outputs against the generated CPU decode_async run on the state copied
// back (every live byte; block_tables: each row's num_blocks columns).
// Errors are returned as text ("" when all is well).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_BENCH_GPU_ASYNCCHECK_H
#define IMETA_BENCH_GPU_ASYNCCHECK_H

#include "AsyncInputs.h"
#include "AsyncStream.h"
#include "GeneratedInputs.h"
#include "runtime/BufferSet.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace imeta::bench {

using AsyncSet = runtime::BufferSet<gen::DecodeAsyncBuffers, gen::OutputInfo>;

inline const gen::OutputInfo *asyncInfo() { return gen::kDecodeAsyncOutputs; }
inline size_t asyncElem(int k) { return asyncInfo()[k].is_bool ? 1 : 4; }

/// Buffers at the widest step of `n` sequences (every q = nextn + 1), in
/// `memory`, their bytes 0x5a.
inline std::string allocateAsync(AsyncSet &set, const AsyncConfig &cfg,
                                 int32_t n, runtime::Memory memory) {
  baseline::AsyncStateLayout layout(n, cfg.config.nextn,
                                    cfg.config.max_num_blocks);
  std::vector<int32_t> words(layout.words, 0);
  baseline::AsyncStateView st = layout.at(words.data());
  std::vector<int32_t> slots;
  std::unique_ptr<bool[]> placeholder(new bool[size_t(n)]());
  for (int32_t s = 0; s < n; ++s) {
    st.num_drafts[s] = cfg.config.nextn;
    st.block_len[s] = layout.maxBlocks;
    slots.push_back(s);
  }
  AsyncInputs in(st);
  gen::DecodeAsyncBuffers shape;
  gen::Status status = gen::decode_async_shape(
      cfg.config, in.build(n, slots.data(), placeholder.get()), shape);
  if (!status.ok)
    return "shape: " + status.message;
  for (int k = 0; k < gen::DecodeAsyncBuffers::kCount; ++k) {
    gen::Buffer &b = shape.begin()[k];
    int64_t rows = 1;
    for (int32_t r = 0; r < b.buckets; ++r)
      rows = std::max(rows, b.rows[r]);
    if (std::string e = set.getOrCreate(asyncInfo()[k].name, rows, b.width,
                                        b.buckets, memory);
        !e.empty())
      return e;
    gen::Buffer &d = set.at(k);
    const size_t bytes =
        size_t(d.bucket_stride) * d.max_buckets * asyncElem(k);
    if (memory != runtime::Memory::Device)
      std::memset(d.data, 0x5a, bytes);
    else if (cudaError_t e = cudaMemset(d.data, 0x5a, bytes))
      return std::string("memset: ") + cudaGetErrorString(e);
  }
  return "";
}

/// The device outputs of one step, by name.
using AsyncRuns = std::vector<std::pair<const char *, AsyncSet *>>;

/// The state copied back, the generated CPU decode_async run on it, and
/// every live byte of each run's buffers compared with its outputs.
inline std::string compareWithCpu(const ref::Config &rc,
                                  const AsyncConfig &cfg, AsyncStream &st,
                                  AsyncInputs &in, int32_t n,
                                  const AsyncRuns &runs, cudaStream_t stream) {
  if (cudaError_t e = st.copyBack(stream))
    return std::string("state copy: ") + cudaGetErrorString(e);
  if (cudaError_t e = cudaStreamSynchronize(stream))
    return std::string("sync: ") + cudaGetErrorString(e);
  const gen::Sequences &seqs = in.build(n, st.slots(), st.placeholders());
  gen::DecodeAsyncBuffers want;
  gen::Status status = gen::decode_async_shape(cfg.config, seqs, want);
  std::vector<std::vector<char>> storage;
  if (status.ok) {
    storage = ref::allocateHost(want, asyncInfo(), char(0x5a));
    status = gen::decode_async(cfg.config, seqs, want);
  }
  if (!status.ok)
    return "CPU decode_async: " + status.message;
  // block_tables: row r holds num_blocks(k) of its sequence.
  const baseline::AsyncStateView &h = st.host();
  int64_t r0 = INT64_MAX;
  for (int64_t r : rc.denseRatios)
    r0 = std::min(r0, r);
  for (int64_t r : rc.sparseRatios)
    r0 = std::min(r0, r);
  const int64_t bc0 = rc.blockSize / r0;
  std::vector<int64_t> cols;
  for (int32_t i = 0; i < n; ++i) {
    const int32_t slot = st.slots()[i];
    const int32_t q = slot >= 0 ? 1 + h.num_drafts[slot] : 1;
    const int64_t k = slot >= 0 ? h.num_computed[slot] + q : 1;
    cols.insert(cols.end(), size_t(q), (k / r0 + bc0 - 1) / bc0);
  }
  const int tables = runs.front().second->find("block_tables");
  for (int k = 0; k < gen::DecodeAsyncBuffers::kCount; ++k) {
    const gen::Buffer &w = want.begin()[k];
    const std::vector<int64_t> *c = k == tables ? &cols : nullptr;
    const std::vector<char> expect = ref::liveBytes(
        static_cast<const char *>(w.data), w, w, asyncElem(k), c);
    for (const auto &[name, set] : runs) {
      const gen::Buffer &b = set->at(k);
      std::vector<char> all(size_t(b.bucket_stride) * b.max_buckets *
                            asyncElem(k));
      if (cudaError_t e = cudaMemcpy(all.data(), b.data, all.size(),
                                     cudaMemcpyDeviceToHost))
        return std::string("output copy: ") + cudaGetErrorString(e);
      const std::vector<char> got =
          ref::liveBytes(all.data(), b, w, asyncElem(k), c);
      if (got != expect) {
        size_t at = 0;
        while (at < std::min(got.size(), expect.size()) &&
               got[at] == expect[at])
          ++at;
        return std::string(name) +
               " differs from the generated CPU decode_async in '" +
               asyncInfo()[k].name + "' (live byte " + std::to_string(at) +
               " of " + std::to_string(expect.size()) + ")";
      }
    }
  }
  return "";
}

} // namespace imeta::bench

#endif // IMETA_BENCH_GPU_ASYNCCHECK_H
