//===- FusedDecode.cu - (b): a hand-written fused decode kernel -----------===//

#include "FusedDecode.h"
#include "DecodeRow.cuh"

#include <algorithm>

using namespace imeta;
using namespace imeta::baseline;

namespace {

/// One CTA per sequence: its rows' fields, then its block-table rows.
__global__ void fusedDecode(const FusedDecodeArgs a) {
  const int32_t i = blockIdx.x;
  const int32_t q = a.seqlen_q[i], k = a.seqlen_k[i], s = k - q;
  const int32_t st = a.state[i], r0 = a.row_start[i];
  const bool ph = a.placeholder[i];
  const int32_t B = a.block_size;
  const int32_t *bt = a.bt + a.bt_off[i];
  if (a.bt_w) {
    // (b'): the sequence's appended ids into its resident row first.
    const int32_t from = a.app_off[i], n = a.app_off[i + 1] - from;
    int32_t *row = a.bt_w + a.bt_off[i] + a.app_col[i];
    for (int32_t t = threadIdx.x; t < n; t += blockDim.x)
      row[t] = a.app_ids[from + t];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    at<int32_t>(a.cu_seqlens_q, 0)[i] = r0 + q;
  for (int32_t j = threadIdx.x; j < q; j += blockDim.x)
    writeDecodeRow(a, i, r0 + j, j, q, s + j, st, ph,
                   j == 0 ? a.last_token[i] : a.draft[a.draft_off[i] + j - 1],
                   bt);
  // num_blocks = ceil((k / r0) / bc(r0)), r0 the smallest ratio.
  const int32_t n0 = a.ca[0], bc0 = B / n0;
  const int32_t nb = (k / n0 + bc0 - 1) / bc0;
  int32_t *tables = at<int32_t>(a.block_tables, 0);
  for (int32_t j = 0; j < q; ++j) {
    int32_t *row = tables + int64_t(r0 + j) * a.block_tables.width;
    for (int32_t col = threadIdx.x; col < nb; col += blockDim.x)
      row[col] = bt[col];
  }
}

template <typename T>
cudaError_t upload(FusedDecodeInputs &in, const std::vector<T> &host,
                   const T **device) {
  void *p = nullptr;
  size_t bytes = std::max<size_t>(1, host.size() * sizeof(T));
  if (cudaError_t e = cudaMalloc(&p, bytes))
    return e;
  in.allocations.push_back(p);
  *device = static_cast<const T *>(p);
  return cudaMemcpy(p, host.data(), host.size() * sizeof(T),
                    cudaMemcpyHostToDevice);
}

} // namespace

FusedDecodeInputs::~FusedDecodeInputs() {
  for (void *p : allocations)
    cudaFree(p);
}

void imeta::baseline::fusedDecodeConfig(const ref::Config &c,
                                        FusedDecodeArgs &a) {
  a.block_size = c.blockSize;
  a.window = c.windowSize;
  a.swa_block = c.swaBlockSize;
  a.max_num_blocks = c.maxNumBlocks;
  a.force_lb = c.forceLoadBalance;
  std::vector<int32_t> ca(c.denseRatios.begin(), c.denseRatios.end());
  ca.insert(ca.end(), c.sparseRatios.begin(), c.sparseRatios.end());
  std::sort(ca.begin(), ca.end());
  ca.erase(std::unique(ca.begin(), ca.end()), ca.end());
  a.num_ca = int32_t(ca.size());
  std::copy(ca.begin(), ca.end(), a.ca);
  auto indices = [&](const std::vector<int64_t> &set, int32_t *out) {
    std::vector<int64_t> sorted(set);
    std::sort(sorted.begin(), sorted.end());
    for (size_t k = 0; k < sorted.size(); ++k)
      out[k] = int32_t(std::find(ca.begin(), ca.end(), sorted[k]) - ca.begin());
    return int32_t(sorted.size());
  };
  a.num_sparse = indices(c.sparseRatios, a.sparse);
  a.num_dense = indices(c.denseRatios, a.dense);
}

cudaError_t imeta::baseline::stageFusedDecode(const ref::Batch &batch,
                                              FusedDecodeInputs &in) {
  FusedDecodeArgs &a = in.args;
  a.num_seqs = int32_t(batch.sequences.size());
  fusedDecodeConfig(batch.config, a);

  std::vector<int32_t> q, k, state, last, rowStart{0}, bt, btOff{0}, draft,
      draftOff{0};
  std::vector<char> placeholder;
  for (const ref::Sequence &s : batch.sequences) {
    q.push_back(s.seqlenQ);
    k.push_back(s.seqlenK);
    state.push_back(s.stateId);
    last.push_back(s.tokenIds.back());
    rowStart.push_back(rowStart.back() + s.seqlenQ);
    bt.insert(bt.end(), s.blockTable.begin(), s.blockTable.end());
    btOff.push_back(int32_t(bt.size()));
    draft.insert(draft.end(), s.draftTokens.begin(), s.draftTokens.end());
    draftOff.push_back(int32_t(draft.size()));
    placeholder.push_back(s.isPlaceholder);
  }
  const char *ph = nullptr;
  cudaError_t e = upload(in, q, &a.seqlen_q);
  if (!e) e = upload(in, k, &a.seqlen_k);
  if (!e) e = upload(in, state, &a.state);
  if (!e) e = upload(in, last, &a.last_token);
  if (!e) e = upload(in, rowStart, &a.row_start);
  if (!e) e = upload(in, bt, &a.bt);
  if (!e) e = upload(in, btOff, &a.bt_off);
  if (!e) e = upload(in, draft, &a.draft);
  if (!e) e = upload(in, draftOff, &a.draft_off);
  if (!e) e = upload(in, placeholder, &ph);
  a.placeholder = reinterpret_cast<const bool *>(ph);
  return e;
}

cudaError_t imeta::baseline::launchFusedDecode(const FusedDecodeArgs &args,
                                               cudaStream_t stream) {
  fusedDecode<<<args.num_seqs, 256, 0, stream>>>(args);
  return cudaGetLastError();
}
