//===- DecodeRow.cuh - the decode fields of one row, by hand ----*- CUDA -*-===//
//
// Baselines (b), (b') (FusedDecode.cu) and (b'') (AsyncDecode.cu) write the
// same decode_zos fields per row from SPEC.md §4's formulas, each from its
// own inputs; this is that row, written once by hand (not generated).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_BENCH_DECODEROW_CUH
#define IMETA_BENCH_DECODEROW_CUH

#include "FusedDecode.h"

namespace imeta::baseline {

/// Bucket `bucket` of view `v`.
template <typename T>
__host__ __device__ inline T *at(const View &v, int64_t bucket) {
  return static_cast<T *>(v.data) + bucket * v.bucket_stride;
}

/// The row of sequence i's query j (of q) at global row r: its position p,
/// state id st, token, placeholder flag and block table `blocks` (read
/// only where a compressed block closes, never for a placeholder).
__host__ __device__ inline void writeDecodeRow(const FusedDecodeArgs &a,
                                               int32_t i, int32_t r, int32_t j,
                                               int32_t q, int32_t p,
                                               int32_t st, bool ph,
                                               int32_t token,
                                               const int32_t *blocks) {
  const int32_t B = a.block_size, W = a.window, S = a.swa_block;
  at<int32_t>(a.positions, 0)[r] = p;
  at<int32_t>(a.input_ids, 0)[r] = token;
  at<bool>(a.gate, 0)[r] = a.force_lb;
  at<bool>(a.valid, 0)[r] = !ph;
  at<int32_t>(a.query_indices, 0)[r] = ph ? 998244353 : i;
  at<int32_t>(a.context_lens, 0)[r] = p + 1;
  at<int32_t>(a.state_block_idx, 0)[r] = st;
  at<int32_t>(a.slot_swa, 0)[r] = !ph && q - j <= S ? st * S + p % S : -1;
  const int32_t w = p + 1 < W ? p + 1 : W;
  at<int32_t>(a.swa_off_len, 0)[2 * r] = st * S + (p - w + 1) % S;
  at<int32_t>(a.swa_off_len, 0)[2 * r + 1] = w;
  for (int32_t b = 0; b < a.num_ca; ++b) {
    const int32_t n = a.ca[b], bc = B / n, c = p / n;
    const bool closes = !ph && (p + 1) % n == 0;
    at<int32_t>(a.positions_c, b)[r] = closes ? c * n : 0;
    at<int32_t>(a.slot_ca, b)[r] = closes ? blocks[c / bc] * bc + c % bc : -1;
  }
  for (int32_t b = 0; b < a.num_sparse; ++b)
    at<int32_t>(a.klen, b)[r] = (p + 1) / a.ca[a.sparse[b]];
  for (int32_t b = 0; b < a.num_dense; ++b) {
    const int32_t n = a.ca[a.dense[b]];
    at<int32_t>(a.ca_off_len, b)[2 * r] = r * a.max_num_blocks * (B / n);
    at<int32_t>(a.ca_off_len, b)[2 * r + 1] = (p + 1) / n;
  }
}

} // namespace imeta::baseline

#endif // IMETA_BENCH_DECODEROW_CUH
