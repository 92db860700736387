//===- AsyncDecode.cu - (b''): a vLLM-style decode step on slot state -----===//

#include "AsyncDecode.h"
#include "DecodeRow.cuh"

#include <algorithm>

using namespace imeta;
using namespace imeta::baseline;

namespace {

/// Sequence i resolved (SPEC-async.md §3): from its join record, else
/// from the state at its slot, else (slot -1) q = k = 1, token 0, state 0
/// and a table of zeros.
struct Resolved {
  int32_t q, s, last, state;
  bool ph;
  const int32_t *drafts, *blocks, *record;
};

__host__ __device__ const int32_t *recordOf(const AsyncDecodeArgs &a,
                                            int32_t i) {
  const int32_t word = a.info[i] >> 1;
  return word ? a.records + word - 1 : nullptr;
}

/// q of sequence j, as sequence j's CTA resolves it.
__host__ __device__ int32_t seqQ(const AsyncDecodeArgs &a, int32_t j) {
  if (const int32_t *rec = recordOf(a, j))
    return 1 + rec[kJoinDrafts];
  const int32_t slot = a.slot[j];
  return slot >= 0 ? 1 + a.state.num_drafts[slot] : 1;
}

__host__ __device__ Resolved resolve(const AsyncDecodeArgs &a, int32_t i) {
  const AsyncStateView &st = a.state;
  const int32_t slot = a.slot[i];
  Resolved r{1, 0, 0, 0, bool(a.info[i] & 1), nullptr, nullptr,
             recordOf(a, i)};
  if (r.record) {
    r.q = 1 + r.record[kJoinDrafts];
    r.s = r.record[kJoinComputed];
    r.last = r.record[kJoinLast];
    r.state = r.record[kJoinState];
    r.drafts = r.record + kJoinHeader;
    r.blocks = r.drafts + st.nextn;
  } else if (slot >= 0) {
    r.q = 1 + st.num_drafts[slot];
    r.s = st.num_computed[slot];
    r.last = st.last_token[slot];
    r.state = st.state_id[slot];
    r.drafts = st.draft_tokens + int64_t(slot) * st.nextn;
    r.blocks = st.block_table + int64_t(slot) * st.max_blocks;
  }
  return r;
}

/// Sequence i's fields (rows from `start`), thread t of nt: (b)'s
/// formulas (FusedDecode.cu) on the resolved values.
__host__ __device__ void writeSequence(const AsyncDecodeArgs &args, int32_t i,
                                       const Resolved &v, int32_t start,
                                       int32_t t, int32_t nt) {
  const FusedDecodeArgs &a = args.f;
  const int32_t q = v.q, s = v.s, k = s + q, st = v.state;
  const int32_t B = a.block_size;
  const bool ph = v.ph;
  if (t == 0) {
    at<int32_t>(a.cu_seqlens_q, 0)[i] = start + q;
    at<int32_t>(args.seqlens_q, 0)[i] = q;
  }
  for (int32_t j = t; j < q; j += nt)
    writeDecodeRow(a, i, start + j, j, q, s + j, st, ph,
                   j == 0 ? v.last : v.drafts[j - 1], v.blocks);
  // num_blocks = ceil((k / r0) / bc(r0)), r0 the smallest ratio; each row
  // a copy of the sequence's table (int4 where both ends are aligned).
  const int32_t n0 = a.ca[0], bc0 = B / n0;
  const int32_t nb = (k / n0 + bc0 - 1) / bc0;
  for (int32_t j = 0; j < q; ++j) {
    int32_t *row = at<int32_t>(a.block_tables, 0) +
                   int64_t(start + j) * a.block_tables.width;
    int32_t c = t;
    if (!v.blocks) {
      for (; c < nb; c += nt)
        row[c] = 0;
      continue;
    }
    if ((reinterpret_cast<uintptr_t>(row) | reinterpret_cast<uintptr_t>(v.blocks)) % 16 == 0) {
      const int32_t n4 = nb / 4;
      for (; c < n4; c += nt)
        reinterpret_cast<int4 *>(row)[c] = reinterpret_cast<const int4 *>(v.blocks)[c];
      c = n4 * 4 + t;
    }
    for (; c < nb; c += nt)
      row[c] = v.blocks[c];
  }
}

/// Sum of `x` over the CTA, in every thread.
__device__ int32_t blockSum(int32_t x) {
  __shared__ int32_t warps[32];
  for (int o = 16; o > 0; o /= 2)
    x += __shfl_down_sync(0xffffffffu, x, o);
  if (threadIdx.x % 32 == 0)
    warps[threadIdx.x / 32] = x;
  __syncthreads();
  int32_t sum = 0;
  for (unsigned w = 0; w < (blockDim.x + 31) / 32; ++w)
    sum += warps[w];
  return sum;
}

/// One CTA per sequence: the q before it (its row start), its join record
/// into the state (it reads the record itself, so no CTA waits), its fields.
__global__ void __launch_bounds__(256) asyncDecode(const AsyncDecodeArgs a) {
  const int32_t i = blockIdx.x, t = threadIdx.x, nt = blockDim.x;
  int32_t before = 0;
  for (int32_t j = t; j < i; j += nt)
    before += seqQ(a, j);
  const int32_t start = blockSum(before);
  const Resolved v = resolve(a, i);
  if (v.record)
    applyJoin(a.state, v.record, t, nt);
  writeSequence(a, i, v, start, t, nt);
}

} // namespace

AsyncDecode::AsyncDecode(const ref::Config &config,
                         const AsyncStateView &state, int32_t seqs,
                         int32_t joins)
    : n(seqs), maxJoins(joins) {
  fusedDecodeConfig(config, a.f);
  a.f.num_seqs = n;
  a.state = state;
  recordsAt = (size_t(2) * n + 3) / 4 * 4;
  capacity = (recordsAt + size_t(maxJoins) * (kJoinHeader + state.nextn +
                                               state.max_blocks)) * 4;
}

AsyncDecode::~AsyncDecode() {
  if (device)
    cudaFree(device);
}

std::string AsyncDecode::create(cudaStream_t stream) {
  if (cudaError_t e = cudaMalloc(&device, capacity))
    return std::string("(b''): staging: ") + cudaGetErrorString(e);
  const int32_t *words = static_cast<const int32_t *>(device);
  a.slot = words;
  a.info = words + n;
  a.records = words + recordsAt;
  return graph.create(device, capacity, stream, [&](cudaStream_t s) {
    asyncDecode<<<n, 256, 0, s>>>(a);
    return cudaGetLastError();
  });
}

std::string AsyncDecode::pack(const int32_t *slots, const bool *placeholder,
                              const std::vector<AsyncJoin> &joins) {
  if (int32_t(joins.size()) > maxJoins)
    return "(b''): " + std::to_string(joins.size()) + " joins, room for " +
           std::to_string(maxJoins);
  host = static_cast<int32_t *>(graph.next());
  if (!host)
    return "(b''): staging wait failed";
  std::memcpy(host, slots, size_t(n) * 4);
  int32_t *info = host + n;
  for (int32_t i = 0; i < n; ++i)
    info[i] = placeholder[i];
  size_t word = 0;
  for (const AsyncJoin &j : joins) {
    info[j.seq] |= int32_t(word + 1) << 1;
    word += writeJoin(host + recordsAt + word, j);
  }
  used = (recordsAt + word) * 4;
  return "";
}

std::string AsyncDecode::launch(cudaStream_t stream) {
  return graph.replay(used, stream);
}
