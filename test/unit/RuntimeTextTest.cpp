//===- RuntimeTextTest.cpp - the generated sources' fixed C++, on its own -===//
//
// runtime/ErrorRecord.inc, IntegerOps.inc and RangeHelpers.inc are the text
// imeta-gen embeds in every generated source. Here they are compiled
// directly, with no spec and no generator, and checked against plain
// arithmetic: the divider against the division, floor and ceiling
// quotients, list bounds, the failure record, the proof's saturating
// ranges; and the public header's fixed types (PublicTypes.inc).
//
//===----------------------------------------------------------------------===//

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#define IMETA_HD
#define IMETA_COLD inline
namespace text {
#include "runtime/ErrorRecord.inc"
#include "runtime/IntegerOps.inc"
#include "runtime/RangeHelpers.inc"
#include "runtime/FailureText.inc"
#include "runtime/DeviceStage.inc"
} // namespace text

namespace api {
constexpr int kMaxRatios = 16;
#include "runtime/PublicTypes.inc"
} // namespace api

namespace {
using namespace text;

TEST(RuntimeText, DividerEqualsDivision) {
  std::mt19937 rng(7);
  const int32_t divisors[] = {1, 2, 3, 7, 64, 127, 128, 1000, 65537,
                              INT32_MAX / 3, INT32_MAX};
  for (int32_t d : divisors) {
    const imeta_divider dv = imeta_make_divider(d);
    EXPECT_EQ(dv.limit, uint32_t(INT32_MAX)) << d;
    std::uniform_int_distribution<int32_t> any(0, INT32_MAX);
    for (int k = 0; k < 20000; ++k) {
      const int32_t a = k < 3 ? (k == 0 ? 0 : k == 1 ? INT32_MAX : d) : any(rng);
      ASSERT_EQ(imeta_udiv32(a, dv), a / d) << a << " / " << d;
      ASSERT_EQ(imeta_div32(a, d, dv), a / d) << a << " / " << d;
    }
  }
  // Outside the multiply's range the divider says so (limit 0).
  EXPECT_EQ(imeta_make_divider(0).limit, 0u);
  EXPECT_EQ(imeta_make_divider(-4).limit, 0u);
}

TEST(RuntimeText, FloorAndCeilingDivision) {
  for (int32_t a : {-7, -6, -1, 0, 1, 6, 7})
    for (int32_t b : {-3, -2, -1, 1, 2, 3}) {
      const double q = double(a) / double(b);
      EXPECT_EQ(imeta_floordiv(a, b), int32_t(std::floor(q))) << a << "/" << b;
      EXPECT_EQ(imeta_ceildiv(a, b), int32_t(std::ceil(q))) << a << "/" << b;
    }
}

TEST(RuntimeText, ListBoundsAndFits) {
  EXPECT_TRUE(imeta_in_list(int32_t(0), 1));
  EXPECT_FALSE(imeta_in_list(int32_t(1), 1));
  EXPECT_FALSE(imeta_in_list(int32_t(-1), 1)); // wraps past every length
  EXPECT_FALSE(imeta_in_list(int64_t(-1), INT64_C(1) << 40));
  EXPECT_TRUE(imeta_fits32(INT32_MIN));
  EXPECT_FALSE(imeta_fits32(int64_t(INT32_MAX) + 1));
}

TEST(RuntimeText, FirstFailureIsKept) {
  ErrorRecord e{};
  EXPECT_FALSE(imeta_fail(&e, kDivZero, 3, 1, 5, -1, 9, -1, 0, 0));
  EXPECT_FALSE(imeta_fail(&e, kOverflow, 4, 2, 6, -1, 10, -1, 0, 0));
  EXPECT_EQ(e.kind, kDivZero);
  EXPECT_EQ(e.site, 3);
  EXPECT_EQ(e.seq, 5);
  EXPECT_EQ(e.value, 9);
}

TEST(RuntimeText, SixtyFourBitOverflowHelpers) {
  int64_t r = 0;
  EXPECT_FALSE(imeta_add_overflow(INT64_MAX - 1, 1, &r));
  EXPECT_EQ(r, INT64_MAX);
  EXPECT_TRUE(imeta_add_overflow(INT64_MAX, 1, &r));
  EXPECT_TRUE(imeta_sub_overflow(INT64_MIN, 1, &r));
  EXPECT_FALSE(imeta_sub_overflow(-5, 7, &r));
  EXPECT_EQ(r, -12);
  EXPECT_TRUE(imeta_mul_overflow(INT64_C(1) << 32, INT64_C(1) << 31, &r));
  EXPECT_FALSE(imeta_mul_overflow(-(INT64_C(1) << 31), INT64_C(1) << 32, &r));
  EXPECT_EQ(r, INT64_MIN);
}

/// The device stage's keys order failures as the host meets them (step,
/// then its two indices), and one lane's scan reports each sum that
/// leaves i32 and keeps the lowest key.
TEST(RuntimeText, StageKeysAndSerialLanes) {
  EXPECT_LT(imeta_stage_key(2, 5, 9), imeta_stage_key(3, 0, 0));
  EXPECT_LT(imeta_stage_key(2, 0, 9), imeta_stage_key(2, 1, 0));
  EXPECT_LT(imeta_stage_key(2, 1, 3), imeta_stage_key(2, 1, 4));
  EXPECT_EQ(imeta_stage_step(imeta_stage_key(7, 3, 11)), 7u);
  EXPECT_EQ(imeta_stage_a(imeta_stage_key(7, 3, 11)), 3);
  EXPECT_EQ(imeta_stage_b(imeta_stage_key(7, 3, 11)), 11);

  SerialLanes ln;
  const int32_t src[4] = {2, INT32_MAX, -5, 1};
  int32_t excl[5] = {}, incl[4] = {};
  std::vector<int64_t> bad;
  ln.scan(src, 4, excl, true, [&](int64_t j, int64_t acc) {
    bad.push_back(j);
    ln.fail(imeta_stage_key(4, 0, j), imeta_stage_record(j, acc));
  });
  EXPECT_EQ(excl[0], 0);
  EXPECT_EQ(excl[1], 2);
  EXPECT_EQ(bad, (std::vector<int64_t>{1}));  // 2 + INT32_MAX; then back in range
  EXPECT_EQ(excl[3], int32_t(int64_t(2) + INT32_MAX - 5));
  ln.scan(src + 2, 2, incl, false, [](int64_t, int64_t) {});
  EXPECT_EQ(incl[0], -5);
  EXPECT_EQ(incl[1], -4);
  ln.fail(imeta_stage_key(4, 0, 3), imeta_stage_record(3, 0));
  ASSERT_TRUE(ln.failed());
  EXPECT_EQ(ln.best, imeta_stage_key(4, 0, 1));
  EXPECT_EQ(ln.rec.value, int64_t(2) + INT32_MAX);
  Range r[2] = {ln.part_span(src, 4), ln.part_span(src, 0)};
  ln.reduce(r, 2);
  EXPECT_EQ(r[0].lo, -5);
  EXPECT_EQ(r[0].hi, INT32_MAX);
  EXPECT_EQ(r[1].lo, 0);  // no element: {0, 0}
  EXPECT_TRUE(ln.part(5));
  EXPECT_FALSE(ln.all(false));
}

TEST(RuntimeText, RangesSaturateAndBound) {
  const Range a{-3, 5}, b{2, 4};
  EXPECT_EQ(r_add(a, b).lo, -1);
  EXPECT_EQ(r_add(a, b).hi, 9);
  EXPECT_EQ(r_mul(a, b).lo, -12);
  EXPECT_EQ(r_mul(a, b).hi, 20);
  EXPECT_EQ(r_div(Range{-9, 9}, Range{2, 3}).lo, -4);
  EXPECT_FALSE(r_nonzero(Range{-1, 1}));
  // Saturation: no range operation overflows.
  const Range big = r_mul(r_exact(INT64_MAX), r_exact(INT64_MAX));
  EXPECT_EQ(big.hi, kRangeCap);
  EXPECT_FALSE(r_fits32(r_add(r_exact(INT32_MAX), r_exact(1))));
  const int32_t p[] = {4, -2, 9, 0, 3};
  EXPECT_EQ(r_span(p, 5).lo, -2);
  EXPECT_EQ(r_span(p, 5).hi, 9);
  EXPECT_EQ(r_span(p, 0).hi, 0);
}

// The device step's box test: lanes testing their own elements of a scan
// (joined) answer as r_within over the scan's range, empty scans included,
// for boxes around, inside and outside the values, and for 1 to 5 lanes.
TEST(RuntimeText, BoxTestByElementEqualsTheReducedRange) {
  std::mt19937_64 rng(20261206);
  int inside = 0, outside = 0;
  for (int round = 0; round < 20000; ++round) {
    const int64_t n = int64_t(rng() % 7);
    int32_t v[6];
    int64_t begin[6], end[6];
    for (int64_t k = 0; k < 6; ++k) {
      v[k] = int32_t(int64_t(rng() % 41) - 20);
      begin[k] = int64_t(rng() % 100);
      end[k] = begin[k] + int64_t(rng() % 41) - 20;
    }
    auto bound = [&]() { return int64_t(rng() % 45) - 22; };
    Range box{bound(), bound()};
    if (rng() % 8 == 0)
      box = Range{-kRangeCap, kRangeCap};
    const Range span = r_span(v, n), lengths = r_lengths(begin, end, n);
    const bool spanIn = r_within(&span, &box, 1);
    const bool lengthsIn = r_within(&lengths, &box, 1);
    (spanIn ? inside : outside) += 1;
    const int64_t lanes = 1 + int64_t(rng() % 5);
    bool bySpan = true, byLengths = true;
    for (int64_t id = 0; id < lanes; ++id) {
      bySpan &= r_span_within(box, v, n, id, lanes);
      byLengths &= r_lengths_within(box, begin, end, n, id, lanes);
    }
    ASSERT_EQ(bySpan, spanIn) << "round " << round << ", n " << n;
    ASSERT_EQ(byLengths, lengthsIn) << "round " << round << ", n " << n;
    SerialLanes one;
    EXPECT_EQ(one.span_within(box, v, n), spanIn);
    EXPECT_EQ(one.lengths_within(box, begin, end, n), lengthsIn);
    EXPECT_EQ(one.exact_within(box, span), spanIn);
  }
  // Both answers occur often enough to mean something.
  EXPECT_GT(inside, 1000);
  EXPECT_GT(outside, 1000);
}

TEST(RuntimeText, FailureWords) {
  EXPECT_EQ(imeta_failure_text(kOverflow, "arith.addi", " at s.mlir:3:5", "",
                               2147483648, 0, 32, " (R6)"),
            "i32 overflow: arith.addi gives 2147483648 at s.mlir:3:5 (R6)");
  EXPECT_EQ(imeta_failure_text(kDivZero, "arith.divsi", "", "", 0, 0, 32, ""),
            "division by zero: arith.divsi");
  EXPECT_EQ(imeta_failure_text(kOutOfRange, "imeta.load", "", "'block_table'",
                               7, 3, 32, ""),
            "index 7 out of range of 'block_table' (length 3)");
  EXPECT_EQ(imeta_failure_text(kEmptySet, "imeta.ratio_min", "",
                               "'ca_ratios'", 0, 0, 32, ""),
            "set 'ca_ratios' is empty");
  EXPECT_EQ(imeta_failure_text(kColumnOutOfRange, "imeta.prefix_at", "",
                               "prefix sum 'cu'", 4, 2, 32, ""),
            "column 4 out of range of prefix sum 'cu' (2 columns)");
}

/// A Buffer the caller has not sized is empty, holds one bucket and lets
/// the routine set its row stride; the defaults of a call's outcome and
/// fill mode are what the entry points document.
TEST(RuntimeText, PublicTypesDefaults) {
  api::Buffer b;
  EXPECT_EQ(b.data, nullptr);
  EXPECT_EQ(b.capacity, 0);
  EXPECT_EQ(b.max_buckets, 1);
  EXPECT_EQ(b.width, 0);
  EXPECT_EQ(b.buckets, 0);
  for (int k = 0; k < api::kMaxRatios; ++k)
    EXPECT_EQ(b.rows[k] + b.cols[k] + b.ratios[k], 0);
  api::Status st;
  EXPECT_TRUE(st.ok);
  EXPECT_FALSE(st.proven);
  EXPECT_TRUE(st.message.empty());
  EXPECT_NE(api::FillMode::kAuto, api::FillMode::kChecked);
}

} // namespace
