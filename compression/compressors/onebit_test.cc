#include "compression/compressors/onebit.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "base/error.h"
#include "compression/compressors/compressor_test_util.h"

namespace commsim {
namespace onebit_test {

using compressor_test::Gaussian;

OneBit WithC(double c) {
  OneBitConfig cfg;
  cfg.c = c;
  return OneBit(cfg);
}

// c ||z|| / sqrt(n) rounded up to fp32, written out.
float LambdaUp(double exact) {
  float f = static_cast<float>(exact);
  if (f < exact) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

// The per-element error of the operator, from the header's formula: lambda^2 - z^2 inside
// [-lambda, lambda], (|z| - lambda)^2 outside.
double ElementError(double z, double lambda) {
  const double a = std::abs(z);
  return a <= lambda ? lambda * lambda - a * a : (a - lambda) * (a - lambda);
}

// z = (3, -4, 0, 0), c = 2: lambda = 2 * 5 / sqrt(4) = 5 exactly. The bits are the signs of
// z_j + 5 (2 u_j - 1) with u_j the Rng's uniforms in order, redrawn here.
TEST(OneBitTest, HandComputedMessage) {
  Eigen::VectorXd z(4);
  z << 3.0, -4.0, 0.0, 0.0;
  const OneBit q = WithC(2.0);
  Rng rng(7), draws(7);
  const Message m = q.Encode(z, rng);
  ASSERT_EQ(m.payload_bits, 32 + 4);
  EXPECT_EQ(m.words[0] & 0xFFFFFFFFu, std::bit_cast<uint32_t>(5.0f));
  Eigen::VectorXd expected(4);
  for (int j = 0; j < 4; ++j) {
    const double tau = 5.0 * (2.0 * draws.Uniform() - 1.0);
    const bool negative = z[j] + tau < 0.0;
    EXPECT_EQ((m.words[0] >> (32 + j)) & 1, negative ? 1u : 0u) << j;
    expected[j] = negative ? -5.0 : 5.0;
  }
  EXPECT_EQ(rng.NextU64(), draws.NextU64());  // one draw per element, no more
  Eigen::VectorXd out(4);
  q.Decode(m, out);
  EXPECT_EQ(out, expected);
}

// Default c = sqrt(2 ln(2n)); lambda on the wire is c ||z|| / sqrt(n) rounded up to fp32.
TEST(OneBitTest, DefaultCIsSqrtTwoLogTwoN) {
  const OneBit q{OneBitConfig{}};
  for (int64_t n : {1, 8, 1000}) {
    EXPECT_DOUBLE_EQ(q.CFor(n), std::sqrt(2.0 * std::log(2.0 * n))) << n;
    const Eigen::VectorXd z = Gaussian(n, 3);
    Rng rng(1);
    const Message m = q.Encode(z, rng);
    EXPECT_EQ(m.payload_bits, 32 + n);
    const float lambda =
        LambdaUp(std::sqrt(2.0 * std::log(2.0 * n)) * z.norm() / std::sqrt(double(n)));
    EXPECT_EQ(static_cast<uint32_t>(m.words[0]), std::bit_cast<uint32_t>(lambda)) << n;
  }
  EXPECT_DOUBLE_EQ(WithC(1.5).CFor(1000), 1.5);
}

// E[lambda q_j] = clip(z_j, -lambda, lambda). With c = 1 and z below, lambda = ||z|| / sqrt(8)
// = 1.8128..., so 4 and -3 are clipped and the others come back unbiased. 20000 encodings: the
// standard error of a mean is at most lambda / sqrt(20000) = 0.013; allowed 5 of them.
TEST(OneBitTest, MeanIsTheClippedInput) {
  Eigen::VectorXd z(8);
  z << 4.0, 1.0, -0.5, 0.0, -3.0, 0.2, 0.0, 1.5;
  const OneBit q = WithC(1.0);
  const double lambda = LambdaUp(z.norm() / std::sqrt(8.0));
  ASSERT_NEAR(lambda, std::sqrt(28.54 / 8.0), 1e-6);
  const int trials = 20000;
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(8), out(8);
  double error = 0.0, error_sq = 0.0;
  Rng rng(11);
  for (int t = 0; t < trials; ++t) {
    q.Decode(q.Encode(z, rng), out);
    for (int j = 0; j < 8; ++j) ASSERT_EQ(std::abs(out[j]), lambda);
    sum += out;
    const double e = (out - z).squaredNorm();
    error += e;
    error_sq += e * e;
  }
  for (int j = 0; j < 8; ++j) {
    const double clipped = std::clamp(z[j], -lambda, lambda);
    EXPECT_NEAR(sum[j] / trials, clipped, 5 * lambda / std::sqrt(double(trials))) << j;
  }
  double closed = 0.0;
  for (int j = 0; j < 8; ++j) closed += ElementError(z[j], lambda);
  // The measured mean error against the closed form, within 5 standard errors.
  const double mean = error / trials;
  const double se = std::sqrt((error_sq / trials - mean * mean) / trials);
  EXPECT_NEAR(mean, closed, 5 * se);
  EXPECT_NEAR(q.Expected(z).squared_error, closed, 1e-12 * closed);
  EXPECT_FALSE(q.unbiased());
}

// ErrorFactor = 1 + c^2, and a single spike comes close to it: error (n - 1) lambda^2 +
// (s - lambda)^2 with lambda = c s / sqrt(n).
TEST(OneBitTest, ErrorFactorIsOnePlusCSquaredAndASpikeNearlyReachesIt) {
  const OneBit q{OneBitConfig{}};
  const int64_t n = 1024;
  const double c2 = 2.0 * std::log(2.0 * n);
  EXPECT_DOUBLE_EQ(q.ErrorFactor(n), 1.0 + c2);
  EXPECT_DOUBLE_EQ(WithC(3.0).ErrorFactor(n), 10.0);
  Eigen::VectorXd spike = Eigen::VectorXd::Zero(n);
  spike[17] = -2.0;
  const double lambda = LambdaUp(std::sqrt(c2) * 2.0 / 32.0);
  const double closed = (n - 1) * lambda * lambda + (2.0 - lambda) * (2.0 - lambda);
  EXPECT_NEAR(q.Expected(spike).squared_error, closed, 1e-12 * closed);
  EXPECT_LE(closed, (1.0 + c2) * 4.0 * (1 + 1e-6));
  EXPECT_GE(closed, 0.95 * (1.0 + c2) * 4.0);
  // A flat vector (no clipping) has error n lambda^2 - ||z||^2 = (c^2 - 1) ||z||^2.
  const Eigen::VectorXd flat = Eigen::VectorXd::Constant(n, 0.5);
  const double flat_lambda = LambdaUp(std::sqrt(c2) * 0.5);
  EXPECT_NEAR(q.Expected(flat).squared_error, n * flat_lambda * flat_lambda - 0.25 * n, 1e-9);
}

TEST(OneBitTest, ZeroInputSendsAZeroLambdaAndDecodesToZero) {
  const OneBit q{OneBitConfig{}};
  const Eigen::VectorXd z = Eigen::VectorXd::Zero(70);
  Rng rng(2);
  const Message m = q.Encode(z, rng);
  EXPECT_EQ(m.payload_bits, 32 + 70);
  EXPECT_EQ(m.words[0] & 0xFFFFFFFFu, 0u);
  Eigen::VectorXd out = Eigen::VectorXd::Constant(70, 9.0);
  q.Decode(m, out);
  EXPECT_EQ(out, z);
  const Expectation e = q.Expected(z);
  EXPECT_EQ(e.squared_error, 0.0);
  EXPECT_EQ(e.nonzeros, 0.0);
  EXPECT_EQ(e.payload_bits, 32.0 + 70.0);
}

// A lambda that is negative, NaN or infinite on the wire is a corrupted message.
TEST(OneBitTest, BadLambdaIsADecodeError) {
  const OneBit q{OneBitConfig{}};
  Rng rng(3);
  const Message good = q.Encode(Gaussian(10, 4), rng);
  Eigen::VectorXd out(10);
  for (float bad :
       {-1.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    Message m = good;
    m.words[0] = (m.words[0] & ~uint64_t{0xFFFFFFFF}) | std::bit_cast<uint32_t>(bad);
    EXPECT_THROW(q.Decode(m, out), DecodeError) << bad;
  }
}

TEST(OneBitTest, LambdaBeyondFp32IsANonFiniteErrorNamingOnebit) {
  const OneBit q{OneBitConfig{}};
  Eigen::VectorXd z = Gaussian(10, 5);
  z[3] = 1e300;
  Rng rng(1);
  try {
    q.Encode(z, rng);
    ADD_FAILURE() << "no error";
  } catch (const NonFiniteError& e) {
    EXPECT_NE(std::string(e.what()).find("onebit"), std::string::npos) << e.what();
  }
}

}  // namespace onebit_test
}  // namespace commsim
