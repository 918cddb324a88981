#include "compression/compressors/dithered.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "compression/coding/vector_source_code.h"
#include "compression/compressors/compressor_test_util.h"
#include "compression/compressors/stream_lanes.h"

namespace commsim {
namespace {

using compressor_test::NormUp;

Eigen::VectorXd Residual(int64_t d, double density, uint64_t seed) {
  Rng rng(seed);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(d);
  for (int64_t i = 0; i < d; ++i) {
    if (rng.Uniform() < density) x[i] = rng.Normal();
  }
  return x;
}

// Also for a long message, whose stream draws are computed in lanes (stream_lanes.h): the same
// values, and the Rng ends where the reference's does.
TEST(DitheredTest, DecodedEqualsTheReferenceOperator) {
  for (int64_t d : {int64_t{2000}, kLaneDrawsMinDim + 1000}) {
    const Eigen::VectorXd x = Residual(d, 0.3, 1);
    DitheredConfig cfg;
    cfg.levels = 15;
    const Dithered c(cfg);
    Rng rng(2), ref(2);
    Eigen::VectorXd out(x.size());
    c.Decode(c.Encode(x, rng), out);
    const double norm = NormUp(x);
    for (int64_t j = 0; j < x.size(); ++j) {
      const double a = std::min(std::abs(x[j]) * (15.0 / norm), 15.0);
      const double z = std::floor(a + ref.Uniform());
      ASSERT_EQ(out[j], (norm / 15.0) * (x[j] < 0 ? -z : z)) << d << " " << j;
    }
    EXPECT_EQ(rng.NextU64(), ref.NextU64()) << d;
  }
}

TEST(DitheredTest, SourceCodeIsWithinFivePercentOfTheEntropyForLargeD) {
  for (double density : {1.0, 0.2}) {
    for (int64_t s : {15, 255}) {
      const int64_t d = 100000;
      const Eigen::VectorXd x = Residual(d, density, 3);
      DitheredConfig cfg;
      cfg.levels = s;
      const Dithered c(cfg);
      Rng rng(4);
      const Message m = c.Encode(x, rng);
      Eigen::VectorXd out(d);
      c.Decode(m, out);
      const double unit = static_cast<double>(NormUp(x)) / static_cast<double>(s);
      std::vector<int32_t> z(static_cast<size_t>(d));
      for (int64_t j = 0; j < d; ++j) z[j] = static_cast<int32_t>(std::lround(out[j] / unit));
      const double bound = 32.0 + EmpiricalEntropyBits(z);
      EXPECT_LE(m.payload_bits, 1.05 * bound) << "density " << density << " s " << s;
      EXPECT_GE(m.payload_bits, 0.98 * bound);
    }
  }
}

TEST(DitheredTest, SubtractiveDitherHasUniformErrorAndNeedsTheSharedSeed) {
  const Eigen::VectorXd x = Residual(20000, 1.0, 5);
  DitheredConfig cfg;
  cfg.levels = 4;
  cfg.subtractive = true;
  cfg.dither_seed = 7;
  const Dithered c(cfg);
  Rng rng(6);
  const Message m = c.Encode(x, rng);
  Eigen::VectorXd out(x.size());
  c.Decode(m, out);
  const double unit = static_cast<double>(NormUp(x)) / 4.0;
  const Eigen::ArrayXd err = (out - x).array() / unit;
  EXPECT_LE(err.abs().maxCoeff(), 0.5 + 1e-9);
  EXPECT_NEAR(err.square().mean(), 1.0 / 12.0, 0.003);
  EXPECT_NEAR(err.mean(), 0.0, 0.01);
  // A receiver with another dither seed decodes something else.
  cfg.dither_seed = 8;
  Eigen::VectorXd other(x.size());
  Dithered(cfg).Decode(m, other);
  EXPECT_GT((other - out).norm(), 0.1 * out.norm());
}

}  // namespace
}  // namespace commsim
