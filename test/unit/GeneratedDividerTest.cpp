//===- GeneratedDividerTest.cpp - the generated multiply-and-shift division ===//
//
// Column loops divide by a loop-invariant divisor through imeta_divider
// (emitted into every implementation header). Its quotient and remainder
// must equal C++'s 32-bit division on every pair of DividerCases.h; the
// multiply alone (imeta_udiv32) on every pair it applies to.
//
//===----------------------------------------------------------------------===//

#include "DividerCases.h"
#include "deepinfer_v4_impl.h"

#include <gtest/gtest.h>

#include <cstdint>

using namespace imeta_gen::deepinfer_v4::detail;

namespace {

TEST(GeneratedDivider, EqualsDivision) {
  for (auto [a, d] : imeta::test::dividerCases(2000000, 42)) {
    const imeta_divider dv = imeta_make_divider(d);
    const int32_t q = imeta_div32(a, d, dv);
    ASSERT_EQ(q, a / d) << a << " / " << d;
    ASSERT_EQ(imeta_rem32(a, d, q), a % d) << a << " % " << d;
    if (a >= 0 && d >= 1)
      ASSERT_EQ(imeta_udiv32(a, dv), a / d) << a << " / " << d << " (multiply)";
  }
}

// INT32_MIN: its quotient by -1 leaves i32 (the callers' checks reject it),
// its remainder is 0; neither traps.
TEST(GeneratedDivider, Int32Min) {
  for (int32_t d : {-1, 7}) {
    const int32_t q = imeta_div32(INT32_MIN, d, imeta_make_divider(d));
    EXPECT_EQ(imeta_rem32(INT32_MIN, d, q), d == -1 ? 0 : INT32_MIN % d);
  }
}

// A divisor the multiply cannot take (below 1 or above INT32_MAX) takes
// only the dividend 0 (0 / d = 0).
TEST(GeneratedDivider, Limits) {
  EXPECT_EQ(imeta_make_divider(0).limit, 0u);
  EXPECT_EQ(imeta_make_divider(-5).limit, 0u);
  EXPECT_EQ(imeta_make_divider(int64_t(INT32_MAX) + 1).limit, 0u);
  EXPECT_EQ(imeta_make_divider(1).limit, uint32_t(INT32_MAX));
}

} // namespace
