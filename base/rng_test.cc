#include "base/rng.h"

#include <gtest/gtest.h>

#include <cmath>

namespace commsim {
namespace {

TEST(RngTest, SameSeedSameStream) {
  Rng a(42, 3, "gradient");
  Rng b(42, 3, "gradient");
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a.NextU64(), b.NextU64());
}

TEST(RngTest, PurposeAndAgentSeparateStreams) {
  EXPECT_NE(DeriveSeed(1, 0, "a"), DeriveSeed(1, 0, "b"));
  EXPECT_NE(DeriveSeed(1, 0, "a"), DeriveSeed(1, 1, "a"));
  EXPECT_NE(DeriveSeed(1, 0, "a"), DeriveSeed(2, 0, "a"));
}

TEST(RngTest, UniformAndNormalMoments) {
  Rng rng(7);
  const int n = 200000;
  double sum = 0, sum_sq = 0, nsum = 0, nsum_sq = 0;
  for (int i = 0; i < n; ++i) {
    const double u = rng.Uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
    sum_sq += u * u;
    const double z = rng.Normal();
    nsum += z;
    nsum_sq += z * z;
  }
  EXPECT_NEAR(sum / n, 0.5, 4 * std::sqrt(1.0 / 12 / n));
  EXPECT_NEAR(sum_sq / n - 0.25, 1.0 / 12, 0.002);
  EXPECT_NEAR(nsum / n, 0.0, 4 / std::sqrt(n));
  EXPECT_NEAR(nsum_sq / n, 1.0, 0.02);
}

TEST(RngTest, UniformIntCoversRangeUniformly) {
  Rng rng(9);
  int counts[5] = {};
  for (int i = 0; i < 50000; ++i) {
    const uint64_t v = rng.UniformInt(5);
    ASSERT_LT(v, 5u);
    ++counts[v];
  }
  for (int c : counts) EXPECT_NEAR(c, 10000, 400);
}

}  // namespace
}  // namespace commsim
