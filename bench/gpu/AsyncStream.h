//===- AsyncStream.h - decode steps on request state kept on the device -*- C++ -*-===//
//
// The decode_async bench's stream of steps. The request state lives in
// device memory (baseline/AsyncState.h), one slot per request, N slots
// for a graph captured at N sequences. Each step's batch is the live
// requests' slots in the order they joined, padded to N with placeholders
// at slot -1 (SPEC-async.md §3). After a step a device kernel plays the
// sampler: per live slot it accepts 0..num_drafts drafts, advances
// num_computed by 1 + accepted, writes the new last token, a draft count
// 0..nextn and the drafts, and appends a block to the slot's row when the
// next step's k may cross into one. The host then lets ~1% of the requests
// finish (and those that may pass max_model_len next step) and new ones
// join free slots (each free slot with chance 1/2, at most maxJoins a
// step) with histories uniform in [1, min(hist, max_model_len - 1 -
// nextn)]; a join's state reaches the device as a record (AsyncJoin)
// copied in the next step: each timed step writes it (idempotently).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_BENCH_GPU_ASYNCSTREAM_H
#define IMETA_BENCH_GPU_ASYNCSTREAM_H

#include "AsyncState.h"
#include "ReferenceV4.h"

#include <cuda_runtime.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

namespace imeta::bench {

class AsyncStream {
public:
  AsyncStream(const ref::Config &config, int32_t n, int64_t hist,
              int32_t maxJoins, uint64_t seed);
  ~AsyncStream();
  AsyncStream(const AsyncStream &) = delete;
  AsyncStream &operator=(const AsyncStream &) = delete;

  /// Allocates the state and fills every slot with a joining request
  /// (untimed: the first step's batch has no joins left). Returns an
  /// error, "" on success.
  std::string start(cudaStream_t stream);

  /// This step's batch: N slots (-1: padding), placeholder flags, joins.
  const int32_t *slots() const { return slot.data(); }
  const bool *placeholders() const { return placeholder.get(); }
  const std::vector<baseline::AsyncJoin> &joins() const { return joining; }
  int32_t live() const { return int32_t(order.size()); }

  /// The state on the device, and its host copy (pinned).
  const baseline::AsyncStateView &device() const { return dev; }
  const baseline::AsyncStateView &host() const { return mirror; }
  /// Enqueues this step's join records: one copy and a scatter kernel
  /// (what a step without (b'')'s fused kernel pays for its joins).
  cudaError_t applyJoins(cudaStream_t stream);
  /// This step's join records as one blob at `dst` (a count, the
  /// records' word offsets, the records), as an engine that keeps its
  /// request state on the device sends them with the step's own copy;
  /// returns its bytes (at most joinBlobBytes()).
  size_t packJoins(int32_t *dst) const;
  size_t joinBlobBytes() const;
  /// Enqueues the scatter of a blob packJoins wrote, now at `blob` on the
  /// device: a CTA a join up to the most a step has, the count read
  /// there, so that a graph captured once applies every step's joins.
  cudaError_t scatterPacked(const int32_t *blob, cudaStream_t stream) const;
  /// Enqueues the copy of the whole state into host().
  cudaError_t copyBack(cudaStream_t stream);

  /// The sampler on this step's batch, then the next batch (host). Waits
  /// for the stream.
  std::string advance(cudaStream_t stream);

private:
  baseline::AsyncJoin join(int32_t slotId);
  void makeBatch();
  cudaError_t scatter(const std::vector<baseline::AsyncJoin> &js,
                      cudaStream_t stream);

  ref::Config config;
  int32_t n, maxJoins, r0;
  int64_t maxHistory;
  uint64_t seed;
  int32_t stepCount = 0;
  baseline::AsyncStateLayout layout;
  baseline::AsyncStateView dev{}, mirror{};
  int32_t *devBase = nullptr, *hostBase = nullptr;
  int32_t *devSlots = nullptr;
  int32_t *blobHost = nullptr, *blobDevice = nullptr;
  size_t blobWords;
  std::mt19937_64 rng;
  std::vector<int32_t> order, freeSlots, slot;
  std::vector<int64_t> bound; ///< per slot: the most num_computed can be
  std::unique_ptr<bool[]> placeholder;
  std::vector<baseline::AsyncJoin> joining;
};

} // namespace imeta::bench

#endif // IMETA_BENCH_GPU_ASYNCSTREAM_H
