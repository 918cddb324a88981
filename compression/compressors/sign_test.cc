#include "compression/compressors/sign.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "compression/compressors/compressor_test_util.h"

namespace commsim {
namespace sign_test {

using compressor_test::Gaussian;

Sign WithScale(double scale) {
  SignConfig cfg;
  cfg.scale = scale;
  return Sign(cfg);
}

// Bit j is set for a negative sign bit: 1.5, -2, +0, -0, 3e-300, -1e10 -> bits 1, 3, 5 = 42.
TEST(SignTest, HandComputedBitsAndValues) {
  Eigen::VectorXd x(6);
  x << 1.5, -2.0, 0.0, -0.0, 3e-300, -1e10;
  const Sign q = WithScale(1.0);
  Rng rng(1);
  const Message m = q.Encode(x, rng);
  ASSERT_EQ(m.payload_bits, 6);
  ASSERT_EQ(m.words.size(), 1u);
  EXPECT_EQ(m.words[0], 42u);
  Eigen::VectorXd out(6), expected(6);
  q.Decode(m, out);
  expected << 1, -1, 1, -1, 1, -1;
  EXPECT_EQ(out, expected);
  const Sign quarter = WithScale(0.25);
  quarter.Decode(m, out);
  EXPECT_EQ(out, 0.25 * expected);
  // Error: (1 - 1.5)^2 + (-1 + 2)^2 + 1 + 1 + (1 - 3e-300)^2 + (1e10 - 1)^2.
  const double closed = 0.25 + 1.0 + 1.0 + 1.0 + 1.0 + (1e10 - 1.0) * (1e10 - 1.0);
  EXPECT_DOUBLE_EQ(q.Expected(x).squared_error, closed);
  EXPECT_EQ(q.Expected(x).nonzeros, 6.0);
}

TEST(SignTest, PayloadIsExactlyOneBitPerElementAndDrawsNothing) {
  const Sign q = WithScale(1.0);
  for (int64_t d : {1, 63, 64, 65, 1000}) {
    const Eigen::VectorXd x = Gaussian(d, 2);
    Rng rng(5), untouched(5);
    const Message m = q.Encode(x, rng);
    EXPECT_EQ(m.payload_bits, d);
    EXPECT_EQ(q.Expected(x).payload_bits, static_cast<double>(d));
    EXPECT_EQ(rng.NextU64(), untouched.NextU64()) << d;
    Eigen::VectorXd out(d);
    q.Decode(m, out);
    for (int64_t j = 0; j < d; ++j) ASSERT_EQ(out[j], x[j] < 0 ? -1.0 : 1.0) << j;
  }
}

// No constant bounds the error relative to ||x||^2: a tiny x still costs about d.
TEST(SignTest, NotContractiveErrorFactorIsInfinite) {
  const Sign q = WithScale(1.0);
  EXPECT_EQ(q.ErrorFactor(100), std::numeric_limits<double>::infinity());
  EXPECT_FALSE(q.unbiased());
  const Eigen::VectorXd tiny = Gaussian(100, 3, 1e-10);
  Rng rng(1);
  Eigen::VectorXd out(100);
  q.Decode(q.Encode(tiny, rng), out);
  EXPECT_NEAR((out - tiny).squaredNorm(), 100.0, 1e-6);
  EXPECT_GT((out - tiny).squaredNorm() / tiny.squaredNorm(), 1e18);
}

}  // namespace sign_test
}  // namespace commsim
