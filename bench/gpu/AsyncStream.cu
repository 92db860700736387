//===- AsyncStream.cu - decode steps on request state kept on the device --===//

#include "AsyncStream.h"

#include <algorithm>

using namespace imeta;
using namespace imeta::bench;
using baseline::AsyncJoin;
using baseline::AsyncStateView;

namespace {

constexpr int32_t kPoolBlocks = 1 << 20; // block ids: [0, 2^20)
constexpr int32_t kVocab = 100000;       // token ids: [0, 10^5)

__host__ __device__ uint64_t mix(uint64_t x) { // splitmix64
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// num_blocks(k) = ceil((k / r0) / bc(r0)).
__host__ __device__ int32_t blocksFor(int32_t k, int32_t r0,
                                      int32_t blockSize) {
  const int32_t bc = blockSize / r0;
  return (k / r0 + bc - 1) / bc;
}

/// The sampler at one live slot, from the hash `h`: accepts 0..num_drafts
/// drafts, advances num_computed, draws the last token and the next
/// drafts, and grows the row to the blocks the next step's largest k needs.
__host__ __device__ void sampleSlot(const AsyncStateView &s, int32_t slot,
                                    uint64_t h, int32_t r0,
                                    int32_t blockSize) {
  const int32_t accepted = int32_t(h % uint64_t(s.num_drafts[slot] + 1));
  const int32_t computed = s.num_computed[slot] + 1 + accepted;
  s.num_computed[slot] = computed;
  s.last_token[slot] = int32_t(mix(h + 1) % kVocab);
  s.num_drafts[slot] = int32_t(mix(h + 2) % uint64_t(s.nextn + 1));
  for (int32_t k = 0; k < s.nextn; ++k)
    s.draft_tokens[int64_t(slot) * s.nextn + k] = int32_t(mix(h + 3 + k) % kVocab);
  const int32_t need = blocksFor(computed + 1 + s.nextn, r0, blockSize);
  int32_t len = s.block_len[slot];
  for (; len < need && len < s.max_blocks; ++len)
    s.block_table[int64_t(slot) * s.max_blocks + len] =
        int32_t(mix(h + 1000 + len) % kPoolBlocks);
  s.block_len[slot] = len;
}

__global__ void sampler(const AsyncStateView s, const int32_t *slots,
                        int32_t n, uint64_t seed, int32_t r0,
                        int32_t blockSize) {
  const int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || slots[i] < 0)
    return;
  sampleSlot(s, slots[i], mix(seed ^ uint64_t(slots[i])), r0, blockSize);
}

/// One CTA per join record: `blob` holds their J word offsets, then them.
__global__ void scatterJoins(const AsyncStateView s, const int32_t *blob,
                             int32_t count) {
  baseline::applyJoin(s, blob + count + blob[blockIdx.x], threadIdx.x,
                      blockDim.x);
}

/// scatterJoins on a blob of AsyncStream::packJoins: its count first.
__global__ void scatterPackedJoins(const AsyncStateView s,
                                   const int32_t *blob) {
  const int32_t count = blob[0];
  if (int32_t(blockIdx.x) >= count)
    return;
  baseline::applyJoin(s, blob + 1 + count + blob[1 + blockIdx.x],
                      threadIdx.x, blockDim.x);
}

} // namespace

AsyncStream::AsyncStream(const ref::Config &config, int32_t n, int64_t hist,
                         int32_t maxJoins, uint64_t seed)
    : config(config), n(n), maxJoins(maxJoins), maxHistory(hist),
      seed(seed), layout(n, int32_t(config.nextn), int32_t(config.maxNumBlocks)),
      rng(seed), bound(size_t(n), 0), placeholder(new bool[size_t(n)]) {
  int64_t smallest = INT64_MAX;
  for (int64_t r : config.denseRatios)
    smallest = std::min(smallest, r);
  for (int64_t r : config.sparseRatios)
    smallest = std::min(smallest, r);
  r0 = int32_t(smallest);
  blobWords = size_t(n) * (1 + baseline::kJoinHeader + layout.nextn +
                           layout.maxBlocks);
}

AsyncStream::~AsyncStream() {
  cudaFree(devBase);
  cudaFree(devSlots);
  cudaFree(blobDevice);
  cudaFreeHost(hostBase);
  cudaFreeHost(blobHost);
}

std::string AsyncStream::start(cudaStream_t stream) {
  cudaError_t e = cudaMalloc(&devBase, layout.bytes());
  if (!e) e = cudaMemset(devBase, 0, layout.bytes());
  if (!e) e = cudaMallocHost(&hostBase, layout.bytes());
  if (!e) e = cudaMalloc(&devSlots, size_t(n) * 4);
  if (!e) e = cudaMalloc(&blobDevice, blobWords * 4);
  if (!e) e = cudaMallocHost(&blobHost, blobWords * 4);
  if (e)
    return std::string("stream: allocation: ") + cudaGetErrorString(e);
  dev = layout.at(devBase);
  mirror = layout.at(hostBase);
  for (int32_t s = 0; s < n; ++s) {
    joining.push_back(join(s));
    order.push_back(s);
  }
  e = scatter(joining, stream);
  if (!e) e = cudaStreamSynchronize(stream);
  if (e)
    return std::string("stream: first state: ") + cudaGetErrorString(e);
  joining.clear();
  makeBatch();
  return "";
}

