#include "compression/compressors/dgc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <vector>

#include "base/error.h"
#include "compression/coding/bit_writer.h"
#include "compression/compressors/compressor_test_util.h"

namespace commsim {
namespace dgc_test {

using compressor_test::Gaussian;

Dgc Make(double ratio, double sample_fraction = 0.01, int64_t min_sample = 100,
         const char* coding = "fixed") {
  DgcConfig cfg;
  cfg.ratio = ratio;
  cfg.sample_fraction = sample_fraction;
  cfg.min_sample = min_sample;
  cfg.index_coding = coding;
  return Dgc(cfg);
}

// d = 6 <= min_sample, so every element is sampled: ratio 0.5 gives k = k_s = 3 and the
// threshold is the third largest magnitude, 2: -5, 2 and -3 are kept. Wire: the count 3 in
// ceil(log2 4) = 2 bits, indices 1, 2, 4 in ceil(log2 6) = 3 bits each, then three fp32 values:
// 2 + 9 + 96 = 107 bits.
TEST(DgcTest, HandComputedMessage) {
  Eigen::VectorXd x(6);
  x << 0.1, -5.0, 2.0, 0.0, -3.0, 1.0;
  const Dgc q = Make(0.5);
  Rng rng(1);
  const Message m = q.Encode(x, rng);
  ASSERT_EQ(m.payload_bits, 107);
  BitReader r(m);
  EXPECT_EQ(r.Get(2), 3u);
  EXPECT_EQ(r.Get(3), 1u);
  EXPECT_EQ(r.Get(3), 2u);
  EXPECT_EQ(r.Get(3), 4u);
  EXPECT_EQ(r.GetFloat(), -5.0f);
  EXPECT_EQ(r.GetFloat(), 2.0f);
  EXPECT_EQ(r.GetFloat(), -3.0f);
  Eigen::VectorXd out(6), expected(6);
  q.Decode(m, out);
  expected << 0, -5, 2, 0, -3, 0;
  EXPECT_EQ(out, expected);
  const Expectation e = q.Expected(x);
  EXPECT_EQ(e.payload_bits, 107.0);
  EXPECT_DOUBLE_EQ(e.squared_error, 0.01 + 1.0);
  EXPECT_EQ(e.nonzeros, 3.0);
  EXPECT_DOUBLE_EQ(q.ErrorFactor(6), 0.5);
}

// Equal magnitudes: the threshold selects all 20, more than k = 2, so the exact top 2 among
// them are kept, ties to the lower index.
TEST(DgcTest, MoreThanKSelectedKeepsTheTopKLowerIndexFirst) {
  Eigen::VectorXd x(20);
  for (int j = 0; j < 20; ++j) x[j] = j % 2 == 0 ? 1.0 : -1.0;
  x[13] = 1.5;
  const Dgc q = Make(0.1);
  Rng rng(2);
  Eigen::VectorXd out(20);
  q.Decode(q.Encode(x, rng), out);
  Eigen::VectorXd expected = Eigen::VectorXd::Zero(20);
  expected[0] = 1.0;
  expected[13] = 1.5;
  EXPECT_EQ(out, expected);
}

// With every element sampled (d <= min_sample) dgc is top_k: compared with a full sort here.
TEST(DgcTest, WholeSampleIsTopK) {
  const int64_t d = 90;
  const Eigen::VectorXd x = Gaussian(d, 3);
  const Dgc q = Make(0.1);  // k = 9
  std::vector<int> order(d);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return std::abs(x[a]) > std::abs(x[b]); });
  Eigen::VectorXd expected = Eigen::VectorXd::Zero(d);
  for (int i = 0; i < 9; ++i) expected[order[i]] = static_cast<float>(x[order[i]]);
  Rng rng(4);
  const Message m = q.Encode(x, rng);
  EXPECT_EQ(m.payload_bits, 4 + 9 * (7 + 32));  // ceil(log2 10) = 4, ceil(log2 90) = 7
  Eigen::VectorXd out(d);
  q.Decode(m, out);
  EXPECT_EQ(out, expected);
  EXPECT_DOUBLE_EQ(q.ErrorFactor(d), 1.0 - 9.0 / 90.0);
}

