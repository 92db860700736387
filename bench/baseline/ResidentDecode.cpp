//===- ResidentDecode.cpp - (b'): a vLLM-style resident decode step ------===//

#include "ResidentDecode.h"

#include <algorithm>
#include <cstring>

using namespace imeta;
using namespace imeta::baseline;

ResidentDecode::ResidentDecode(const ref::Config &c, int32_t rows,
                               int32_t maxBlocks, int64_t maxSeqs,
                               bool onDevice)
    : stride(maxBlocks), maxSeqs(maxSeqs), onDevice(onDevice),
      deltaOf(size_t(rows), -1) {
  fusedDecodeConfig(c, a);
  // 12 arrays of N + 1, the drafts and appended ids (a first step joins
  // every sequence: up to 1024 ids each).
  capacity = size_t(maxSeqs + 1) * 4 * 16 + (size_t(16) << 20);
  if (!onDevice) {
    host = device = new char[capacity];
    return;
  }
  if ((error = cudaMallocHost(&host, capacity)))
    return;
  if ((error = cudaMalloc(&device, capacity)))
    return;
  error = cudaMalloc(&table, size_t(rows) * stride * 4);
}

ResidentDecode::~ResidentDecode() {
  if (!onDevice) {
    delete[] host;
    return;
  }
  cudaFreeHost(host);
  cudaFree(device);
  cudaFree(table);
}

bool ResidentDecode::pack(const ref::Batch &batch,
                          const std::vector<int32_t> &rows,
                          const std::vector<ref::StepStream::Delta> &deltas) {
  const int32_t n = int32_t(batch.sequences.size());
  for (size_t d = 0; d < deltas.size(); ++d)
    deltaOf[size_t(deltas[d].row)] = int32_t(d);
  used = 0;
  auto take = [&](size_t count, size_t elem) {
    used = (used + 15) & ~size_t(15);
    char *at = host + used;
    used += count * elem;
    return at;
  };
  auto dev = [&](const void *h) { return device + (static_cast<const char *>(h) - host); };
  auto *q = reinterpret_cast<int32_t *>(take(n, 4));
  auto *k = reinterpret_cast<int32_t *>(take(n, 4));
  auto *st = reinterpret_cast<int32_t *>(take(n, 4));
  auto *last = reinterpret_cast<int32_t *>(take(n, 4));
  auto *r0 = reinterpret_cast<int32_t *>(take(n + 1, 4));
  auto *off = reinterpret_cast<int32_t *>(take(n, 4));
  auto *dOff = reinterpret_cast<int32_t *>(take(n + 1, 4));
  auto *aOff = reinterpret_cast<int32_t *>(take(n + 1, 4));
  auto *aCol = reinterpret_cast<int32_t *>(take(n, 4));
  auto *ph = reinterpret_cast<bool *>(take(n, 1));
  r0[0] = dOff[0] = aOff[0] = 0;
  for (int32_t i = 0; i < n; ++i) {
    const ref::Sequence &s = batch.sequences[size_t(i)];
    q[i] = int32_t(s.seqlenQ);
    k[i] = int32_t(s.seqlenK);
    st[i] = int32_t(s.stateId);
    last[i] = int32_t(s.tokenIds.back());
    r0[i + 1] = r0[i] + q[i];
    off[i] = rows[size_t(i)] * stride;
    dOff[i + 1] = dOff[i] + int32_t(s.draftTokens.size());
    const int32_t d = deltaOf[size_t(rows[size_t(i)])];
    aOff[i + 1] = aOff[i] + (d < 0 ? 0 : int32_t(deltas[size_t(d)].ids.size()));
    aCol[i] = d < 0 ? 0 : deltas[size_t(d)].at;
    ph[i] = s.isPlaceholder;
  }
  auto *drafts = reinterpret_cast<int32_t *>(take(size_t(dOff[n]), 4));
  auto *ids = reinterpret_cast<int32_t *>(take(size_t(aOff[n]), 4));
  if (used > capacity)
    return false;
  for (int32_t i = 0; i < n; ++i) {
    const ref::Sequence &s = batch.sequences[size_t(i)];
    for (size_t t = 0; t < s.draftTokens.size(); ++t)
      drafts[dOff[i] + int32_t(t)] = int32_t(s.draftTokens[t]);
    const int32_t d = deltaOf[size_t(rows[size_t(i)])];
    if (d >= 0)
      std::copy(deltas[size_t(d)].ids.begin(), deltas[size_t(d)].ids.end(),
                ids + aOff[i]);
  }
  for (const ref::StepStream::Delta &d : deltas)
    deltaOf[size_t(d.row)] = -1;
  a.num_seqs = n;
  a.seqlen_q = reinterpret_cast<const int32_t *>(dev(q));
  a.seqlen_k = reinterpret_cast<const int32_t *>(dev(k));
  a.state = reinterpret_cast<const int32_t *>(dev(st));
  a.last_token = reinterpret_cast<const int32_t *>(dev(last));
  a.row_start = reinterpret_cast<const int32_t *>(dev(r0));
  a.bt = table;
  a.bt_w = table;
  a.bt_off = reinterpret_cast<const int32_t *>(dev(off));
  a.draft = reinterpret_cast<const int32_t *>(dev(drafts));
  a.draft_off = reinterpret_cast<const int32_t *>(dev(dOff));
  a.placeholder = reinterpret_cast<const bool *>(dev(ph));
  a.app_off = reinterpret_cast<const int32_t *>(dev(aOff));
  a.app_col = reinterpret_cast<const int32_t *>(dev(aCol));
  a.app_ids = reinterpret_cast<const int32_t *>(dev(ids));
  return true;
}

cudaError_t ResidentDecode::step(const ref::Batch &batch,
                                 const std::vector<int32_t> &rows,
                                 const std::vector<ref::StepStream::Delta> &deltas,
                                 cudaStream_t stream) {
  if (!pack(batch, rows, deltas))
    return cudaErrorInvalidValue;
  if (cudaError_t e = cudaMemcpyAsync(device, host, used,
                                      cudaMemcpyHostToDevice, stream))
    return e;
  return launchFusedDecode(a, stream);
}
