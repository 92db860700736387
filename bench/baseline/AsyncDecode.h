//===- AsyncDecode.h - (b''): a vLLM-style decode step on slot state -*- C++ -*-===//
//
// Baseline (b'') of issue 32, written by hand from SPEC-async.md, not
// generated: decode_async's fields (decode_varlen's: decode_zos's with
// inclusive cu_seqlens_q, and seqlens_q) from request state kept by slot
// on the device (AsyncState.h), as vLLM's GPU model runner builds its
// inputs. Per step the host writes the N slots, the placeholder flags and
// the joining requests' records into pinned staging; one graph copies
// them and runs one fused kernel, one CTA per sequence, whose CTAs each
// sum the q of the sequences before them (the device cumsum) and write a
// joining request's state as they read it. No rule checks.
//
// Two more shapes of the same step measure docs/device-step.md's plan by
// hand before it is generated: every CTA also checks every sequence's
// rules (R11's slot and draft bounds, num_computed >= 0, k <= max_model_len,
// a block-table row as long as num_blocks) and writes nothing when one
// fails (CTA 0 records the first failing sequence and rule); the step's
// slots reach the device by the graph's copy (kCopyChecked) or are read
// from mapped pinned memory, the graph one kernel node (kMappedChecked).
// A third, kCopyFullChecked, checks what imeta's generated step checks
// beyond those rules: every block id a sequence's rows copy is >= 0 and
// its last slot (id * block_size + block_size - 1) fits int32, each CTA
// its own sequences' rows, the CTAs agreeing on the verdict through one
// grid-wide barrier (a cooperative launch) before any write.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_BENCH_ASYNCDECODE_H
#define IMETA_BENCH_ASYNCDECODE_H

#include "AsyncState.h"
#include "FusedDecode.h"
#include "runtime/GraphLaunch.h"
#include "runtime/StepGraph.h"

#include <climits>
#include <string>

namespace imeta::baseline {

/// What the kernel reads: (b)'s config, ratio sets and output views (its
/// per-sequence inputs unused), seqlens_q, the state and the step's staging.
struct AsyncDecodeArgs {
  FusedDecodeArgs f;
  View seqlens_q;
  AsyncStateView state;
  /// Per sequence: its slot (-1: padding) and placeholder | (record + 1)
  /// << 1, the word of its join record in `records` (0: none).
  const int32_t *slot, *info, *records;
  /// The checked shapes: the bound on k, and where CTA 0 writes the
  /// step's verdict (kAsyncOk, or the first failure's key).
  int32_t max_model_len;
  int32_t *verdict;
  /// kCopyFullChecked: the grid's words (lowest key, arrivals, departures;
  /// the last CTA to leave resets them).
  int32_t *grid;
};

/// How the step reaches the device and whether it checks (see above).
enum class AsyncShape { kCopy, kCopyChecked, kMappedChecked, kCopyFullChecked };

/// The rules the checked shapes check, in the order a sequence's are
/// checked. A failure's key is sequence * kAsyncRules + rule.
enum AsyncRule {
  kAsyncSlotRange, ///< -1 <= slot < slots
  kAsyncSlotNotPh, ///< slot -1 only for a placeholder
  kAsyncDrafts,    ///< 0 <= num_drafts <= nextn
  kAsyncComputed,  ///< num_computed >= 0
  kAsyncModelLen,  ///< k <= max_model_len
  kAsyncShortRow,  ///< the block-table row holds num_blocks(k)
  kAsyncBlockId,   ///< kCopyFullChecked: 0 <= id, id's slots in int32
  kAsyncRules
};
constexpr int32_t kAsyncOk = INT32_MAX;
/// The words of rule `rule` (for a failure's message).
const char *asyncRuleText(int32_t rule);

class AsyncDecode {
public:
  /// (b'') for steps of `n` sequences (the captured size) on `state`, at
  /// most `maxJoins` joins a step.
  AsyncDecode(const ref::Config &config, const AsyncStateView &state,
              int32_t n, int32_t maxJoins,
              AsyncShape shape = AsyncShape::kCopy);
  ~AsyncDecode();
  AsyncDecode(const AsyncDecode &) = delete;
  AsyncDecode &operator=(const AsyncDecode &) = delete;

  /// The output views, in decode_zos's order, then seqlens_q: set them
  /// before create().
  FusedDecodeArgs &views() { return a.f; }
  View &seqlensQ() { return a.seqlens_q; }

  /// Allocates the device staging and captures the step's graph (the
  /// copy, then the kernel) on `stream`. Returns an error, "" on success.
  std::string create(cudaStream_t stream);
  /// The step's host work: its slots, flags and joins into the pinned
  /// buffer whose last copy has finished. Returns an error, "" on success.
  std::string pack(const int32_t *slots, const bool *placeholder,
                   const std::vector<AsyncJoin> &joins);
  /// Replays the graph: the copy of what pack() wrote, then the kernel.
  std::string launch(cudaStream_t stream);
  /// Bytes the last step copied to the device (read by it, mapped).
  size_t lastBytes() const { return used; }
  /// The checked shapes: waits for the last step and names its first
  /// failing sequence and rule ("" when it wrote its fields).
  std::string verdict(cudaStream_t stream) const;

private:
  std::string createMapped(cudaStream_t stream);
  cudaError_t launchFull(cudaStream_t stream, size_t shared);

  AsyncDecodeArgs a{};
  AsyncShape shape;
  runtime::StepGraph graph;
  int32_t n, maxJoins;
  /// kCopyFullChecked: the CTAs of one wave (each owns every blocks-th
  /// sequence).
  int32_t blocks = 0;
  size_t recordsAt, capacity, used = 0;
  void *device = nullptr;
  int32_t *host = nullptr;
  // kMappedChecked: two mapped pinned buffers, a graph reading each, the
  // event after each one's last replay; `cur` the one pack() fills.
  runtime::GraphLaunch mappedGraph[2];
  void *mapped[2] = {nullptr, nullptr};
  cudaEvent_t mappedDone[2] = {nullptr, nullptr};
  int cur = 0;
};

} // namespace imeta::baseline

#endif // IMETA_BENCH_ASYNCDECODE_H
