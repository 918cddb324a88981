// The stochastic quantizers with "rng": "counter": each element's outcome is the closed form
// applied to that element's own Philox draw (CounterRng::Draw(j), key = the Rng's next draw),
// whatever the block or bucket boundaries and the 256-element draw chunks; the Rng advances one
// step per message. Unbiasedness in counter mode is in the contract suite's Monte Carlo test.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "base/counter_rng.h"
#include "compression/compressors/block_ternary.h"
#include "compression/compressors/compressor_test_util.h"
#include "compression/compressors/dithered.h"
#include "compression/compressors/qsgd.h"

namespace commsim {
namespace {

using compressor_test::Gaussian;

// A norm as the wire carries it: the fp32 value nearest above.
double Fp32Above(double exact) {
  float f = static_cast<float>(exact);
  if (f < exact) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

double Draw01(const CounterRng& g, int64_t j) {
  return static_cast<double>(g.Draw(static_cast<uint64_t>(j))) * 0x1p-32;
}

// The decoded vector of one message, and the counter generator its draws must come from.
struct CounterMessage {
  Eigen::VectorXd q;
  CounterRng g;
};

// Encodes x with `c` from Rng(seed), decodes, and checks the Rng moved by exactly one draw (the
// key of the generator returned).
CounterMessage EncodeDecode(const Compressor& c, const Eigen::VectorXd& x, uint64_t seed) {
  Rng expected(seed);
  const uint64_t key = expected.NextU64();
  Rng rng(seed);
  Eigen::VectorXd out(x.size());
  c.Decode(c.Encode(x, rng), out);
  EXPECT_EQ(rng.NextU64(), expected.NextU64()) << "one draw per message";
  return {out, CounterRng(key)};
}

TEST(CounterDrawsTest, BlockTernaryKeepsElementJWithItsOwnDraw) {
  const Eigen::VectorXd x = Gaussian(1000, 5);
  for (const std::string coding : {"fixed2", "packed", "sparse", "entropy"}) {
    BlockTernaryConfig config;
    config.block = 100;  // blocks straddle the draw chunks (256 elements)
    config.coding = coding;
    config.rng = "counter";
    const auto [q, g] = EncodeDecode(BlockTernary(config), x, 9);
    for (int64_t j = 0; j < x.size(); ++j) {
      const double norm = Fp32Above(x.segment(j / 100 * 100, 100).cwiseAbs().maxCoeff());
      const bool keep = Draw01(g, j) < std::abs(x[j]) / norm;
      ASSERT_EQ(q[j], keep ? std::copysign(norm, x[j]) : 0.0) << coding << " element " << j;
    }
  }
}

TEST(CounterDrawsTest, QsgdRoundsElementJUpWithItsOwnDraw) {
  const Eigen::VectorXd x = Gaussian(1000, 6);
  for (const std::string coding : {"elias", "fixed"}) {
    QsgdConfig config;
    config.levels = 7;
    config.bucket = 300;
    config.coding = coding;
    config.rng = "counter";
    const auto [q, g] = EncodeDecode(Qsgd(config), x, 10);
    for (int64_t j = 0; j < x.size(); ++j) {
      const int64_t begin = j / 300 * 300;
      const double norm = Fp32Above(x.segment(begin, std::min<int64_t>(300, 1000 - begin)).norm());
      const double a = std::abs(x[j]) * 7.0 / norm;
      const double xi = std::floor(a) + (Draw01(g, j) < a - std::floor(a) ? 1.0 : 0.0);
      ASSERT_DOUBLE_EQ(q[j], (x[j] < 0 ? -xi : xi) * norm / 7.0) << coding << " element " << j;
    }
  }
}

TEST(CounterDrawsTest, DitheredAddsElementJsOwnDraw) {
  const Eigen::VectorXd x = Gaussian(700, 7);
  DitheredConfig config;
  config.levels = 5;
  config.rng = "counter";
  const auto [q, g] = EncodeDecode(Dithered(config), x, 11);
  const double norm = Fp32Above(x.norm());
  for (int64_t j = 0; j < x.size(); ++j) {
    const double z = std::floor(std::min(std::abs(x[j]) * 5.0 / norm, 5.0) + Draw01(g, j));
    ASSERT_DOUBLE_EQ(q[j], (x[j] < 0 ? -z : z) * norm / 5.0) << "element " << j;
  }
}

// The same Rng state gives the same message; the stream and counter messages differ.
TEST(CounterDrawsTest, CounterMessagesAreReproducibleAndDifferFromTheStream) {
  const Eigen::VectorXd x = Gaussian(3000, 8);
  BlockTernaryConfig config;
  const BlockTernary stream(config);
  config.rng = "counter";
  const BlockTernary counter(config);
  Rng a(4), b(4), c(4);
  const Message first = counter.Encode(x, a);
  EXPECT_EQ(counter.Encode(x, b).words, first.words);
  EXPECT_NE(stream.Encode(x, c).words, first.words);
}

}  // namespace
}  // namespace commsim
