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
//   as it was;
// - one graph of the launch captured at 64 sequences, replayed with
//   batches of 1 to 64 sequences, each also padded to 64 with
//   placeholders at slot -1 (as an engine pads to its captured size):
//   equal to the CPU each time, no buffer moved.
// Without a GPU it prints why and exits 77 (ctest's "skipped").
//
// LLVM-free: builds from pre-generated sources with nvcc alone.
//
//===----------------------------------------------------------------------===//

#include "GpuTestSupport.h"
#include "StateBatch.h"
#include "runtime/GraphLaunch.h"
#include "state_decode_cuda.h"

#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace gen = imeta_gen::state_decode;
using namespace imeta::statebatch;

namespace {


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
  return gen::decode(b.config, hostSequences(b), cpu.b);
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

/// One graph of the launch at 64 sequences, replayed with smaller
/// batches and the same batches padded to 64 with slot -1 placeholders.
bool graphReplay(cudaStream_t stream) {
  gen::GpuStaging staging;
  gen::Status st = gen::gpu_staging_create(staging, 64, size_t(8) << 20);
  CHECK(st.ok, "staging: %s", st.message.c_str());
  std::mt19937_64 rng(64);
  Outputs gpu(true);
  Batch first = randomBatch(rng);
  st = deviceStep(staging, first, gpu, stream);
  CHECK(st.ok, "first: %s", st.message.c_str());
  imeta::runtime::GraphLaunch graph;
  std::string err = graph.capture(stream, [&](cudaStream_t s) {
    return gen::decode_device_launch(staging, s);
  });
  CHECK(err.empty(), "capture: %s", err.c_str());
  std::vector<void *> addresses(gpu.device);
  int replays = 0;
  for (int k = 0; k < 20; ++k) {
    Batch b = randomBatch(rng);
    for (int padded = 0; padded < 2; ++padded) {
      if (padded)
        while (b.slot.size() < 64) {
          b.slot.push_back(-1);
          b.placeholder.push_back(1);
        }
      Outputs cpu(false);
      gen::Status want = cpuRun(b, cpu);
      CHECK(want.ok, "replay batch: %s", want.message.c_str());
      DeviceState d;
      gen::Sequences s =
          sequences(b, d.put(b.computed), d.put(b.accepted), d.put(b.drafts),
                    d.put(b.draftsOff), d.put(b.table), d.put(b.tableOff));
      st = gen::decode_device_stage(staging, b.config, s, gpu.b, stream);
      CHECK(st.ok, "replay %d: stage: %s", replays, st.message.c_str());
      CHECK(graph.replay(stream) == cudaSuccess, "replay %d", replays);
      st = gen::decode_check(staging, stream);
      CHECK(st.ok, "replay %d: %s", replays, st.message.c_str());
      for (int o = 0; o < gen::DecodeBuffers::kCount; ++o) {
        const int64_t rows = cpu.b.begin()[o].rows[0];
        std::vector<int32_t> a = cpu.values(o), g = gpu.values(o);
        CHECK(std::memcmp(a.data(), g.data(), size_t(rows) * 4) == 0,
              "replay %d (%zu sequences): output '%s' differs from the CPU's",
              replays, b.slot.size(), gen::kDecodeOutputs[o].name);
        CHECK(gpu.b.begin()[o].data == addresses[size_t(o)],
              "replay %d: buffer moved", replays);
      }
      ++replays;
    }
  }
  gen::gpu_staging_destroy(staging);
  std::printf("graph: one launch captured at 64 sequences, %d replays (half "
              "padded to 64 with slot -1) equal the CPU, no buffer moved\n",
              replays);
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
  ok = graphReplay(stream) && ok;
  cudaStreamDestroy(stream);
  return imeta::gputest::finish(ok);
}
