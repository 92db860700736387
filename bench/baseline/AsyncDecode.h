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
//===----------------------------------------------------------------------===//

#ifndef IMETA_BENCH_ASYNCDECODE_H
#define IMETA_BENCH_ASYNCDECODE_H

#include "AsyncState.h"
#include "FusedDecode.h"
#include "runtime/StepGraph.h"

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
};

class AsyncDecode {
public:
  /// (b'') for steps of `n` sequences (the captured size) on `state`, at
  /// most `maxJoins` joins a step.
  AsyncDecode(const ref::Config &config, const AsyncStateView &state,
              int32_t n, int32_t maxJoins);
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
  /// Bytes the last step copied to the device.
  size_t lastBytes() const { return used; }

private:
  AsyncDecodeArgs a{};
  runtime::StepGraph graph;
  int32_t n, maxJoins;
  size_t recordsAt, capacity, used = 0;
  void *device = nullptr;
  int32_t *host = nullptr;
};

} // namespace imeta::baseline

#endif // IMETA_BENCH_ASYNCDECODE_H
