//===- StateStepGpuTest.cu - a device step that reads request state -------===//
//
// On a GPU: test/gpu/state_decode.mlir's path `decode`, whose inputs are
// request state read at each sequence's slot (no imeta.resolve), as a
// device step: the state in device memory as an engine keeps it, only the
// slots and placeholder flags from the host, the state gathered and
// checked by the kernel's stage (docs/device-step.md). Against the
// generated CPU routine on the same state in host memory:
// - random batches (slots -1 for placeholders, any slot read by several
//   sequences): every output equal in its live rows;
// - the same batches broken (a slot past the state, a value below its
//   minimum, a drafts row of the wrong width, a rule on the state read):
//   the CPU routine's exact message from decode_check, every output byte
//   as it was.
// Without a GPU it prints why and exits 77 (ctest's "skipped").
//
// LLVM-free: builds from pre-generated sources with nvcc alone.
//
//===----------------------------------------------------------------------===//

#include "GpuTestSupport.h"
#include "state_decode.h"
#include "state_decode_cuda.h"

#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace gen = imeta_gen::state_decode;

namespace {


/// The engine's state (host form: the CPU routine's) and a batch of slots.
struct Batch {
  gen::Config config;
  std::vector<int32_t> computed, accepted, drafts, table;
  std::vector<int64_t> draftsOff{0}, tableOff{0};
  std::vector<int32_t> slot;
  std::vector<char> placeholder;
  int32_t slots() const { return int32_t(computed.size()); }
};

Batch randomBatch(std::mt19937_64 &rng) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return int32_t(std::uniform_int_distribution<int64_t>(lo, hi)(rng));
  };
  Batch b;
  b.config.block_size = pick(1, 16);
  b.config.nextn = pick(0, 3);
  const int32_t slots = pick(1, 80);
  for (int32_t s = 0; s < slots; ++s) {
    const int32_t k = pick(0, 5000);
    b.computed.push_back(k);
    b.accepted.push_back(pick(0, b.config.nextn));
    for (int32_t d = 0; d < b.config.nextn; ++d)
      b.drafts.push_back(pick(0, 1 << 20));
    b.draftsOff.push_back(int64_t(b.drafts.size()));
    const int32_t blocks = (k + 1 + b.config.block_size - 1) /
                               b.config.block_size + pick(0, 2);
    for (int32_t t = 0; t < blocks; ++t)
      b.table.push_back(pick(0, 100000));
    b.tableOff.push_back(int64_t(b.table.size()));
  }
  for (int32_t i = 0, n = pick(1, 64); i < n; ++i) {
    const bool pad = pick(0, 9) == 0;
    b.slot.push_back(pad ? -1 : pick(0, slots - 1));
    b.placeholder.push_back(pad || pick(0, 19) == 0);
  }
  return b;
}

/// Sequences over `b`'s slots and its state at the given addresses.
gen::Sequences sequences(const Batch &b, const int32_t *computed,
                         const int32_t *accepted, const int32_t *drafts,
                         const int64_t *draftsOff, const int32_t *table,
                         const int64_t *tableOff) {
  gen::Sequences s;
  s.num_seqs = int32_t(b.slot.size());
  s.slot_slots = b.slots();
  s.slot = b.slot.data();
  s.is_placeholder = reinterpret_cast<const bool *>(b.placeholder.data());
  s.computed = computed;
  s.accepted = accepted;
  s.drafts = drafts;
  s.drafts_offsets = draftsOff;
  s.table = table;
  s.table_offsets = tableOff;
  return s;
}

/// The state copied to the device (freed with the object).
struct DeviceState {
  std::vector<void *> owned;
  template <typename T> T *put(const std::vector<T> &v) {
    void *d = nullptr;
    if (cudaMalloc(&d, std::max<size_t>(1, v.size()) * sizeof(T)) !=
        cudaSuccess)
      return nullptr;
    owned.push_back(d);
    cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
    return static_cast<T *>(d);
  }
  ~DeviceState() {
    for (void *d : owned)
      cudaFree(d);
  }
};

constexpr int64_t kRows = 256; // every output's capacity (N <= 64, q = 1)

/// Output buffers of kRows rows each, host or device, filled with 0x5a.
struct Outputs {
  gen::DecodeBuffers b;
  std::vector<std::vector<int32_t>> host;
  std::vector<void *> device;
  explicit Outputs(bool onDevice) {
    for (int k = 0; k < gen::DecodeBuffers::kCount; ++k) {
      gen::Buffer &x = b.begin()[k];
      x.capacity = kRows + 1;
      x.bucket_stride = kRows + 1;
      x.width = 1;
      host.emplace_back(size_t(kRows + 1), 0x5a5a5a5a);
      if (onDevice) {
        void *d = nullptr;
        cudaMalloc(&d, size_t(kRows + 1) * 4);
        cudaMemcpy(d, host.back().data(), size_t(kRows + 1) * 4,
                   cudaMemcpyHostToDevice);
        device.push_back(d);
        x.data = d;
      } else {
        x.data = host.back().data();
      }
    }
  }
  ~Outputs() {
    for (void *d : device)
      cudaFree(d);
  }
  /// Output k's values (the device's copied back).
  std::vector<int32_t> values(int k) const {
    if (device.empty())
      return host[size_t(k)];
    std::vector<int32_t> v(size_t(kRows + 1));
    cudaMemcpy(v.data(), device[size_t(k)], v.size() * 4,
               cudaMemcpyDeviceToHost);
    return v;
  }
};

