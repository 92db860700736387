//===- GpuTestSupport.h - what the GPU tests share --------------*- C++ -*-===//
//
// The generated driver's C ABI (runtime/DriverAbi.h; imeta-run --backend
// cuda calls it) and a batch's named values for it, a CHECK that records a
// failure and returns false from the enclosing check, and the skip without
// a device (exit code 77: ctest's "skipped").
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_TEST_GPU_GPUTESTSUPPORT_H
#define IMETA_TEST_GPU_GPUTESTSUPPORT_H

#include "runtime/DriverAbi.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

namespace imeta::gputest {

/// A batch's config values and inputs by name, as the generated driver
/// takes them (`imeta_value`), owning their storage.
class DriverArgs {
public:
  /// A config parameter: one value, or a ratio set's values.
  void config(const char *name, std::vector<int64_t> values) {
    add(configs, name, std::move(values), nullptr);
  }
  /// An input: one value per sequence, or a list input's values with its
  /// num_seqs + 1 offsets.
  void input(const char *name, std::vector<int64_t> values,
             std::vector<int64_t> offsets = {}) {
    add(inputs, name, std::move(values),
        offsets.empty() ? nullptr : keep(std::move(offsets)));
  }
  /// Runs `path` on the host (`gpu` 0) or the device; returns the driver's
  /// exit code and sets `out` to the field file or the error.
  int run(const char *path, int32_t numSeqs, int gpu, std::string &out) const {
    const char *json = nullptr, *error = nullptr;
    int rc = imeta_driver_run(path, numSeqs, configs.data(),
                              int(configs.size()), inputs.data(),
                              int(inputs.size()), gpu, &json, &error);
    out = rc == 0 ? (json ? json : "") : (error ? error : "");
    return rc;
  }

private:
  const int64_t *keep(std::vector<int64_t> values) {
    return store.emplace_back(std::move(values)).data();
  }
  void add(std::vector<imeta_value> &to, const char *name,
           std::vector<int64_t> values, const int64_t *offsets) {
    int64_t count = int64_t(values.size());
    to.push_back({name, keep(std::move(values)), count, offsets});
  }

  std::vector<imeta_value> configs, inputs;
  std::deque<std::vector<int64_t>> store; ///< stable element addresses
};

/// Failed CHECKs so far.
inline int failures = 0;

/// Whether a CUDA device is present; if not, says the tests are skipped.
inline bool haveDevice() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0)
    return true;
  std::printf("SKIPPED: no CUDA device; the GPU tests run on a machine "
              "with one\n");
  return false;
}

/// Prints the verdict; the process's exit code.
inline int finish(bool ok) {
  std::printf("%s (%d failures)\n", ok && !failures ? "PASSED" : "FAILED",
              failures);
  return ok && !failures ? 0 : 1;
}

} // namespace imeta::gputest

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                \
      std::fprintf(stderr, __VA_ARGS__);                                       \
      std::fprintf(stderr, "\n");                                              \
      ++imeta::gputest::failures;                                              \
      return false;                                                            \
    }                                                                          \
  } while (0)

#endif // IMETA_TEST_GPU_GPUTESTSUPPORT_H
