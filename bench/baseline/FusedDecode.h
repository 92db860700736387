//===- FusedDecode.h - (b): a hand-written fused decode kernel ---*- C++ -*-===//
//
// Baseline (b) of issue 4, written by hand from SPEC.md §4, not generated:
// one CUDA kernel, one CTA per sequence, that writes decode_zos's fields
// (inclusive cu_seqlens_q) into caller-owned device buffers. Inputs are
// staged once per step by the host (sizes, row starts), as an engine does.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_BENCH_FUSEDDECODE_H
#define IMETA_BENCH_FUSEDDECODE_H

#include "ReferenceV4.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

namespace imeta::baseline {

/// An output: [buckets][rows][width] with buckets `bucket_stride` apart.
struct View {
  void *data = nullptr;
  int64_t bucket_stride = 0;
  int64_t width = 1;
};

constexpr int kMaxFusedRatios = 8;

/// Everything the kernel reads: config, ratio sets, device inputs, outputs
/// (in decode_zos's output order).
struct FusedDecodeArgs {
  int32_t num_seqs, block_size, window, swa_block, max_num_blocks;
  bool force_lb;
  int32_t num_ca, ca[kMaxFusedRatios];        // ascending
  int32_t num_sparse, sparse[kMaxFusedRatios]; // indices into ca
  int32_t num_dense, dense[kMaxFusedRatios];   // indices into ca
  const int32_t *seqlen_q, *seqlen_k, *state, *last_token, *row_start;
  const int32_t *bt, *bt_off, *draft, *draft_off;
  const bool *placeholder;
  /// (b'): the persistent device table `bt` points into, writable, and the
  /// step's appended ids per sequence (app_off [N + 1] into app_ids, each
  /// written from column app_col[i] of its row). Null for (b).
  int32_t *bt_w = nullptr;
  const int32_t *app_off = nullptr, *app_col = nullptr, *app_ids = nullptr;
  View cu_seqlens_q, positions, input_ids, gate, valid, query_indices,
      context_lens, state_block_idx, block_tables, slot_swa, positions_c,
      slot_ca, klen, swa_off_len, ca_off_len;
};

/// The batch's inputs on the device (built once; an engine's staging).
struct FusedDecodeInputs {
  std::vector<void *> allocations;
  FusedDecodeArgs args{};
  ~FusedDecodeInputs();
};

/// The config and ratios of `args` (no CUDA call).
void fusedDecodeConfig(const ref::Config &config, FusedDecodeArgs &args);
/// Stages `batch`'s inputs to the device and fills the config and ratios of
/// `in.args`; the caller sets the output views.
cudaError_t stageFusedDecode(const ref::Batch &batch, FusedDecodeInputs &in);

/// Launches (b) on `stream`: grid N, 256 threads.
cudaError_t launchFusedDecode(const FusedDecodeArgs &args,
                              cudaStream_t stream);

} // namespace imeta::baseline

#endif // IMETA_BENCH_FUSEDDECODE_H
