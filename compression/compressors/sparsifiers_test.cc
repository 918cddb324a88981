// top_k and rand_k.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "compression/coding/elias.h"
#include "compression/compressors/compressor_test_util.h"
#include "compression/compressors/rand_k.h"
#include "compression/compressors/sparse_wire.h"
#include "compression/compressors/top_k.h"
#include "compression/compressors/top_k_select.h"

namespace commsim {
namespace {

using compressor_test::Gaussian;

TopKConfig TopKCfg(int64_t k, double fraction, const std::string& coding) {
  TopKConfig c;
  c.k = k;
  c.fraction = fraction;
  c.index_coding = coding;
  return c;
}

TEST(TopKTest, KeepsTheLargestMagnitudesLikeAFullSort) {
  const Eigen::VectorXd x = Gaussian(5000, 1);
  for (const char* coding : {"fixed", "golomb"}) {
    const TopK c(TopKCfg(0, 0.01, coding));
    EXPECT_EQ(c.KFor(5000), 50);
    std::vector<int> order(5000);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return std::abs(x[a]) > std::abs(x[b]); });
    Eigen::VectorXd expected = Eigen::VectorXd::Zero(5000);
    for (int j = 0; j < 50; ++j) expected[order[j]] = static_cast<float>(x[order[j]]);
    Rng rng(1);
    Eigen::VectorXd out(5000);
    const Message m = c.Encode(x, rng);
    c.Decode(m, out);
    EXPECT_EQ(out, expected) << coding;
    if (std::string(coding) == "fixed") {
      EXPECT_EQ(m.payload_bits, 50 * 32 + 50 * CeilLog2(5000));
    } else {
      EXPECT_LT(m.payload_bits, 50 * 32 + 50 * CeilLog2(5000));
    }
  }
}

// Reference by full stable sort (ties: lower index first).
std::vector<uint32_t> SortedTopK(const Eigen::VectorXd& x, int64_t k) {
  std::vector<uint32_t> order(static_cast<size_t>(x.size()));
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return std::abs(x[a]) > std::abs(x[b]); });
  order.resize(static_cast<size_t>(k));
  std::sort(order.begin(), order.end());
  return order;
}

TEST(TopKTest, SampledThresholdPathSelectsExactlyTheTopK) {
  const int64_t d = 300000, k = 3000;
  const TopK c(TopKCfg(k, 0.01, "fixed"));
  Eigen::VectorXd gaussian = Gaussian(d, 9);
  Eigen::VectorXd ties(d), skewed(d), outlier = gaussian;
  for (int64_t i = 0; i < d; ++i) {
    ties[i] = (i % 7 == 0) ? 5.0 : gaussian[i] * 0.1;  // many exact ties at the threshold
    skewed[i] = 1e-3 * gaussian[i];
  }
  // The sample runs (top_k_select.h) hold the largest values: the estimated threshold keeps
  // fewer than k candidates and the selection falls back to all of x.
  for (int64_t r = 0; r < kSampleRuns; ++r) {
    const int64_t first = r * (d - kSampleRun) / (kSampleRuns - 1);
    for (int64_t i = first; i < first + kSampleRun; ++i)
      skewed[i] = 1.0 + static_cast<double>(i) / d;
  }
  outlier[d / 2] = 1e300;  // one huge magnitude: the histogram buckets of the final step are wide
  for (const Eigen::VectorXd* x : {&gaussian, &ties, &skewed, &outlier}) {
    EXPECT_EQ(c.Select(*x), SortedTopK(*x, k));
  }
}

TEST(TopKTest, TiesGoToTheLowerIndex) {
  Eigen::VectorXd x(6);
  x << 1.0, -2.0, 2.0, 0.5, -2.0, 2.0;
  const TopK c(TopKCfg(2, 0.01, "fixed"));
  Rng rng(1);
  Eigen::VectorXd out(6);
  c.Decode(c.Encode(x, rng), out);
  Eigen::VectorXd expected(6);
  expected << 0.0, -2.0, 2.0, 0.0, 0.0, 0.0;
  EXPECT_EQ(out, expected);
}

