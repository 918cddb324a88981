// fp16 and int8 against hand-computed messages and values, the binary16 format written out with
// std::ldexp (and, where the compiler has it, its own _Float16 conversion), and the error bounds.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "base/error.h"
#include "compression/compressors/compressor_test_util.h"
#include "compression/compressors/fp16.h"
#include "compression/compressors/int8.h"

namespace commsim {
namespace {

using compressor_test::Gaussian;

// The value of binary16 pattern h, from the format's definition. REQUIRES: exponent code < 31.
double CastsHalfFormula(uint16_t h) {
  const int e = (h >> 10) & 31;
  const int f = h & 1023;
  const double magnitude = e == 0 ? std::ldexp(f, -24) : std::ldexp(1024 + f, e - 25);
  return (h & 0x8000) != 0 ? -magnitude : magnitude;
}

Eigen::VectorXd CastsVector(std::initializer_list<double> values) {
  Eigen::VectorXd x(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double v : values) x[i++] = v;
  return x;
}

// The 16-bit field of value j in a message.
uint16_t CastsField16(const Message& m, int64_t j) {
  return static_cast<uint16_t>(m.words[static_cast<size_t>(j / 4)] >> (16 * (j % 4)));
}

Message CastsEncode(const Compressor& c, const Eigen::VectorXd& x, uint64_t seed = 1) {
  Rng rng(seed);
  return c.Encode(x, rng);
}

Eigen::VectorXd CastsDecode(const Compressor& c, const Message& m, int64_t d) {
  Eigen::VectorXd out = Eigen::VectorXd::Constant(d, -7.0);
  c.Decode(m, out);
  return out;
}

TEST(Fp16Test, KnownHalvesAreExactPatternsAndValues) {
  struct Case {
    double x;
    uint16_t bits;
    double value;
  };
  const Case cases[] = {
      {1.0 / 3.0, 0x3555, 0.333251953125},
      {1.0, 0x3C00, 1.0},
      {-2.0, 0xC000, -2.0},
      {0.1, 0x2E66, 0.0999755859375},
      {65504.0, 0x7BFF, 65504.0},
      {-65504.0, 0xFBFF, -65504.0},
      {0x1p-14, 0x0400, 0x1p-14},                        // smallest normal
      {0x1p-24, 0x0001, 0x1p-24},                        // smallest subnormal
      {0x1p-25, 0x0000, 0.0},                            // half a unit: tie to even (zero)
      {0x1.8p-24, 0x0002, 0x1p-23},                      // 1.5 units: tie to even (2)
      {0x1p-25 + 0x1p-60, 0x0001, 0x1p-24},              // just above the tie
      {1.0 + 0x1p-11, 0x3C00, 1.0},                      // tie between 0x3C00 and 0x3C01: even
      {1.0 + 3 * 0x1p-11, 0x3C02, 1.0 + 0x1p-9},         // tie between 0x3C01 and 0x3C02: even
      {1.0 + 0x1p-11 + 0x1p-40, 0x3C01, 1.0 + 0x1p-10},  // via fp32 this would round to 1.0
      {0x1.ffcp-15, 0x0400, 0x1p-14},                    // subnormal rounding up into the normals
      {-0.0, 0x8000, -0.0},
      {1e-30, 0x0000, 0.0},
  };
  const Fp16 c{Fp16Config{}};
  for (const Case& t : cases) {
    EXPECT_EQ(HalfBits(t.x), t.bits) << t.x;
    const Message m = CastsEncode(c, CastsVector({t.x}));
    EXPECT_EQ(m.payload_bits, 16);
    EXPECT_EQ(CastsField16(m, 0), t.bits) << t.x;
    const Eigen::VectorXd q = CastsDecode(c, m, 1);
    EXPECT_EQ(std::bit_cast<uint64_t>(q[0]), std::bit_cast<uint64_t>(t.value)) << t.x;
  }
}

TEST(Fp16Test, FieldsArePackedInOrderFourPerWord) {
  const Fp16 c{Fp16Config{}};
  const Eigen::VectorXd x = CastsVector({1.0, -2.0, 1.0 / 3.0, 0.1, 65504.0});
  const Message m = CastsEncode(c, x);
  ASSERT_EQ(m.payload_bits, 80);
  ASSERT_EQ(m.words.size(), 2u);
  EXPECT_EQ(m.words[0], 0x2E663555C0003C00ULL);
  EXPECT_EQ(m.words[1], 0x7BFFULL);
}

// Every finite pattern: the decoder gives the format's value, and the encoder maps that value
// back to the pattern, the midpoint to its even neighbour, and points just inside to the nearer.
TEST(Fp16Test, EveryPatternDecodesToItsValueAndMidpointsRoundToEven) {
  for (uint32_t h = 0; h < 0x7C00; ++h) {
    for (uint32_t sign : {0u, 0x8000u}) {
      const auto bits = static_cast<uint16_t>(h | sign);
      ASSERT_EQ(std::bit_cast<uint64_t>(HalfValue(bits)),
                std::bit_cast<uint64_t>(CastsHalfFormula(bits)))
          << bits;
      ASSERT_EQ(HalfBits(CastsHalfFormula(bits)), bits);
    }
    if (h + 1 >= 0x7C00) continue;
    const double lo = CastsHalfFormula(static_cast<uint16_t>(h));
    const double hi = CastsHalfFormula(static_cast<uint16_t>(h + 1));
    const double mid = (lo + hi) / 2;  // exact: one more bit than a half
    ASSERT_EQ(HalfBits(mid), (h % 2 == 0) ? h : h + 1) << h;
    ASSERT_EQ(HalfBits(std::nextafter(mid, 0.0)), h) << h;
    ASSERT_EQ(HalfBits(std::nextafter(mid, 1e9)), h + 1) << h;
    ASSERT_EQ(HalfBits(-std::nextafter(mid, 1e9)), (h + 1) | 0x8000) << h;
  }
}

#ifdef __FLT16_MAX__
// The compiler's own binary16 conversion from double agrees on random values of every magnitude.
TEST(Fp16Test, AgreesWithTheCompilersFloat16Conversion) {
  Rng rng(5);
  for (int i = 0; i < 200000; ++i) {
    const double x = std::ldexp(rng.Uniform() * 2 - 1, static_cast<int>(rng.UniformInt(42)) - 26);
    const _Float16 h = static_cast<_Float16>(x);
    ASSERT_EQ(HalfBits(x), std::bit_cast<uint16_t>(h)) << x;
  }
}
#endif

TEST(Fp16Test, PayloadIsSixteenBitsPerValueAndRelativeErrorAtMostTwoToMinusEleven) {
  const Fp16 c{Fp16Config{}};
  for (const int64_t d : {0, 1, 3, 4, 5, 1001}) {
    for (const double scale : {1e-3, 1.0, 1000.0}) {
      const Eigen::VectorXd x = Gaussian(d, 7, scale);
      const Message m = CastsEncode(c, x);
      EXPECT_EQ(m.payload_bits, 16 * d);
      EXPECT_EQ(c.Expected(x).payload_bits, 16.0 * static_cast<double>(d));
      const Eigen::VectorXd q = CastsDecode(c, m, d);
      double err = 0.0;
      for (int64_t j = 0; j < d; ++j) {
        if (std::abs(x[j]) >= 0x1p-14) {
          EXPECT_LE(std::abs(q[j] - x[j]), 0x1p-11 * std::abs(x[j])) << x[j];
        } else {
          EXPECT_LE(std::abs(q[j] - x[j]), 0x1p-25) << x[j];  // subnormal: absolute
        }
        err += (q[j] - x[j]) * (q[j] - x[j]);
      }
      EXPECT_DOUBLE_EQ(c.Expected(x).squared_error, err);
      if (scale >= 1.0) {  // no value in the subnormal range (the header's caveat)
        EXPECT_LE(err, c.ErrorFactor(d) * x.squaredNorm());
      }
    }
  }
  EXPECT_EQ(c.ErrorFactor(10), 0x1p-22);
  EXPECT_FALSE(c.unbiased());
}

TEST(Fp16Test, ValuesBeyondTheHalfRangeAreUserErrorsNamingTheIndex) {
  const Fp16 c{Fp16Config{}};
  for (const double bad : {65504.5, -65519.0, 70000.0, 1e30, -1e300}) {
    Eigen::VectorXd x = Gaussian(10, 3);
    x[6] = bad;
    Rng rng(1);
    try {
      c.Encode(x, rng);
      ADD_FAILURE() << "no error for " << bad;
    } catch (const NonFiniteError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("fp16"), std::string::npos) << what;
      EXPECT_NE(what.find("index 6"), std::string::npos) << what;
      EXPECT_NE(what.find("65504"), std::string::npos) << what;
    }
    EXPECT_THROW(c.Expected(x), NonFiniteError);
  }
  // A NaN later in the input is named first, as a check up front would.
  Eigen::VectorXd x = Gaussian(10, 3);
  x[2] = 1e6;
  x[8] = std::nan("");
  Rng rng(1);
  try {
    c.Encode(x, rng);
    ADD_FAILURE() << "no error";
  } catch (const NonFiniteError& e) {
    EXPECT_NE(std::string(e.what()).find("index 8"), std::string::npos) << e.what();
  }
}

TEST(Fp16Test, InfAndNaNPatternsAreDecodeErrors) {
  const Fp16 c{Fp16Config{}};
  for (const uint64_t pattern : {0x7C00ULL, 0xFC00ULL, 0x7E00ULL, 0x7FFFULL}) {
    Message m;
    m.payload_bits = 32;
    m.words = {0x3C00ULL | (pattern << 16)};
    Eigen::VectorXd out(2);
    EXPECT_THROW(c.Decode(m, out), DecodeError) << pattern;
  }
}

Int8 CastsInt8(int64_t block, bool stochastic = false, const char* rng = "stream") {
  Int8Config cfg;
  cfg.block = block;
  cfg.stochastic = stochastic;
  cfg.rng = rng;
  return Int8(cfg);
}

TEST(Int8Test, HandComputedBlockIsTheExactMessage) {
  // M = 1, t = 127 |x|: 127, 63.5 (a half: away from zero), 31.75, 38.1.
  const Int8 c = CastsInt8(4);
  const Eigen::VectorXd x = CastsVector({1.0, -0.5, 0.25, 0.3});
  const Message m = CastsEncode(c, x);
  ASSERT_EQ(m.payload_bits, 64);
  EXPECT_EQ(m.words[0], 0x26'20'C0'7F'3F800000ULL);  // codes 38, 32, -64, 127; M = 1.0f
  const Eigen::VectorXd q = CastsDecode(c, m, 4);
  EXPECT_EQ(q, CastsVector({1.0, -64.0 / 127.0, 32.0 / 127.0, 38.0 / 127.0}));
  EXPECT_EQ(c.Expected(x).nonzeros, 4.0);
  EXPECT_DOUBLE_EQ(c.Expected(x).squared_error, (q - x).squaredNorm());
}

TEST(Int8Test, BlocksAndBitsAndTheExactBlockMaximum) {
  const Int8 c = CastsInt8(3);
  // Blocks {0.1, -0.05, 0}, {-2.5, 0}: M = 0.1 rounded up to fp32, and 2.5.
  const Eigen::VectorXd x = CastsVector({0.1, -0.05, 0.0, -2.5, 0.0});
  const Message m = CastsEncode(c, x);
  EXPECT_EQ(m.payload_bits, 2 * 32 + 8 * 5);
  const Eigen::VectorXd q = CastsDecode(c, m, 5);
  float m0 = 0.1f;
  if (static_cast<double>(m0) < 0.1) m0 = std::nextafter(m0, 1.0f);
  EXPECT_EQ(q[0], static_cast<double>(m0));  // q = 127 decodes to M exactly
  EXPECT_EQ(q[1], -63.0 * m0 / 127.0);       // 0.05 / m0 * 127 = 63.499999...: level 63
  EXPECT_EQ(q[2], 0.0);
  EXPECT_EQ(q[3], -2.5);
  EXPECT_EQ(q[4], 0.0);
  for (const int64_t d : {1, 2, 3, 4, 300}) {
    const Eigen::VectorXd g = Gaussian(d, 9);
    const int64_t blocks = (d + 2) / 3;
    EXPECT_EQ(CastsEncode(c, g).payload_bits, 32 * blocks + 8 * d) << d;
    EXPECT_EQ(c.Expected(g).payload_bits, static_cast<double>(32 * blocks + 8 * d)) << d;
  }
}

TEST(Int8Test, DeterministicErrorIsWithinHalfAStepAndTheErrorFactor) {
  const Int8 c = CastsInt8(256);
  const Eigen::VectorXd x = Gaussian(1000, 11);
  const Eigen::VectorXd q = CastsDecode(c, CastsEncode(c, x), 1000);
  for (int64_t begin = 0; begin < 1000; begin += 256) {
    const int64_t n = std::min<int64_t>(256, 1000 - begin);
    const double step = x.segment(begin, n).cwiseAbs().maxCoeff() / 127.0;
    for (int64_t j = begin; j < begin + n; ++j) {
      EXPECT_LE(std::abs(q[j] - x[j]), step / 2 * (1 + 1e-6)) << j;
    }
  }
  EXPECT_DOUBLE_EQ(c.ErrorFactor(1000), 255.0 / (4 * 127.0 * 127.0));
  EXPECT_DOUBLE_EQ(c.ErrorFactor(10), 9.0 / (4 * 127.0 * 127.0));
  EXPECT_LE((q - x).squaredNorm(), c.ErrorFactor(1000) * x.squaredNorm());
  const double err = (q - x).squaredNorm();  // summed in another order than Expected's
  EXPECT_NEAR(c.Expected(x).squared_error, err, 1e-12 * err);
  EXPECT_FALSE(c.unbiased());
}

// Stochastic rounding: only the two neighbouring levels, each as often as its probability, so
// the mean is x. Tolerance: 5 standard errors of the mean over the draws (variance
// s^2 p (1 - p) per coordinate), for both draw sources.
TEST(Int8Test, StochasticRoundingIsUnbiasedBetweenTheTwoNeighbouringLevels) {
  const Eigen::VectorXd x = CastsVector({1.0, 0.3, -0.7, 0.001, 0.0, -0.5});
  for (const char* source : {"stream", "counter"}) {
    const Int8 c = CastsInt8(256, true, source);
    EXPECT_TRUE(c.unbiased());
    const int trials = 20000;
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(6);
    Rng rng(21);
    Eigen::VectorXd q(6);
    for (int t = 0; t < trials; ++t) {
      c.Decode(c.Encode(x, rng), q);
      for (int64_t j = 0; j < 6; ++j) {
        const double level = q[j] * 127.0;  // M = 1
        const double lo = std::floor(std::abs(x[j]) * 127.0);
        ASSERT_TRUE(std::abs(std::abs(level) - lo) < 1e-9 ||
                    std::abs(std::abs(level) - lo - 1) < 1e-9)
            << j << " " << level;
      }
      sum += q;
    }
    for (int64_t j = 0; j < 6; ++j) {
      const double t = std::abs(x[j]) * 127.0;
      const double p = t - std::floor(t);
      const double se = std::sqrt(p * (1 - p) / trials) / 127.0;
      EXPECT_NEAR(sum[j] / trials, x[j], 5 * se + 1e-12) << source << " " << j;
    }
  }
}

// Stochastic int8 by its definition with the stream draws: per block M = max |x| rounded up to
// fp32; for every element of a block with M > 0, one draw u = NextU64() >> 11, level
// floor(t) + [u < (t - floor(t)) 2^53] with t = |x| / M * 127, decoded level * M / 127.
Eigen::VectorXd CastsInt8Reference(const Eigen::VectorXd& x, int64_t block, Rng& rng) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(x.size());
  for (int64_t begin = 0; begin < x.size(); begin += block) {
    const int64_t n = std::min(block, x.size() - begin);
    const double m = compressor_test::NormUp(x.segment(begin, n), /*inf=*/true);
    if (m == 0.0) continue;
    for (int64_t j = begin; j < begin + n; ++j) {
      const double u = static_cast<double>(rng.NextU64() >> 11);
      const double t = std::abs(x[j]) / m * 127;
      const double level = std::floor(t) + (u < (t - std::floor(t)) * 0x1p53 ? 1 : 0);
      q[j] = (std::signbit(x[j]) ? -level : level) * m / 127;
    }
  }
  return q;
}

