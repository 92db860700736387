//===- GpuTestSupport.h - what the GPU tests share --------------*- C++ -*-===//
//
// The generated driver's C ABI and a batch's named values for it
// (runtime/DriverArgs.h, as imeta-run --backend cuda uses them), a CHECK
// that records a failure and returns false from the enclosing check, and
// the skip without a device (exit code 77: ctest's "skipped").
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_TEST_GPU_GPUTESTSUPPORT_H
#define IMETA_TEST_GPU_GPUTESTSUPPORT_H

#include "runtime/DriverArgs.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

namespace imeta::gputest {

using runtime::DriverArgs;

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

/// A GPU test's main: 77 (ctest's "skipped") without a device, else
/// `body(stream)` on a stream of its own; the exit code.
template <class Body> int runOnStream(Body &&body) {
  if (!haveDevice())
    return 77;
  cudaStream_t stream;
  if (cudaStreamCreate(&stream) != cudaSuccess)
    return finish(false);
  const bool ok = body(stream);
  cudaStreamDestroy(stream);
  return finish(ok);
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

/// A CUDA call that must succeed (else CHECK's failure, naming it).
#define CUDA_OK(call)                                                          \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    CHECK(e_ == cudaSuccess, "%s: %s", #call, cudaGetErrorString(e_));         \
  } while (0)

#endif // IMETA_TEST_GPU_GPUTESTSUPPORT_H