// Ties at the k-th magnitude before a larger value: the larger value is kept and only as many
// ties as fit, the lowest index first (keeping every tie would push the larger value out).
TEST(TopKTest, TiesBeforeALargerValueLeaveRoomForIt) {
  Eigen::VectorXd x(4);
  x << 1.0, -1.0, 1.0, 5.0;
  const TopKSelection s = SelectTopK("top_k", x, 2);
  EXPECT_EQ(s.idx, (std::vector<uint32_t>{0, 3}));
  EXPECT_EQ(s.values, (std::vector<double>{1.0, 5.0}));
}

TEST(TopKTest, ContractionAndKClamping) {
  const Eigen::VectorXd x = Gaussian(1000, 2);
  for (int64_t k : {1, 10, 500, 1000, 5000}) {
    const TopK c(TopKCfg(k, 0.01, "golomb"));
    Rng rng(1);
    Eigen::VectorXd out(1000);
    c.Decode(c.Encode(x, rng), out);
    const double kk = static_cast<double>(std::min<int64_t>(k, 1000));
    EXPECT_LE((x - out).squaredNorm(), (1 - kk / 1000 + 0x1p-40) * x.squaredNorm()) << k;
    EXPECT_EQ((out.array() != 0).count(), static_cast<int64_t>(kk));
  }
}

TEST(RandKTest, BitsAreExactAndTheSupportHasKEntries) {
  const Eigen::VectorXd x = Gaussian(3000, 3);
  for (bool scale : {false, true}) {
    RandKConfig cfg;
    cfg.k = 30;
    cfg.scale = scale;
    const RandK c(cfg);
    Rng rng(4);
    const Message m = c.Encode(x, rng);
    EXPECT_EQ(m.payload_bits, 64 + 32 * 30);
    Eigen::VectorXd out(3000);
    c.Decode(m, out);
    EXPECT_EQ((out.array() != 0).count(), 30);
    for (int64_t i = 0; i < 3000; ++i) {
      if (out[i] != 0) {
        EXPECT_EQ(out[i], (scale ? 100.0 : 1.0) * static_cast<double>(static_cast<float>(x[i])));
      }
    }
  }
}

TEST(RandKTest, SampleIndicesIsUniformAndDistinct) {
  std::vector<int> hits(20, 0);
  for (uint64_t seed = 0; seed < 4000; ++seed) {
    const std::vector<uint32_t> idx = SampleIndices(seed, 5, 20);
    ASSERT_EQ(idx.size(), 5u);
    ASSERT_TRUE(std::is_sorted(idx.begin(), idx.end()));
    ASSERT_EQ(std::adjacent_find(idx.begin(), idx.end()), idx.end());
    for (uint32_t i : idx) ++hits[i];
  }
  // Each index is kept with probability 1/4: 1000 expected, sd ~27.
  for (int h : hits) EXPECT_NEAR(h, 1000, 120);
  EXPECT_EQ(SampleIndices(1, 20, 20).size(), 20u);
}

TEST(RandKTest, UnscaledContractionInExpectation) {
  const Eigen::VectorXd x = Gaussian(200, 5);
  RandKConfig cfg;
  cfg.fraction = 0.1;
  const RandK c(cfg);
  Rng rng(6);
  double err = 0.0;
  Eigen::VectorXd out(200);
  for (int t = 0; t < 2000; ++t) {
    c.Decode(c.Encode(x, rng), out);
    err += (x - out).squaredNorm();
  }
  EXPECT_NEAR(err / 2000, 0.9 * x.squaredNorm(), 0.02 * x.squaredNorm());
  EXPECT_DOUBLE_EQ(c.ErrorFactor(200), 0.9);
}

}  // namespace
}  // namespace commsim