AsyncJoin AsyncStream::join(int32_t slotId) {
  auto draw = [&](int64_t lo, int64_t hi) {
    return int32_t(std::uniform_int_distribution<int64_t>(lo, hi)(rng));
  };
  const int32_t nextn = layout.nextn;
  AsyncJoin j;
  j.seq = -1;
  j.slot = slotId;
  j.numComputed = draw(1, std::min<int64_t>(maxHistory,
                                            config.maxModelLen - 1 - nextn));
  j.lastToken = draw(0, kVocab - 1);
  j.numDrafts = draw(0, nextn);
  j.stateId = slotId;
  for (int32_t k = 0; k < nextn; ++k)
    j.drafts.push_back(draw(0, kVocab - 1));
  const int32_t nb = std::min(layout.maxBlocks,
                              blocksFor(j.numComputed + 1 + nextn, r0,
                                        int32_t(config.blockSize)));
  for (int32_t b = 0; b < nb; ++b)
    j.blocks.push_back(draw(0, kPoolBlocks - 1));
  bound[size_t(slotId)] = j.numComputed;
  return j;
}

void AsyncStream::makeBatch() {
  slot.assign(size_t(n), -1);
  std::copy(order.begin(), order.end(), slot.begin());
  for (int32_t i = 0; i < n; ++i)
    placeholder[i] = i >= int32_t(order.size());
  // Joins come last in `order`.
  const size_t first = order.size() - joining.size();
  for (size_t k = 0; k < joining.size(); ++k)
    joining[k].seq = int32_t(first + k);
}

cudaError_t AsyncStream::scatter(const std::vector<AsyncJoin> &js,
                                 cudaStream_t stream) {
  if (js.empty())
    return cudaSuccess;
  const int32_t count = int32_t(js.size());
  size_t word = 0;
  for (int32_t k = 0; k < count; ++k) {
    blobHost[k] = int32_t(word);
    word += baseline::writeJoin(blobHost + count + word, js[size_t(k)]);
  }
  if (cudaError_t e = cudaMemcpyAsync(blobDevice, blobHost,
                                      (count + word) * 4,
                                      cudaMemcpyHostToDevice, stream))
    return e;
  scatterJoins<<<count, 256, 0, stream>>>(dev, blobDevice, count);
  return cudaGetLastError();
}

size_t AsyncStream::packJoins(int32_t *dst) const {
  const int32_t count = int32_t(joining.size());
  dst[0] = count;
  size_t word = 0;
  for (int32_t k = 0; k < count; ++k) {
    dst[1 + k] = int32_t(word);
    word += baseline::writeJoin(dst + 1 + count + word, joining[size_t(k)]);
  }
  return (1 + size_t(count) + word) * 4;
}

size_t AsyncStream::joinBlobBytes() const {
  return (1 + size_t(maxJoins) * (1 + baseline::kJoinHeader + layout.nextn +
                                  layout.maxBlocks)) * 4;
}

cudaError_t AsyncStream::scatterPacked(const int32_t *blob,
                                       cudaStream_t stream) const {
  scatterPackedJoins<<<maxJoins, 256, 0, stream>>>(dev, blob);
  return cudaGetLastError();
}

cudaError_t AsyncStream::applyJoins(cudaStream_t stream) {
  return scatter(joining, stream);
}

cudaError_t AsyncStream::copyBack(cudaStream_t stream) {
  return cudaMemcpyAsync(hostBase, devBase, layout.bytes(),
                         cudaMemcpyDeviceToHost, stream);
}

std::string AsyncStream::advance(cudaStream_t stream) {
  cudaError_t e = cudaMemcpyAsync(devSlots, slot.data(), size_t(n) * 4,
                                  cudaMemcpyHostToDevice, stream);
  if (!e) {
    sampler<<<(n + 127) / 128, 128, 0, stream>>>(
        dev, devSlots, n, mix(seed + uint64_t(++stepCount) * 0x10001),
        r0, int32_t(config.blockSize));
    e = cudaGetLastError();
  }
  if (!e) e = cudaStreamSynchronize(stream);
  if (e)
    return std::string("stream: sampler: ") + cudaGetErrorString(e);
  // Finishes: ~1% a step, and whoever the next step could take past
  // max_model_len (the host knows num_computed only up to this bound).
  const int64_t grow = 1 + config.nextn;
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<int32_t> kept;
  for (int32_t s : order) {
    bound[size_t(s)] += grow;
    if (u(rng) < 0.01 || bound[size_t(s)] + grow > config.maxModelLen)
      freeSlots.push_back(s);
    else
      kept.push_back(s);
  }
  order = std::move(kept);
  joining.clear();
  std::vector<int32_t> still;
  for (int32_t s : freeSlots) {
    if (int32_t(joining.size()) < maxJoins && u(rng) < 0.5) {
      joining.push_back(join(s));
      order.push_back(s);
    } else {
      still.push_back(s);
    }
  }
  freeSlots = std::move(still);
  makeBatch();
  return "";
}