/// The device step on `b` (state on the device); its status.
gen::Status deviceStep(gen::GpuStaging &staging, const Batch &b,
                       Outputs &gpu, cudaStream_t stream) {
  DeviceState d;
  gen::Sequences s =
      sequences(b, d.put(b.computed), d.put(b.accepted), d.put(b.drafts),
                d.put(b.draftsOff), d.put(b.table), d.put(b.tableOff));
  gen::Status st =
      gen::decode_device_stage(staging, b.config, s, gpu.b, stream);
  if (!st.ok)
    return st;
  if (cudaError_t e = gen::decode_device_launch(staging, stream))
    return gen::Status{false, cudaGetErrorString(e)};
  return gen::decode_check(staging, stream);
}

gen::Status cpuRun(const Batch &b, Outputs &cpu) {
  gen::Sequences s = sequences(b, b.computed.data(), b.accepted.data(),
                               b.drafts.data(), b.draftsOff.data(),
                               b.table.data(), b.tableOff.data());
  return gen::decode(b.config, s, cpu.b);
}

/// A batch broken on purpose in one of five ways.
Batch broken(const Batch &good, int how, std::mt19937_64 &rng) {
  Batch b = good;
  auto some = [&](size_t n) { return size_t(rng() % n); };
  const size_t i = some(b.slot.size());
  const int32_t s = b.slot[i] >= 0 ? b.slot[i] : 0;
  switch (how) {
  case 0: // a slot past the state
    b.slot[i] = b.slots() + int32_t(some(3));
    break;
  case 1: // a value below its minimum, at a slot a sequence reads
    b.slot[i] = s;
    b.computed[size_t(s)] = -1 - int32_t(some(5));
    break;
  case 2: // a drafts row of the wrong width (any slot: checked before all)
    b.drafts.insert(b.drafts.begin() + b.draftsOff[size_t(s) + 1], 7);
    for (size_t r = size_t(s) + 1; r < b.draftsOff.size(); ++r)
      ++b.draftsOff[r];
    break;
  case 3: // R11: accepted <= nextn
    b.slot[i] = s;
    b.accepted[size_t(s)] = b.config.nextn + 1;
    break;
  default: // R11: the block table covers k
    b.slot[i] = s;
    b.computed[size_t(s)] += int32_t(b.config.block_size) * 8;
    break;
  }
  return b;
}

bool randomAndBroken(int count, cudaStream_t stream) {
  gen::GpuStaging staging;
  gen::Status st = gen::gpu_staging_create(staging, 64, size_t(8) << 20);
  CHECK(st.ok, "staging: %s", st.message.c_str());
  std::mt19937_64 rng(20261204);
  int equal = 0, refused = 0;
  for (int seed = 0; seed < count; ++seed) {
    Batch good = randomBatch(rng);
    Outputs cpu(false), gpu(true);
    gen::Status want = cpuRun(good, cpu);
    CHECK(want.ok, "seed %d: CPU: %s", seed, want.message.c_str());
    st = deviceStep(staging, good, gpu, stream);
    CHECK(st.ok, "seed %d: device step: %s", seed, st.message.c_str());
    for (int k = 0; k < gen::DecodeBuffers::kCount; ++k) {
      const int64_t rows = cpu.b.begin()[k].rows[0];
      std::vector<int32_t> a = cpu.values(k), g = gpu.values(k);
      CHECK(std::memcmp(a.data(), g.data(), size_t(rows) * 4) == 0,
            "seed %d: output '%s' differs from the CPU's", seed,
            gen::kDecodeOutputs[k].name);
    }
    ++equal;
    Batch bad = broken(good, seed % 5, rng);
    Outputs badCpu(false);
    want = cpuRun(bad, badCpu);
    if (want.ok)
      continue; // the change broke nothing (a table long enough)
    std::vector<std::vector<int32_t>> before;
    for (int k = 0; k < gen::DecodeBuffers::kCount; ++k)
      before.push_back(gpu.values(k));
    gen::Status got = deviceStep(staging, bad, gpu, stream);
    CHECK(!got.ok && got.message == want.message,
          "seed %d, broken %d: device '%s', CPU '%s'", seed, seed % 5,
          got.ok ? "accepts" : got.message.c_str(), want.message.c_str());
    for (int k = 0; k < gen::DecodeBuffers::kCount; ++k)
      CHECK(gpu.values(k) == before[size_t(k)],
            "seed %d, broken %d: output '%s' was written", seed, seed % 5,
            gen::kDecodeOutputs[k].name);
    ++refused;
  }
  gen::gpu_staging_destroy(staging);
  std::printf("state decode device step: %d random batches equal the CPU; "
              "%d broken batches refused on the device in the CPU's words, "
              "every output byte as it was\n",
              equal, refused);
  CHECK(refused > count / 2, "too few broken batches refused");
  return true;
}

} // namespace

int main() {
  if (!imeta::gputest::haveDevice())
    return 77;
  cudaStream_t stream;
  if (cudaStreamCreate(&stream) != cudaSuccess)
    return 1;
  bool ok = randomAndBroken(200, stream);
  cudaStreamDestroy(stream);
  return imeta::gputest::finish(ok);
}
