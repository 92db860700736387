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

/// Sum of `x` and minimum of `m` over the CTA, in every thread.
__device__ void blockSumMin(int32_t &x, int32_t &m) {
  __shared__ int32_t sums[32], mins[32];
  for (int o = 16; o > 0; o /= 2) {
    x += __shfl_down_sync(0xffffffffu, x, o);
    m = min(m, __shfl_down_sync(0xffffffffu, m, o));
  }
  if (threadIdx.x % 32 == 0) {
    sums[threadIdx.x / 32] = x;
    mins[threadIdx.x / 32] = m;
  }
  __syncthreads();
  x = 0;
  m = kAsyncOk;
  for (unsigned w = 0; w < (blockDim.x + 31) / 32; ++w) {
    x += sums[w];
    m = min(m, mins[w]);
  }
}

/// Sequence j's rules, in kAsyncRule order: its failure key, or kAsyncOk;
/// `q` its q where its slot and drafts are valid.
__device__ int32_t checkSequence(const AsyncDecodeArgs &a, int32_t j,
                                 int32_t &q) {
  const AsyncStateView &st = a.state;
  const int32_t slot = a.slot[j];
  const int32_t *rec = recordOf(a, j);
  auto fail = [&](AsyncRule rule) { return j * kAsyncRules + rule; };
  q = 1;
  if (slot < -1 || slot >= st.slots)
    return fail(kAsyncSlotRange);
  if (slot < 0)
    return a.info[j] & 1 ? kAsyncOk : fail(kAsyncSlotNotPh);
  const int32_t drafts = rec ? rec[kJoinDrafts] : st.num_drafts[slot];
  const int32_t s = rec ? rec[kJoinComputed] : st.num_computed[slot];
  const int32_t len = rec ? rec[kJoinBlocks] : st.block_len[slot];
  if (drafts < 0 || drafts > st.nextn)
    return fail(kAsyncDrafts);
  q = 1 + drafts;
  if (s < 0)
    return fail(kAsyncComputed);
  if (s > a.max_model_len - q)
    return fail(kAsyncModelLen);
  const int32_t k = s + q, n0 = a.f.ca[0], bc0 = a.f.block_size / n0;
  if (len < (k / n0 + bc0 - 1) / bc0)
    return fail(kAsyncShortRow);
  return kAsyncOk;
}

/// One CTA per sequence: the q before it (its row start), its join record
/// into the state (it reads the record itself, so no CTA waits), its fields.
__global__ void __launch_bounds__(256) asyncDecode(const AsyncDecodeArgs a) {
  const int32_t i = blockIdx.x, t = threadIdx.x, nt = blockDim.x;
  int32_t start = 0, unused = kAsyncOk;
  for (int32_t j = t; j < i; j += nt)
    start += seqQ(a, j);
  blockSumMin(start, unused);
  const Resolved v = resolve(a, i);
  if (v.record)
    applyJoin(a.state, v.record, t, nt);
  writeSequence(a, i, v, start, t, nt);
}

/// The checked shapes: every CTA checks every sequence and sums the q
/// before its own; where one fails, none writes (CTA 0 the verdict).
__global__ void __launch_bounds__(256)
    asyncDecodeChecked(const AsyncDecodeArgs a) {
  const int32_t i = blockIdx.x, t = threadIdx.x, nt = blockDim.x;
  int32_t start = 0, first = kAsyncOk;
  for (int32_t j = t; j < a.f.num_seqs; j += nt) {
    int32_t q = 1;
    first = min(first, checkSequence(a, j, q));
    if (j < i)
      start += q;
  }
  blockSumMin(start, first);
  if (i == 0 && t == 0)
    *a.verdict = first;
  if (first != kAsyncOk)
    return;
  const Resolved v = resolve(a, i);
  if (v.record)
    applyJoin(a.state, v.record, t, nt);
  writeSequence(a, i, v, start, t, nt);
}

/// Exclusive prefix sums of `q[0, n)` in place over the CTA (each thread a
/// contiguous chunk).
__device__ void blockScan(int32_t *q, int32_t n) {
  __shared__ int32_t warps[32];
  const int32_t t = threadIdx.x, nt = blockDim.x, lane = t % 32, w = t / 32;
  const int32_t chunk = (n + nt - 1) / nt, lo = min(n, t * chunk),
                hi = min(n, lo + chunk);
  int32_t own = 0;
  for (int32_t j = lo; j < hi; ++j)
    own += q[j];
  int32_t incl = own;
  for (int o = 1; o < 32; o *= 2) {
    const int32_t v = __shfl_up_sync(0xffffffffu, incl, o);
    if (lane >= o)
      incl += v;
  }
  if (lane == 31)
    warps[w] = incl;
  __syncthreads();
  int32_t before = incl - own;
  for (int32_t k = 0; k < w; ++k)
    before += warps[k];
  for (int32_t j = lo; j < hi; ++j) {
    const int32_t v = q[j];
    q[j] = before;
    before += v;
  }
  __syncthreads();
}

