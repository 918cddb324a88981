// terngrad against a reference operator written out from its definition (the stream draws, one
// per element of each nonzero block), hand-computed clipping cases and its error bounds.
#include "compression/compressors/terngrad.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "base/error.h"
#include "compression/compressors/compressor_test_util.h"

namespace commsim {
namespace {

using compressor_test::Gaussian;
using compressor_test::NormUp;

TernGrad TernGradOf(int64_t block, double clip = 0.0, const char* rng = "stream") {
  TernGradConfig cfg;
  cfg.block = block;
  cfg.clip = clip;
  cfg.rng = rng;
  return TernGrad(cfg);
}

// TernGrad without clipping by its definition: per block s = max |x_j| rounded up to fp32; per
// element of a block with s > 0, one 53-bit draw u = NextU64() >> 11 of the caller's stream, and
// xi = [u < |x_j| 2^53 / s]. Leaves rng where the encoder must leave it.
Eigen::VectorXd TernGradReference(const Eigen::VectorXd& x, int64_t block, Rng& rng) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(x.size());
  for (int64_t begin = 0; begin < x.size(); begin += block) {
    const int64_t n = std::min(block, x.size() - begin);
    const double s = NormUp(x.segment(begin, n), /*inf=*/true);
    if (s == 0.0) continue;
    for (int64_t j = begin; j < begin + n; ++j) {
      const double u = static_cast<double>(rng.NextU64() >> 11);
      if (u < std::abs(x[j]) * (0x1p53 / s)) q[j] = std::signbit(x[j]) ? -s : s;
    }
  }
  return q;
}

// Short inputs and inputs long enough for the stream draws to come from vectorised lanes
// (stream_lanes.h), with a zero block (block 100) that draws nothing.
TEST(TernGradTest, DecodedIsTheReferenceOperatorAndTheStreamEndsWhereItShould) {
  for (const Eigen::VectorXd& x : compressor_test::ShortAndLongInputs(200, 100)) {
    const int64_t d = x.size();
    for (const int64_t block : {0, 100, 7}) {
      const TernGrad c = TernGradOf(block);
      Rng rng(4), ref_rng(4);
      const Message m = c.Encode(x, rng);
      Eigen::VectorXd q(d);
      c.Decode(m, q);
      EXPECT_EQ(q, TernGradReference(x, block == 0 ? d : block, ref_rng)) << block;
      EXPECT_EQ(rng.NextU64(), ref_rng.NextU64()) << block;
      const int64_t blocks = block == 0 ? 1 : (d + block - 1) / block;
      EXPECT_EQ(m.payload_bits, 32 * blocks + 2 * d) << block;
      EXPECT_EQ(c.Expected(x).payload_bits, static_cast<double>(m.payload_bits)) << block;
    }
  }
}

TEST(TernGradTest, HandComputedMessage) {
  // s = 1: -1 is kept with probability 1 (code 11), 0 never (code 00).
  Eigen::VectorXd x(4);
  x << 0.5, -1.0, 0.0, 0.25;
  const TernGrad c = TernGradOf(0);
  for (uint64_t seed = 0; seed < 20; ++seed) {
    Rng rng(seed);
    const Message m = c.Encode(x, rng);
    ASSERT_EQ(m.payload_bits, 32 + 8);
    EXPECT_EQ(m.words[0] & 0xFFFFFFFFULL, 0x3F800000ULL);  // 1.0f
    EXPECT_EQ((m.words[0] >> 34) & 3, 3u);
    EXPECT_EQ((m.words[0] >> 36) & 3, 0u);
    const uint64_t first = (m.words[0] >> 32) & 3, last = (m.words[0] >> 38) & 3;
    EXPECT_TRUE(first == 0 || first == 1);
    EXPECT_TRUE(last == 0 || last == 1);
  }
}

// Unbiased without clipping: the mean over many draws is x, within 5 standard errors (element
// j's variance is |x_j| (s - |x_j|)); the mean squared error is sum_j |x_j| (s - |x_j|), within 5
// standard errors of its own.
TEST(TernGradTest, UnbiasedWithTheClosedFormVariance) {
  Eigen::VectorXd x(6);
  x << 0.9, -0.3, 0.05, 0.0, -2.0, 1.1;
  const double s = 2.0;
  for (const char* source : {"stream", "counter"}) {
    const TernGrad c = TernGradOf(0, 0.0, source);
    EXPECT_TRUE(c.unbiased());
    const int trials = 40000;
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(6), q(6);
    double err_sum = 0.0, err_sq = 0.0;
    Rng rng(8);
    for (int t = 0; t < trials; ++t) {
      c.Decode(c.Encode(x, rng), q);
      sum += q;
      const double e = (q - x).squaredNorm();
      err_sum += e;
      err_sq += e * e;
    }
    double variance = 0.0;
    for (int64_t j = 0; j < 6; ++j) {
      const double v = std::abs(x[j]) * (s - std::abs(x[j]));
      variance += v;
      EXPECT_NEAR(sum[j] / trials, x[j], 5 * std::sqrt(v / trials) + 1e-12) << source << " " << j;
    }
    const double err_mean = err_sum / trials;
    const double err_se = std::sqrt((err_sq / trials - err_mean * err_mean) / trials);
    EXPECT_NEAR(err_mean, variance, 5 * err_se) << source;
    EXPECT_DOUBLE_EQ(c.Expected(x).squared_error, variance);
    EXPECT_DOUBLE_EQ(c.Expected(x).nonzeros, x.lpNorm<1>() / s);
  }
}

// (sqrt(b) - 1)/2 is attained: one element 1 beside b - 1 elements 1/(sqrt(b) + 1).
TEST(TernGradTest, ErrorFactorIsTheTightBound) {
  const TernGrad c = TernGradOf(16);
  Eigen::VectorXd x = Eigen::VectorXd::Constant(16, 0.2);  // 1 / (sqrt(16) + 1)
  x[5] = -1.0;
  EXPECT_DOUBLE_EQ(c.ErrorFactor(16), 1.5);
  EXPECT_DOUBLE_EQ(c.Expected(x).squared_error, 1.5 * x.squaredNorm());  // 15 * 0.2 * 0.8 = 2.4
  for (uint64_t seed = 0; seed < 20; ++seed) {
    const Eigen::VectorXd g = Gaussian(100, seed);
    EXPECT_LE(c.Expected(g).squared_error, c.ErrorFactor(100) * g.squaredNorm());
  }
  EXPECT_DOUBLE_EQ(TernGradOf(0).ErrorFactor(100), 4.5);  // block 0: b = d
  EXPECT_DOUBLE_EQ(TernGradOf(1000).ErrorFactor(25), 2.0);
  EXPECT_DOUBLE_EQ(TernGradOf(0, 2.5).ErrorFactor(100), 4.5);
  EXPECT_DOUBLE_EQ(TernGradOf(4, 2.5).ErrorFactor(100), 1.0);
}

// x = (4, 0 x 6, -4): mean 0, standard deviation 2; clip 1.5 gives tau = 3, so c = (3, 0.., -3)
// and s = 3: every draw keeps both (probability 1), the decoded vector is c exactly.
TEST(TernGradTest, ClippingAtClipTimesTheStandardDeviation) {
  Eigen::VectorXd x = Eigen::VectorXd::Zero(8);
  x[0] = 4.0;
  x[7] = -4.0;
  const TernGrad c = TernGradOf(0, 1.5);
  EXPECT_FALSE(c.unbiased());
  EXPECT_DOUBLE_EQ(c.ClipThreshold(x.data(), 8), 3.0);
  Eigen::VectorXd expected = Eigen::VectorXd::Zero(8);
  expected[0] = 3.0;
  expected[7] = -3.0;
  for (uint64_t seed = 0; seed < 10; ++seed) {
    Rng rng(seed);
    Eigen::VectorXd q(8);
    c.Decode(c.Encode(x, rng), q);
    EXPECT_EQ(q, expected);
  }
  EXPECT_DOUBLE_EQ(c.Expected(x).squared_error, 2.0);  // (4 - 3)^2 twice
  EXPECT_DOUBLE_EQ(c.Expected(x).nonzeros, 2.0);
  // Without clipping the same input is kept unbiased.
  EXPECT_DOUBLE_EQ(TernGradOf(0).Expected(x).squared_error, 0.0);
}

// The clipped operator's mean is the clipped vector (so it is biased for x), and a constant
// block (standard deviation 0) is clipped to zero: error ||x||^2, the bound max(., 1) ||x||^2.
TEST(TernGradTest, ClippedMeanIsTheClippedVectorAndConstantBlocksVanish) {
  Eigen::VectorXd x(5);
  x << 10.0, 1.0, -1.0, 0.5, -0.5;
  const TernGrad c = TernGradOf(0, 1.0);
  const double mean = x.mean();
  const double sigma = std::sqrt((x.array() - mean).square().mean());
  const Eigen::VectorXd clipped = x.cwiseMin(sigma).cwiseMax(-sigma);
  const int trials = 40000;
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(5), q(5);
  Rng rng(12);
  for (int t = 0; t < trials; ++t) {
    c.Decode(c.Encode(x, rng), q);
    sum += q;
  }
  const double s = NormUp(clipped, /*inf=*/true);
  for (int64_t j = 0; j < 5; ++j) {
    const double v = std::abs(clipped[j]) * (s - std::abs(clipped[j]));
    EXPECT_NEAR(sum[j] / trials, clipped[j], 5 * std::sqrt(v / trials) + 1e-9 * s) << j;
  }
  EXPECT_LT(sum[0] / trials, 9.0);  // far from x_0 = 10
  const Eigen::VectorXd constant = Eigen::VectorXd::Constant(4, 2.0);
  const TernGrad blocks = TernGradOf(4, 2.5);
  Rng rng2(1);
  Eigen::VectorXd out(4);
  blocks.Decode(blocks.Encode(constant, rng2), out);
  EXPECT_EQ(out, Eigen::VectorXd::Zero(4));
  EXPECT_DOUBLE_EQ(blocks.Expected(constant).squared_error, constant.squaredNorm());
  EXPECT_DOUBLE_EQ(blocks.ErrorFactor(4), 1.0);
}

TEST(TernGradTest, InputErrorsAndCorruptCodes) {
  for (const double clip : {0.0, 2.5}) {
    const TernGrad c = TernGradOf(0, clip);
    Eigen::VectorXd x = Gaussian(20, 2);
    x[3] = 1e39;
    Rng rng(1);
    EXPECT_THROW(c.Encode(x, rng), NonFiniteError) << clip;
    x[11] = std::nan("");
    try {
      c.Encode(x, rng);
      ADD_FAILURE() << clip;
    } catch (const NonFiniteError& e) {
      EXPECT_NE(std::string(e.what()).find("terngrad"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("index 11"), std::string::npos) << e.what();
    }
  }
  Message m;
  m.payload_bits = 32 + 4;
  m.words = {0x3F800000ULL | (0b0010ULL << 32)};  // second code 10
  Eigen::VectorXd out(2);
  EXPECT_THROW(TernGradOf(0).Decode(m, out), DecodeError);
  m.words = {0x3F800000ULL | (0b1101ULL << 32)};  // +1, -1
  TernGradOf(0).Decode(m, out);
  EXPECT_EQ(out[0], 1.0);
  EXPECT_EQ(out[1], -1.0);
}

}  // namespace
}  // namespace commsim