// A sampled threshold (d = 100000, m = 1000): whatever the sample, the kept entries are the
// largest magnitudes of x (none left out is larger than one kept), at least k_s and at most k of
// them. ratio 0.01: k = 1000, k_s = 10; the threshold is the sample's 10th largest, so about
// 10 d / (m + 1) = 999 are selected on average: the mean kept count over 50 encodings is within
// [800, 1000].
TEST(DgcTest, SampledThresholdKeepsTheLargestAndAboutK) {
  const int64_t d = 100000;
  const Eigen::VectorXd x = Gaussian(d, 5);
  const Dgc q = Make(0.01);
  ASSERT_EQ(q.TargetCount(d), 1000);
  ASSERT_EQ(q.SampleSize(d), 1000);
  ASSERT_EQ(q.SampleCount(d), 10);
  EXPECT_DOUBLE_EQ(q.ErrorFactor(d), 1.0 - 10.0 / d);
  Rng rng(6);
  Eigen::VectorXd out(d);
  double kept_sum = 0.0;
  for (int t = 0; t < 50; ++t) {
    q.Decode(q.Encode(x, rng), out);
    double min_kept = INFINITY, max_dropped = 0.0;
    int64_t kept = 0;
    for (int64_t j = 0; j < d; ++j) {
      if (out[j] != 0.0) {
        ++kept;
        min_kept = std::min(min_kept, std::abs(x[j]));
        EXPECT_EQ(out[j], static_cast<float>(x[j]));
      } else {
        max_dropped = std::max(max_dropped, std::abs(x[j]));
      }
    }
    EXPECT_GE(min_kept, max_dropped) << t;
    EXPECT_GE(kept, 10) << t;
    EXPECT_LE(kept, 1000) << t;
    kept_sum += static_cast<double>(kept);
  }
  EXPECT_GE(kept_sum / 50, 800.0);
  EXPECT_LE(kept_sum / 50, 1000.0);
}

// The defaults: ratio 0.001 (k = 100 of 100000), a 1% sample of 1000 with k_s = 1: the
// threshold is the sample's maximum, about d / (m + 1) = 100 entries exceed it.
TEST(DgcTest, DefaultsAndTheirErrorFactor) {
  const Dgc q{DgcConfig{}};
  EXPECT_EQ(q.TargetCount(100000), 100);
  EXPECT_EQ(q.SampleSize(100000), 1000);
  EXPECT_EQ(q.SampleSize(5000), 100);  // min_sample
  EXPECT_EQ(q.SampleSize(60), 60);
  EXPECT_EQ(q.SampleCount(100000), 1);
  EXPECT_DOUBLE_EQ(q.ErrorFactor(100000), 1.0 - 1e-5);
  EXPECT_FALSE(q.unbiased());
}

// The golomb index coding reads back what it wrote; with every element sampled its bits are
// exact for the input: count + Golomb gaps + 32 per value.
TEST(DgcTest, GolombIndicesRoundTrip) {
  const Eigen::VectorXd x = Gaussian(80, 7);
  const Dgc fixed = Make(0.1), golomb = Make(0.1, 0.01, 100, "golomb");
  Rng a(8), b(8);
  Eigen::VectorXd out_fixed(80), out_golomb(80);
  fixed.Decode(fixed.Encode(x, a), out_fixed);
  const Message m = golomb.Encode(x, b);
  golomb.Decode(m, out_golomb);
  EXPECT_EQ(out_fixed, out_golomb);
  EXPECT_EQ(static_cast<double>(m.payload_bits), golomb.Expected(x).payload_bits);
}

TEST(DgcTest, ZeroInputSendsOnlyTheCount) {
  const Dgc q = Make(0.1);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(50);
  Rng rng(1);
  const Message m = q.Encode(zero, rng);
  EXPECT_EQ(m.payload_bits, 3);  // k = 5: ceil(log2 6)
  Eigen::VectorXd out = Eigen::VectorXd::Constant(50, 4.0);
  q.Decode(m, out);
  EXPECT_EQ(out, zero);
}

// k = 2 (ratio 1/3 of d = 6) leaves room for a count of 3 in the 2-bit field: a decode error.
TEST(DgcTest, CountAboveKIsADecodeError) {
  const Dgc q = Make(1.0 / 3.0);
  ASSERT_EQ(q.TargetCount(6), 2);
  BitWriter w;
  w.Put(3, 2);
  for (uint64_t i : {0, 1, 2}) w.Put(i, 3);
  for (int i = 0; i < 3; ++i) w.PutFloat(1.0f);
  const Message m = w.Finish();
  Eigen::VectorXd out(6);
  EXPECT_THROW(q.Decode(m, out), DecodeError);
}

// One draw from the caller's stream per message (the sample's seed), whatever d.
TEST(DgcTest, DrawsOneNumberPerMessage) {
  const Dgc q{DgcConfig{}};
  for (int64_t d : {10, 5000}) {
    Rng rng(3), expected(3);
    q.Encode(Gaussian(d, 9), rng);
    expected.NextU64();
    EXPECT_EQ(rng.NextU64(), expected.NextU64()) << d;
  }
}

}  // namespace dgc_test
}  // namespace commsim
