#include "compression/compressors/scaled_sign.h"

#include <gtest/gtest.h>

#include <cmath>

namespace commsim {
namespace {

TEST(ScaledSignTest, DecodesBlockMeanMagnitudeTimesSign) {
  Eigen::VectorXd x(5);
  x << 1.0, -3.0, 0.0, 2.0, -0.5;
  ScaledSignConfig cfg;
  cfg.block = 3;
  const ScaledSign c(cfg);
  Rng rng(1);
  const Message m = c.Encode(x, rng);
  EXPECT_EQ(m.payload_bits, 2 * 32 + 5);
  Eigen::VectorXd out(5);
  c.Decode(m, out);
  const double s1 = static_cast<float>(4.0 / 3.0), s2 = 1.25;
  Eigen::VectorXd expected(5);
  expected << s1, -s1, s1, s2, -s2;  // sign(0) = +1
  EXPECT_EQ(out, expected);
}

TEST(ScaledSignTest, BlockZeroIsOneScaleForTheWholeVector) {
  Eigen::VectorXd x(5);
  x << 1.0, -2.0, 3.0, -4.0, 5.0;
  ScaledSignConfig cfg;
  cfg.block = 0;
  const ScaledSign c(cfg);
  Rng rng(1);
  const Message m = c.Encode(x, rng);
  EXPECT_EQ(m.payload_bits, 32 + 5);
  Eigen::VectorXd out(5);
  c.Decode(m, out);
  Eigen::VectorXd expected(5);
  expected << 3.0, -3.0, 3.0, -3.0, 3.0;  // mean |x| = 15 / 5
  EXPECT_EQ(out, expected);
}

TEST(ScaledSignTest, L2ScaleAndClosedFormErrors) {
  Eigen::VectorXd x(4);
  x << 3.0, -4.0, 0.0, 0.0;
  ScaledSignConfig cfg;
  cfg.block = 4;
  cfg.scale = "l2";
  const ScaledSign c(cfg);
  Rng rng(1);
  Eigen::VectorXd out(4);
  c.Decode(c.Encode(x, rng), out);
  EXPECT_EQ(out[0], 2.5);  // ||x||_2 / sqrt(4)
  EXPECT_EQ(out[1], -2.5);
  // l2: error = 2 ||x|| (||x|| - ||x||_1 / sqrt n) = 2 * 5 * (5 - 3.5).
  EXPECT_DOUBLE_EQ((out - x).squaredNorm(), 15.0);
  EXPECT_DOUBLE_EQ(c.Expected(x).squared_error, 15.0);
  cfg.scale = "l1";
  const ScaledSign l1(cfg);
  // l1: ||x||^2 - ||x||_1^2 / n = 25 - 49/4.
  EXPECT_DOUBLE_EQ(l1.Expected(x).squared_error, 25.0 - 49.0 / 4.0);
  EXPECT_DOUBLE_EQ(l1.ErrorFactor(1000), 1.0 - 1.0 / 4.0);
}

}  // namespace
}  // namespace commsim
