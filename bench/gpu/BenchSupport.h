//===- BenchSupport.h - what the GPU benches share --------------*- C++ -*-===//
//
// A CUDA call that must succeed (else the bench exits naming it), a
// failure that ends the bench, the host clock in microseconds, the
// median, the skip without a GPU and the empty-graph floor.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_BENCH_GPU_BENCHSUPPORT_H
#define IMETA_BENCH_GPU_BENCHSUPPORT_H

#include "runtime/GraphLaunch.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CUDA_OK(call)                                                          \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call,       \
                   cudaGetErrorString(e_));                                    \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

namespace imeta::bench {

/// Ends the bench, naming what failed.
[[noreturn]] inline void die(const std::string &what) {
  std::fprintf(stderr, "%s\n", what.c_str());
  std::exit(1);
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

inline double nowUs() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Ends the bench with 77 ("SKIPPED") where no CUDA device is visible.
inline void exitUnlessDevice() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    std::exit(77);
  }
}

namespace detail {
static __global__ void emptyKernel() {}
} // namespace detail

/// The floor of a step: a graph of one empty kernel, captured on `stream`.
inline void captureEmpty(runtime::GraphLaunch &empty, cudaStream_t stream) {
  if (std::string e = empty.capture(stream,
                                    [](cudaStream_t s) {
                                      detail::emptyKernel<<<1, 1, 0, s>>>();
                                      return cudaGetLastError();
                                    });
      !e.empty())
    die(e);
}

} // namespace imeta::bench

#endif // IMETA_BENCH_GPU_BENCHSUPPORT_H
