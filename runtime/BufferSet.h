//===- BufferSet.h - caller-owned, graph-safe output buffers ----*- C++ -*-===//
//
// The buffer set of a generated path, keyed by output name (the article's
// dict): `get_or_create` takes a caller's buffer after checking its element
// type, row width and capacity, or allocates one (pinned host or device)
// for a maximum shape. Ratio-bucketed outputs are one stacked allocation,
// [buckets, capacity, width], whose bucket b the view `NAME.n` addresses at
// a stride fixed at creation, so a CUDA graph captured on the buffers stays
// valid for any smaller batch. Nothing is reallocated after creation.
//
// Header-only; needs only the generated header (and the CUDA runtime).
//
// Checked: a caller buffer's element size, row width, capacity and memory
// kind, and sizes that wrap or are negative (an error names the output;
// the set is unchanged); a `get_or_create` while another thread's runs is
// refused (an error, the set unchanged). Contract, not checked: the
// generated fills write `buffers()` (a plain struct), so two fills into
// one set at once race, as a fill during `get_or_create` does; a graph
// captured on its buffers must be destroyed before the set (which frees
// what it allocated) or a caller's buffer.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_RUNTIME_BUFFERSET_H
#define IMETA_RUNTIME_BUFFERSET_H

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace imeta::runtime {

enum class Memory { Device, PinnedHost };

/// A buffer the caller owns: its element size (1 for bool, 4 for int32),
/// values per row, rows per bucket, buckets and where it lives.
struct CallerBuffer {
  void *data = nullptr;
  int elementSize = 4;
  int64_t width = 1, capacity = 0;
  int32_t buckets = 1;
  Memory memory = Memory::Device;
};

/// The buffers of one generated path. `Buffers` is the generated buffer
/// set (e.g. DecodeZosBuffers); `info` its OutputInfo table.
template <typename Buffers, typename OutputInfo> class BufferSet {
public:
  BufferSet(const OutputInfo *info) : info(info) {}
  BufferSet(const BufferSet &) = delete;
  BufferSet &operator=(const BufferSet &) = delete;
  ~BufferSet() {
    for (auto &[ptr, memory] : owned)
      memory == Memory::Device ? cudaFree(ptr) : cudaFreeHost(ptr);
  }

  /// Output k as its generated Buffer.
  auto &at(int k) { return set.begin()[k]; }
  Buffers &buffers() { return set; }

  /// The index of output `name`, or -1.
  int find(const std::string &name) const {
    for (int k = 0; k < Buffers::kCount; ++k)
      if (name == info[k].name)
        return k;
    return -1;
  }

  /// Takes the caller's buffer for `name` after checking it, or (with
  /// `given == nullptr`) allocates one of `capacity` rows of `width`
  /// values in each of `buckets` buckets. Returns an error message, empty
  /// on success; on error the set is unchanged.
  std::string getOrCreate(const std::string &name, int64_t capacity,
                          int64_t width, int32_t buckets, Memory memory,
                          const CallerBuffer *given = nullptr) {
    if (inUse.exchange(true))
      return "output '" + name +
             "': the buffer set is in use by another thread (one "
             "get_or_create at a time)";
    std::string err = getOrCreateHeld(name, capacity, width, buckets,
                                      memory, given);
    inUse.store(false);
    return err;
  }

  /// Bucket b of output k: its rows start here (stride fixed at creation).
  void *bucketView(int k, int32_t b) {
    auto &buf = at(k);
    char *base = static_cast<char *>(buf.data);
    return base + size_t(b) * buf.bucket_stride * (info[k].is_bool ? 1 : 4);
  }

protected:
  /// Held by a get_or_create while it runs.
  std::atomic<bool> inUse{false};

private:
  std::string getOrCreateHeld(const std::string &name, int64_t capacity,
                              int64_t width, int32_t buckets, Memory memory,
                              const CallerBuffer *given) {
    int k = find(name);
    if (k < 0)
      return "no output named '" + name + "'";
    int elementSize = info[k].is_bool ? 1 : 4;
    if (info[k].width != 0 && width != info[k].width)
      return "output '" + name + "': rows of " + std::to_string(width) +
             " values, the field has " + std::to_string(info[k].width);
    buckets = buckets < 1 ? 1 : buckets;
    if (given) {
      if (given->elementSize != elementSize)
        return "output '" + name + "': element size " +
               std::to_string(given->elementSize) + ", the field needs " +
               std::to_string(elementSize);
      if (given->width != width || given->capacity < capacity ||
          given->buckets < buckets)
        return "output '" + name + "': the buffer is [" +
               std::to_string(given->buckets) + ", " +
               std::to_string(given->capacity) + ", " +
               std::to_string(given->width) + "], smaller than [" +
               std::to_string(buckets) + ", " + std::to_string(capacity) +
               ", " + std::to_string(width) + "]";
      if (given->memory != memory)
        return "output '" + name + "': the buffer is on the wrong device";
      bind(k, given->data, given->capacity, width, given->buckets);
      return "";
    }
    if (capacity < 0 || width < 0)
      return "output '" + name + "': a negative capacity or width";
    // buckets x capacity x width x element size, refused where it wraps.
    size_t bytes = 0;
    if (__builtin_mul_overflow(size_t(buckets), size_t(capacity), &bytes) ||
        __builtin_mul_overflow(bytes, size_t(width ? width : 1), &bytes) ||
        __builtin_mul_overflow(bytes, size_t(elementSize), &bytes))
      return "output '" + name + "': [" + std::to_string(buckets) + ", " +
             std::to_string(capacity) + ", " + std::to_string(width) +
             "] values overflow a size";
    void *ptr = nullptr;
    cudaError_t e = memory == Memory::Device
                        ? cudaMalloc(&ptr, bytes ? bytes : 1)
                        : cudaMallocHost(&ptr, bytes ? bytes : 1);
    if (e != cudaSuccess)
      return "output '" + name + "': " + cudaGetErrorString(e);
    owned.push_back({ptr, memory});
    bind(k, ptr, capacity, width, buckets);
    return "";
  }

  void bind(int k, void *data, int64_t capacity, int64_t width,
            int32_t buckets) {
    auto &buf = at(k);
    buf.data = data;
    buf.capacity = capacity;
    buf.width = width;
    buf.max_buckets = buckets;
    buf.bucket_stride = capacity * (width ? width : 1);
  }

  const OutputInfo *info;
  Buffers set;
  std::vector<std::pair<void *, Memory>> owned;
};

} // namespace imeta::runtime

#endif // IMETA_RUNTIME_BUFFERSET_H
