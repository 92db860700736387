//===- GeneratedDividerTest.cpp - the generated multiply-and-shift division ===//
//
// Column loops divide by a loop-invariant divisor through imeta_divider
// (emitted into every implementation header). It must equal C++'s 32-bit
// division for every divisor and every dividend: at the edges of each
// divisor's multiples, at the edges of i32, and on random pairs.
//
//===----------------------------------------------------------------------===//

#include "deepinfer_v4_impl.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

using namespace imeta_gen::deepinfer_v4::detail;

namespace {

void expectDivides(int32_t a, int32_t d) {
  const imeta_divider dv = imeta_make_divider(d);
  ASSERT_EQ(imeta_div32(a, d, dv), a / d) << a << " / " << d;
}

std::vector<int32_t> edgeDivisors() {
  std::vector<int32_t> ds;
  for (int32_t d = 1; d <= 4097; ++d)
    ds.push_back(d);
  for (int s = 12; s <= 30; ++s)
    for (int32_t off : {-1, 0, 1})
      ds.push_back((int32_t(1) << s) + off);
  ds.push_back(INT32_MAX);
  ds.push_back(INT32_MAX - 1);
  ds.push_back(1000003);  // a prime
  return ds;
}

TEST(GeneratedDivider, EdgesOfEveryDivisor) {
  for (int32_t d : edgeDivisors()) {
    for (int64_t k : {int64_t(0), int64_t(1), int64_t(2), int64_t(3),
                      int64_t(INT32_MAX) / d - 1, int64_t(INT32_MAX) / d}) {
      for (int64_t off : {-1, 0, 1}) {
        int64_t a = k * d + off;
        if (a >= 0 && a <= INT32_MAX)
          expectDivides(int32_t(a), d);
      }
    }
    expectDivides(INT32_MAX, d);
    expectDivides(INT32_MAX - 1, d);
  }
}

TEST(GeneratedDivider, RandomPairs) {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int32_t> any(0, INT32_MAX);
  for (int n = 0; n < 2000000; ++n) {
    int32_t d = any(rng) >> (rng() % 31);
    expectDivides(any(rng), d < 1 ? 1 : d);
  }
}

// Where the multiply does not apply (a negative dividend or divisor), the
// divider falls back to the division.
TEST(GeneratedDivider, NegativeOperandsDivide) {
  for (int32_t d : {-7, -1, 3, 128})
    for (int32_t a : {-1000, -129, -128, -1, 0, 5, 1000}) {
      const imeta_divider dv = imeta_make_divider(d);
      EXPECT_EQ(imeta_div32(a, d, dv), a / d) << a << " / " << d;
    }
  EXPECT_FALSE(imeta_make_divider(0).ok);
  EXPECT_FALSE(imeta_make_divider(-5).ok);
}

} // namespace