// Short inputs and inputs long enough for the stream draws to come from vectorised lanes, with a
// zero block (draws nothing): the same values, and the caller's stream left in the same state.
TEST(Int8Test, StochasticIsTheReferenceOperatorAndTheStreamEndsWhereItShould) {
  const Int8 c = CastsInt8(100, true);
  for (const Eigen::VectorXd& x : compressor_test::ShortAndLongInputs(500, 100)) {
    Rng rng(3), ref_rng(3);
    const Eigen::VectorXd q = CastsDecode(c, c.Encode(x, rng), x.size());
    EXPECT_EQ(q, CastsInt8Reference(x, 100, ref_rng)) << x.size();
    EXPECT_EQ(rng.NextU64(), ref_rng.NextU64()) << x.size();
  }
}

TEST(Int8Test, OutOfRangeInputAndCorruptCodes) {
  const Int8 c = CastsInt8(4);
  Eigen::VectorXd x = Gaussian(8, 2);
  x[5] = 1e39;
  Rng rng(1);
  EXPECT_THROW(c.Encode(x, rng), NonFiniteError);
  x[5] = std::numeric_limits<double>::infinity();
  try {
    c.Encode(x, rng);
    ADD_FAILURE();
  } catch (const NonFiniteError& e) {
    EXPECT_NE(std::string(e.what()).find("int8"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("index 5"), std::string::npos) << e.what();
  }
  Message m = CastsEncode(c, CastsVector({1.0, 0.5}));
  m.words[0] = (m.words[0] & 0xFFFFFFFFULL) | (0x80ULL << 40);  // second code: -128
  Eigen::VectorXd out(2);
  EXPECT_THROW(c.Decode(m, out), DecodeError);
}

}  // namespace
}  // namespace commsim
