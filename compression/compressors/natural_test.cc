// natural against hand-computed symbols, the probabilities of its definition (checked by
// counting), the two ends of the fp32 range and the error bound omega = 1/8.
#include "compression/compressors/natural.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "base/error.h"
#include "compression/coding/bit_writer.h"
#include "compression/compressors/compressor_test_util.h"

namespace commsim {
namespace {

using compressor_test::Gaussian;

Natural NaturalOf(const char* rng = "stream") {
  NaturalConfig cfg;
  cfg.rng = rng;
  return Natural(cfg);
}

Eigen::VectorXd NaturalRoundTrip(const Natural& c, const Eigen::VectorXd& x, Rng& rng,
                                 Message* message = nullptr) {
  Message m = c.Encode(x, rng);
  Eigen::VectorXd q(x.size());
  c.Decode(m, q);
  if (message != nullptr) *message = std::move(m);
  return q;
}

// Symbol j (9 bits) of a message.
uint64_t NaturalSymbol(const Message& m, int64_t j) {
  const int64_t bit = 9 * j;
  uint64_t v = m.words[static_cast<size_t>(bit / 64)] >> (bit % 64);
  if (bit % 64 > 55) v |= m.words[static_cast<size_t>(bit / 64 + 1)] << (64 - bit % 64);
  return v & 511;
}

// natural by its definition with the stream draws: one 53-bit draw u = NextU64() >> 11 per
// element in order; up when u < p 2^53, p = |x| / 2^a - 1 (|x| / 2^-126 below 2^-126).
Eigen::VectorXd NaturalReference(const Eigen::VectorXd& x, Rng& rng) {
  Eigen::VectorXd q(x.size());
  for (int64_t j = 0; j < x.size(); ++j) {
    const double u = static_cast<double>(rng.NextU64() >> 11);
    const double a = std::abs(x[j]);
    const double lo = a < 0x1p-126 ? 0.0 : std::ldexp(1.0, std::ilogb(a));
    const double p = lo == 0.0 ? a / 0x1p-126 : a / lo - 1.0;
    const double v = u < p * 0x1p53 ? (lo == 0.0 ? 0x1p-126 : 2 * lo) : lo;
    q[j] = std::signbit(x[j]) ? -v : v;
  }
  return q;
}

// Short inputs and inputs long enough for the stream draws to come from vectorised lanes
// (stream_lanes.h): the same values, and the caller's stream left in the same state.
TEST(NaturalTest, DecodedIsTheReferenceOperatorAndTheStreamEndsWhereItShould) {
  const Natural c = NaturalOf();
  for (Eigen::VectorXd x : compressor_test::ShortAndLongInputs(500, 100)) {
    x[3] = 1e-40;
    x[7] = -0x1p-140;
    Rng rng(9), ref_rng(9);
    const Eigen::VectorXd q = NaturalRoundTrip(c, x, rng);
    EXPECT_EQ(q, NaturalReference(x, ref_rng)) << x.size();
    EXPECT_EQ(rng.NextU64(), ref_rng.NextU64()) << x.size();
  }
}

// Powers of two and zeros are kept whatever the draws; their symbols are sign + (exponent + 127).
TEST(NaturalTest, PowersOfTwoAndZerosAreExactWithTheirSymbols) {
  Eigen::VectorXd x(8);
  x << 1.0, -0.5, 0.0, -0.0, 0x1p-126, 0x1p127, -0x1p-100, 8.0;
  const uint64_t symbols[8] = {127 << 1, (126 << 1) | 1, 0,       1, 1 << 1,
                               254 << 1, (27 << 1) | 1,  130 << 1};
  const Natural c = NaturalOf();
  for (uint64_t seed = 0; seed < 10; ++seed) {
    Rng rng(seed);
    Message m;
    const Eigen::VectorXd q = NaturalRoundTrip(c, x, rng, &m);
    ASSERT_EQ(m.payload_bits, 72);
    for (int64_t j = 0; j < 8; ++j) {
      EXPECT_EQ(std::bit_cast<uint64_t>(q[j]), std::bit_cast<uint64_t>(x[j])) << j;
      EXPECT_EQ(NaturalSymbol(m, j), symbols[j]) << j;
    }
  }
}

// 1.25 -> 2 with probability 1/4 (else 1); -3 -> -4 with 1/2 (else -2); 2^-127 (below fp32's
// normal range) -> 2^-126 with 1/2 (else 0); 3e38 -> 2^128 with 3e38/2^127 - 1 (else 2^127).
// Counted over many draws, within 5 standard errors of the binomial count.
TEST(NaturalTest, RoundsUpWithTheDefinitionsProbability) {
  struct Case {
    double x, lo, hi, p_up;
  };
  const Case cases[] = {{1.25, 1.0, 2.0, 0.25},
                        {-3.0, -2.0, -4.0, 0.5},
                        {0x1p-127, 0.0, 0x1p-126, 0.5},
                        {0x1.8p-140, 0.0, 0x1p-126, 0x1.8p-14},
                        {3e38, 0x1p127, 0x1p128, 3e38 / 0x1p127 - 1},
                        {-1.9, -1.0, -2.0, 0.9}};
  Eigen::VectorXd x(6);
  for (int j = 0; j < 6; ++j) x[j] = cases[j].x;
  for (const char* source : {"stream", "counter"}) {
    const Natural c = NaturalOf(source);
    const int trials = 40000;
    int up[6] = {};
    Rng rng(17);
    for (int t = 0; t < trials; ++t) {
      const Eigen::VectorXd q = NaturalRoundTrip(c, x, rng);
      for (int j = 0; j < 6; ++j) {
        ASSERT_TRUE(q[j] == cases[j].lo || q[j] == cases[j].hi) << j << " " << q[j];
        up[j] += q[j] == cases[j].hi ? 1 : 0;
      }
    }
    for (int j = 0; j < 6; ++j) {
      const double p = cases[j].p_up;
      const double se = std::sqrt(p * (1 - p) / trials);
      EXPECT_NEAR(static_cast<double>(up[j]) / trials, p, 5 * se + 1e-9) << source << " " << j;
    }
  }
}

// Unbiased on Gaussian input, with the per-coordinate variance (2^(a+1) - |x|)(|x| - 2^a), each
// within 5 standard errors.
TEST(NaturalTest, UnbiasedWithTheClosedFormVariance) {
  const Eigen::VectorXd x = Gaussian(12, 4);
  const Natural c = NaturalOf();
  const int trials = 40000;
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(12), sq = Eigen::VectorXd::Zero(12);
  Rng rng(5);
  for (int t = 0; t < trials; ++t) {
    const Eigen::VectorXd q = NaturalRoundTrip(c, x, rng);
    sum += q;
    sq += (q - x).cwiseAbs2();
  }
  double total = 0.0;
  for (int64_t j = 0; j < 12; ++j) {
    const double a = std::abs(x[j]);
    const double lo = std::exp2(std::floor(std::log2(a)));
    const double var = (2 * lo - a) * (a - lo);
    total += var;
    EXPECT_LE(var, x[j] * x[j] / 8 * (1 + 1e-12)) << j;
    EXPECT_NEAR(sum[j] / trials, x[j], 5 * std::sqrt(var / trials) + 1e-12) << j;
    // (Q - x)^2 takes two values, at most (2lo)^2 apart: a bound on its standard deviation.
    EXPECT_NEAR(sq[j] / trials, var, 5 * 4 * lo * lo / std::sqrt(trials)) << j;
  }
  EXPECT_DOUBLE_EQ(c.Expected(x).squared_error, total);
  EXPECT_DOUBLE_EQ(c.Expected(x).nonzeros, 12.0);
}

// omega = 1/8, approached at |x| = (4/3) 2^a; never exceeded on random input of any scale.
TEST(NaturalTest, ErrorFactorIsOneEighthAndTight) {
  const Natural c = NaturalOf();
  EXPECT_EQ(c.ErrorFactor(10), 0.125);
  Eigen::VectorXd worst(3);
  worst << 4.0 / 3.0, -8.0 / 3.0, 0x1p-100 * 4 / 3;
  EXPECT_NEAR(c.Expected(worst).squared_error / worst.squaredNorm(), 0.125, 1e-15);
  for (const double scale : {1e-30, 1.0, 1e30}) {
    const Eigen::VectorXd g = Gaussian(500, 6, scale);
    EXPECT_LE(c.Expected(g).squared_error, 0.125 * g.squaredNorm());
  }
  // Below 2^-126 the bound is additive (header): variance |x| (2^-126 - |x|).
  Eigen::VectorXd tiny(1);
  tiny << 0x1p-130;
  EXPECT_DOUBLE_EQ(c.Expected(tiny).squared_error, 0x1p-130 * (0x1p-126 - 0x1p-130));
  EXPECT_DOUBLE_EQ(c.Expected(tiny).nonzeros, 1.0 / 16);
}

TEST(NaturalTest, PayloadIsNineBitsPerValue) {
  const Natural c = NaturalOf();
  for (const int64_t d : {0, 1, 6, 7, 8, 255, 256, 257, 1000}) {
    const Eigen::VectorXd x = Gaussian(d, 8);
    Rng rng(1);
    EXPECT_EQ(c.Encode(x, rng).payload_bits, 9 * d) << d;
    EXPECT_EQ(c.Expected(x).payload_bits, 9.0 * static_cast<double>(d)) << d;
  }
}

// Every one of the 512 symbols decodes to +-2^(e - 127) (e = 0: a signed zero), all finite.
TEST(NaturalTest, EverySymbolDecodesToItsPower) {
  BitWriter w;
  for (uint64_t s = 0; s < 512; ++s) w.Put(s, 9);
  const Message m = w.Finish();
  Eigen::VectorXd out(512);
  NaturalOf().Decode(m, out);
  for (int s = 0; s < 512; ++s) {
    const int e = s >> 1;
    double v = e == 0 ? 0.0 : std::ldexp(1.0, e - 127);
    if ((s & 1) != 0) v = -v;
    EXPECT_EQ(std::bit_cast<uint64_t>(out[s]), std::bit_cast<uint64_t>(v)) << s;
  }
}

TEST(NaturalTest, ValuesBeyondFp32AreUserErrorsAndTheLargestFloatIsNot) {
  const Natural c = NaturalOf();
  const double max = std::numeric_limits<float>::max();
  Eigen::VectorXd x = Gaussian(20, 9);
  x[4] = -max;
  Rng rng(1);
  EXPECT_NO_THROW(c.Encode(x, rng));
  x[4] = std::nextafter(max, 1e300);
  try {
    c.Encode(x, rng);
    ADD_FAILURE();
  } catch (const NonFiniteError& e) {
    EXPECT_NE(std::string(e.what()).find("natural"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("index 4"), std::string::npos) << e.what();
  }
  EXPECT_THROW(c.Expected(x), NonFiniteError);
  x[15] = -std::numeric_limits<double>::infinity();  // named before the earlier value
  try {
    c.Encode(x, rng);
    ADD_FAILURE();
  } catch (const NonFiniteError& e) {
    EXPECT_NE(std::string(e.what()).find("index 15"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace commsim
