//===- DividerCases.h - the (dividend, divisor) pairs divider tests use ---===//
//
// The generated imeta_divider is checked against C++'s 32-bit division on
// the host (GeneratedDividerTest.cpp) and on the device
// (test/gpu/DividerGpuTest.cu), on the same pairs: the edges of each
// divisor's multiples (divisors 1..4097, the powers of two +-1 up to 2^30,
// INT32_MAX, a prime), negative operands, and random pairs.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_TEST_DIVIDERCASES_H
#define IMETA_TEST_DIVIDERCASES_H

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace imeta::test {

/// Divisors at the edges: 1..`upTo`, the powers of two 2^s +- 1 for
/// `fromShift` <= s <= 30, and INT32_MAX.
inline std::vector<int32_t> edgeDivisors(int32_t upTo, int fromShift) {
  std::vector<int32_t> ds;
  for (int32_t d = 1; d <= upTo; ++d)
    ds.push_back(d);
  for (int s = fromShift; s <= 30; ++s)
    for (int32_t off : {-1, 0, 1})
      ds.push_back((int32_t(1) << s) + off);
  ds.push_back(INT32_MAX);
  return ds;
}

/// (a, d) pairs; `random` of them drawn with `seed`.
inline std::vector<std::pair<int32_t, int32_t>>
dividerCases(int random, uint64_t seed) {
  std::vector<int32_t> ds = edgeDivisors(4097, 12);
  ds.push_back(INT32_MAX - 1);
  ds.push_back(1000003);  // a prime
  std::vector<std::pair<int32_t, int32_t>> ps;
  for (int32_t d : ds) {
    for (int64_t k : {int64_t(0), int64_t(1), int64_t(2), int64_t(3),
                      int64_t(INT32_MAX) / d - 1, int64_t(INT32_MAX) / d})
      for (int64_t off : {-1, 0, 1}) {
        int64_t a = k * d + off;
        if (a >= 0 && a <= INT32_MAX)
          ps.push_back({int32_t(a), d});
      }
    ps.push_back({INT32_MAX, d});
    ps.push_back({INT32_MAX - 1, d});
  }
  // Where the multiply does not apply: the division.
  for (int32_t d : {-7, -3, -1, 1, 3, 128, INT32_MIN + 1, INT32_MAX})
    for (int32_t a : {INT32_MIN + 1, -1000, -129, -128, -1, 0, 5, 1000,
                      INT32_MAX})
      ps.push_back({a, d});
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int32_t> any(0, INT32_MAX);
  for (int n = 0; n < random; ++n) {
    int32_t d = any(rng) >> (rng() % 31);
    ps.push_back({any(rng), d < 1 ? 1 : d});
  }
  return ps;
}

} // namespace imeta::test

#endif // IMETA_TEST_DIVIDERCASES_H
