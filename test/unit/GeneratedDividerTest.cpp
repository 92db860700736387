//===- GeneratedDividerTest.cpp - the generated multiply-and-shift division ===//
//
// Column loops divide by a loop-invariant divisor through imeta_divider
// (emitted into every implementation header). Its quotient and remainder
// must equal C++'s 32-bit division on every pair of DividerCases.h; the
// multiply alone (imeta_udiv32, the device's path, here in its host
// form) on every pair it applies to.
//
//===----------------------------------------------------------------------===//

#include "DividerCases.h"
#include "deepinfer_v4_impl.h"

#include <gtest/gtest.h>

#include <cstdint>

using namespace imeta_gen::deepinfer_v4::detail;

namespace {

// The multiply (the device's path; the host divides) on every pair it
// applies to, and the remainder as the formulas compute it.
TEST(GeneratedDivider, EqualsDivision) {
  for (auto [a, d] : imeta::test::dividerCases(2000000, 42)) {
    const imeta_divider dv = imeta_make_divider(d);
    const int32_t q = imeta_div32(a, d, dv);
    ASSERT_EQ(q, a / d) << a << " / " << d;
    ASSERT_EQ(imeta_rem32(a, d, q), a % d) << a << " % " << d;
    ASSERT_EQ(IMETA_REM32(a, d, q), a % d) << a << " % " << d;
    if (uint32_t(a) <= dv.limit) {
      ASSERT_EQ(imeta_udiv32(a, dv), a / d) << a << " / " << d << " (multiply)";
    }
  }
}

// INT32_MIN % -1 is 0 and does not trap (a quotient INT32_MIN / -1 leaves
// i32: the callers' checks reject it before dividing).
TEST(GeneratedDivider, Int32Min) {
  EXPECT_EQ(IMETA_REM32(INT32_MIN, -1, 0), 0);
  const int32_t q = imeta_div32(INT32_MIN, 7, imeta_make_divider(7));
  EXPECT_EQ(q, INT32_MIN / 7);
  EXPECT_EQ(IMETA_REM32(INT32_MIN, 7, q), INT32_MIN % 7);
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