/// Sequence i's block ids (its rows' num_blocks(k) columns): its failure
/// key if one is negative or its last slot leaves int32, else kAsyncOk.
/// Thread t of nt; the caller reduces.
__device__ int32_t checkBlockIds(const AsyncDecodeArgs &a, int32_t i,
                                 const Resolved &v, int32_t t, int32_t nt) {
  if (!v.blocks)
    return kAsyncOk;
  const int32_t B = a.f.block_size, n0 = a.f.ca[0], bc0 = B / n0;
  const int32_t k = v.s + v.q, nb = (k / n0 + bc0 - 1) / bc0;
  const int32_t top = (INT32_MAX - (B - 1)) / B;
  bool bad = false;
  for (int32_t c = t; c < nb; c += nt) {
    const int32_t id = v.blocks[c];
    bad |= id < 0 || id > top;
  }
  return bad ? i * kAsyncRules + kAsyncBlockId : kAsyncOk;
}

/// The lowest of every CTA's `key`, in every thread: one grid-wide
/// barrier (all CTAs resident: a cooperative launch).
__device__ int32_t gridLowest(int32_t key, int32_t *g) {
  __shared__ int32_t lowest;
  if (threadIdx.x == 0) {
    if (key != kAsyncOk)
      atomicMin(&g[0], key);
    __threadfence();
    atomicAdd(&g[1], 1);
    while (*static_cast<volatile int32_t *>(&g[1]) < int32_t(gridDim.x))
      ;
    __threadfence();
    lowest = *static_cast<volatile int32_t *>(&g[0]);
    if (atomicAdd(&g[2], 1) == int32_t(gridDim.x) - 1) {
      g[0] = kAsyncOk;
      g[1] = 0;
      g[2] = 0;
      __threadfence();
    }
  }
  __syncthreads();
  return lowest;
}

/// kCopyFullChecked: one wave of CTAs, CTA b owning sequences b, b + grid,
/// ...; every CTA checks every sequence's rules and scans the q (its own
/// sequences' row starts), checks its own sequences' block ids, and the
/// grid agrees on the first failure before any CTA writes.
__global__ void __launch_bounds__(256)
    asyncDecodeFullChecked(const AsyncDecodeArgs a) {
  extern __shared__ int32_t starts[];
  const int32_t t = threadIdx.x, nt = blockDim.x, n = a.f.num_seqs;
  int32_t first = kAsyncOk, unused = 0;
  for (int32_t j = t; j < n; j += nt) {
    int32_t q = 1;
    first = min(first, checkSequence(a, j, q));
    starts[j] = q;
  }
  __syncthreads();
  blockScan(starts, n);
  for (int32_t i = blockIdx.x; i < n && first == kAsyncOk; i += gridDim.x) {
    int32_t q = 1;
    if (checkSequence(a, i, q) == kAsyncOk)
      first = min(first, checkBlockIds(a, i, resolve(a, i), t, nt));
  }
  blockSumMin(unused, first);
  const int32_t verdict = gridLowest(first, a.grid);
  if (blockIdx.x == 0 && t == 0)
    *a.verdict = verdict;
  if (verdict != kAsyncOk)
    return;
  for (int32_t i = blockIdx.x; i < n; i += gridDim.x) {
    const Resolved v = resolve(a, i);
    if (v.record)
      applyJoin(a.state, v.record, t, nt);
    writeSequence(a, i, v, starts[i], t, nt);
  }
}

} // namespace

const char *imeta::baseline::asyncRuleText(int32_t rule) {
  switch (rule) {
  case kAsyncSlotRange:
    return "R11: -1 <= slot < max_slots";
  case kAsyncSlotNotPh:
    return "R11: slot is -1 only for a placeholder";
  case kAsyncDrafts:
    return "R11: 0 <= num_drafts <= nextn";
  case kAsyncComputed:
    return "R11: num_computed >= 0";
  case kAsyncModelLen:
    return "R3: seqlen_k <= max_model_len";
  case kAsyncShortRow:
    return "R3: block_table has >= num_blocks entries";
  case kAsyncBlockId:
    return "block_table: 0 <= id and id * block_size + block_size - 1 "
           "fits int32";
  default:
    return "unknown rule";
  }
}

AsyncDecode::AsyncDecode(const ref::Config &config,
                         const AsyncStateView &state, int32_t seqs,
                         int32_t joins, AsyncShape how)
    : shape(how), n(seqs), maxJoins(joins) {
  fusedDecodeConfig(config, a.f);
  a.max_model_len = int32_t(config.maxModelLen);
  a.f.num_seqs = n;
  a.state = state;
  recordsAt = (size_t(2) * n + 3) / 4 * 4;
  capacity = (recordsAt + size_t(maxJoins) * (kJoinHeader + state.nextn +
                                               state.max_blocks)) * 4;
}

AsyncDecode::~AsyncDecode() {
  if (device)
    cudaFree(device);
  for (int k = 0; k < 2; ++k) {
    if (mapped[k])
      cudaFreeHost(mapped[k]);
    if (mappedDone[k])
      cudaEventDestroy(mappedDone[k]);
  }
}

static std::string cudaFail(const char *what, cudaError_t e) {
  return std::string("(b''): ") + what + ": " + cudaGetErrorString(e);
}

