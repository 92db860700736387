//===- DividerGpuTest.cu - the generated divider, on the device -----------===//
//
// Column loops divide by a loop-invariant divisor through imeta_divider;
// on the device imeta_udiv32 multiplies by __umulhi (the host by a 64-bit
// product; test/unit/GeneratedDividerTest.cpp checks that one). Here every
// device quotient and remainder must equal C++'s 32-bit division on the
// pairs of test/unit/DividerCases.h, and the tile walk's float divmod
// (imeta_divmod_small) must equal the division for every dividend below
// 2^20. Without a GPU it prints why and exits 77.
//
//===----------------------------------------------------------------------===//

#include "DividerCases.h"
#include "deepinfer_v4_impl.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

using namespace imeta_gen::deepinfer_v4::detail;

namespace {

struct Pair {
  int32_t a, d;
};

/// Each thread divides one pair through a divider made on the device.
__global__ void divide(const Pair *pairs, int64_t n, int32_t *quotient,
                       int32_t *remainder) {
  for (int64_t k = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; k < n;
       k += int64_t(gridDim.x) * blockDim.x) {
    const imeta_divider dv = imeta_make_divider(pairs[k].d);
    const int32_t q = imeta_div32(pairs[k].a, pairs[k].d, dv);
    quotient[k] = q;
    remainder[k] = imeta_rem32(pairs[k].a, pairs[k].d, q);
  }
}

/// Every dividend 0 <= a < 2^20 against each divisor of `bs`: the tile
/// walk's float divmod must equal the division. Counts the pairs that
/// differ and keeps one.
__global__ void divmodSmall(const int32_t *bs, int nb,
                            unsigned long long *wrong, int2 *example) {
  for (int32_t a = blockIdx.x * blockDim.x + threadIdx.x; a < (1 << 20);
       a += gridDim.x * blockDim.x)
    for (int k = 0; k < nb; ++k) {
      int32_t q, r;
      imeta_divmod_small(a, bs[k], q, r);
      if (q != a / bs[k] || r != a % bs[k]) {
        atomicAdd(wrong, 1ull);
        *example = make_int2(a, bs[k]);
      }
    }
}

#define CUDA_OK(x)                                                             \
  if (cudaError_t e = (x); e != cudaSuccess) {                                 \
    std::printf("FAILED: %s: %s\n", #x, cudaGetErrorString(e));                \
    return 1;                                                                  \
  }

} // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device; the GPU tests run on a machine "
                "with one\n");
    return 77;
  }
  std::vector<Pair> ps;
  for (auto [a, d] : imeta::test::dividerCases(4000000, 7))
    ps.push_back({a, d});
  const int64_t n = int64_t(ps.size());
  Pair *dPairs;
  int32_t *dQuotient, *dRemainder;
  CUDA_OK(cudaMalloc(&dPairs, n * sizeof(Pair)));
  CUDA_OK(cudaMalloc(&dQuotient, n * sizeof(int32_t)));
  CUDA_OK(cudaMalloc(&dRemainder, n * sizeof(int32_t)));
  CUDA_OK(cudaMemcpy(dPairs, ps.data(), n * sizeof(Pair),
                     cudaMemcpyHostToDevice));
  divide<<<1024, 256>>>(dPairs, n, dQuotient, dRemainder);
  CUDA_OK(cudaGetLastError());
  std::vector<int32_t> quotient(n), remainder(n);
  CUDA_OK(cudaMemcpy(quotient.data(), dQuotient, n * sizeof(int32_t),
                     cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(remainder.data(), dRemainder, n * sizeof(int32_t),
                     cudaMemcpyDeviceToHost));
  int64_t wrong = 0;
  for (int64_t k = 0; k < n; ++k) {
    const int32_t q = ps[k].a / ps[k].d, r = ps[k].a % ps[k].d;
    if ((quotient[k] != q || remainder[k] != r) && ++wrong <= 10)
      std::printf("%d / %d: device %d rem %d, want %d rem %d\n", ps[k].a,
                  ps[k].d, quotient[k], remainder[k], q, r);
  }
  cudaFree(dPairs);
  cudaFree(dQuotient);
  cudaFree(dRemainder);
  std::printf("%s: %lld device quotients and remainders, %lld wrong\n",
              wrong ? "FAILED" : "PASSED", (long long)n, (long long)wrong);

  // The tile walk's divmod: divisors 1..1024, powers of two and their
  // neighbours up to 2^30, and INT32_MAX.
  const std::vector<int32_t> bs = imeta::test::edgeDivisors(1024, 11);
  int32_t *dBs;
  unsigned long long *dWrong;
  int2 *dExample;
  CUDA_OK(cudaMalloc(&dBs, bs.size() * sizeof(int32_t)));
  CUDA_OK(cudaMalloc(&dWrong, sizeof(unsigned long long)));
  CUDA_OK(cudaMalloc(&dExample, sizeof(int2)));
  CUDA_OK(cudaMemcpy(dBs, bs.data(), bs.size() * sizeof(int32_t),
                     cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(dWrong, 0, sizeof(unsigned long long)));
  divmodSmall<<<1024, 256>>>(dBs, int(bs.size()), dWrong, dExample);
  CUDA_OK(cudaGetLastError());
  unsigned long long smallWrong = 0;
  int2 example{};
  CUDA_OK(cudaMemcpy(&smallWrong, dWrong, sizeof smallWrong,
                     cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(&example, dExample, sizeof example,
                     cudaMemcpyDeviceToHost));
  cudaFree(dBs);
  cudaFree(dWrong);
  cudaFree(dExample);
  const long long pairs = (1ll << 20) * (long long)bs.size();
  if (smallWrong)
    std::printf("FAILED: imeta_divmod_small: %llu of %lld pairs wrong "
                "(e.g. %d / %d)\n",
                smallWrong, pairs, example.x, example.y);
  else
    std::printf("PASSED: imeta_divmod_small: %lld pairs (a < 2^20), 0 "
                "wrong\n",
                pairs);
  return wrong || smallWrong ? 1 : 0;
}