std::string AsyncDecode::create(cudaStream_t stream) {
  // The staging, then the verdict's word.
  if (cudaError_t e = cudaMalloc(&device, capacity + 16))
    return cudaFail("staging", e);
  a.verdict = reinterpret_cast<int32_t *>(static_cast<char *>(device) +
                                          capacity);
  const size_t starts = size_t(n) * 4;
  if (shape == AsyncShape::kCopyFullChecked) {
    a.grid = a.verdict + 1;
    const int32_t gridWords[3] = {kAsyncOk, 0, 0};
    if (cudaError_t e = cudaMemcpy(a.grid, gridWords, sizeof(gridWords),
                                   cudaMemcpyHostToDevice))
      return cudaFail("grid words", e);
    int perSm = 0, sms = 0, dev = 0;
    if (cudaError_t e = cudaGetDevice(&dev))
      return cudaFail("device", e);
    if (cudaError_t e =
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev))
      return cudaFail("SM count", e);
    if (cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &perSm, asyncDecodeFullChecked, 256, starts))
      return cudaFail("occupancy", e);
    blocks = std::min(n, perSm * sms);
    if (blocks < 1)
      return "(b''): the full-checked kernel fits no SM";
  }
  if (shape == AsyncShape::kMappedChecked)
    return createMapped(stream);
  const int32_t *words = static_cast<const int32_t *>(device);
  a.slot = words;
  a.info = words + n;
  a.records = words + recordsAt;
  return graph.create(device, capacity, stream, [&](cudaStream_t s) {
    if (shape == AsyncShape::kCopyFullChecked)
      return launchFull(s, starts);
    if (shape == AsyncShape::kCopyChecked)
      asyncDecodeChecked<<<n, 256, 0, s>>>(a);
    else
      asyncDecode<<<n, 256, 0, s>>>(a);
    return cudaGetLastError();
  });
}

cudaError_t AsyncDecode::launchFull(cudaStream_t stream, size_t shared) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(unsigned(blocks));
  cfg.blockDim = dim3(256);
  cfg.dynamicSmemBytes = shared;
  cfg.stream = stream;
  cudaLaunchAttribute cooperative[1];
  cooperative[0].id = cudaLaunchAttributeCooperative;
  cooperative[0].val.cooperative = 1;
  cfg.attrs = cooperative;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, asyncDecodeFullChecked, a);
}

std::string AsyncDecode::createMapped(cudaStream_t stream) {
  for (int k = 0; k < 2; ++k) {
    if (cudaError_t e = cudaHostAlloc(&mapped[k], capacity,
                                      cudaHostAllocMapped))
      return cudaFail("mapped staging", e);
    if (cudaError_t e = cudaEventCreateWithFlags(&mappedDone[k],
                                                 cudaEventDisableTiming))
      return cudaFail("event", e);
    void *on = nullptr;
    if (cudaError_t e = cudaHostGetDevicePointer(&on, mapped[k], 0))
      return cudaFail("mapped staging's device address", e);
    AsyncDecodeArgs args = a;
    const int32_t *words = static_cast<const int32_t *>(on);
    args.slot = words;
    args.info = words + n;
    args.records = words + recordsAt;
    if (std::string e = mappedGraph[k].capture(stream,
                                               [&](cudaStream_t s) {
                                                 asyncDecodeChecked<<<n, 256,
                                                                      0, s>>>(
                                                     args);
                                                 return cudaGetLastError();
                                               });
        !e.empty())
      return "(b''): " + e;
  }
  return "";
}

std::string AsyncDecode::verdict(cudaStream_t stream) const {
  if (cudaError_t e = cudaStreamSynchronize(stream))
    return cudaFail("step", e);
  int32_t key = kAsyncOk;
  if (cudaError_t e = cudaMemcpy(&key, a.verdict, sizeof(key),
                                 cudaMemcpyDeviceToHost))
    return cudaFail("verdict", e);
  if (key == kAsyncOk)
    return "";
  return "sequence " + std::to_string(key / kAsyncRules) + ": " +
         asyncRuleText(key % kAsyncRules);
}

std::string AsyncDecode::pack(const int32_t *slots, const bool *placeholder,
                              const std::vector<AsyncJoin> &joins) {
  if (int32_t(joins.size()) > maxJoins)
    return "(b''): " + std::to_string(joins.size()) + " joins, room for " +
           std::to_string(maxJoins);
  if (shape == AsyncShape::kMappedChecked) {
    // The buffer's last reader has finished.
    if (cudaError_t e = cudaEventSynchronize(mappedDone[cur]))
      return cudaFail("mapped staging wait", e);
    host = static_cast<int32_t *>(mapped[cur]);
  } else {
    host = static_cast<int32_t *>(graph.next());
  }
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
  if (shape != AsyncShape::kMappedChecked)
    return graph.replay(used, stream);
  if (cudaError_t e = mappedGraph[cur].replay(stream))
    return cudaFail("replay", e);
  if (cudaError_t e = cudaEventRecord(mappedDone[cur], stream))
    return cudaFail("event", e);
  cur ^= 1;
  return "";
}
