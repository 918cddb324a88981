#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "base/rng.h"
#include "compression/coding/elias.h"
#include "compression/coding/elias_test_util.h"
#include "compression/coding/golomb.h"

namespace commsim {
namespace {

// Values covering small numbers, powers of two and their neighbours, and the 64-bit extremes.
std::vector<uint64_t> TestValues() {
  std::vector<uint64_t> v;
  for (uint64_t x = 1; x <= 300; ++x) v.push_back(x);
  for (int k = 1; k < 64; ++k) {
    v.push_back((uint64_t{1} << k) - 1);
    v.push_back(uint64_t{1} << k);
    v.push_back((uint64_t{1} << k) + 1);
  }
  v.push_back(std::numeric_limits<uint64_t>::max());
  return v;
}

// A code's textbook lengths: bits(x) for some x, worked out by hand.
using KnownLengths = std::vector<std::pair<uint64_t, int>>;

// The known lengths, then every test value through put/get: the lengths bits(x) written, the
// values read back, truncations rejected.
template <class Put, class Get, class Bits>
void CheckCode(Put put, Get get, Bits bits, const KnownLengths& known) {
  for (const auto& [x, length] : known) EXPECT_EQ(bits(x), length) << "x = " << x;
  const std::vector<uint64_t> values = TestValues();
  BitWriter w;
  int64_t expected = 0;
  for (uint64_t x : values) {
    const int64_t before = w.bits();
    put(w, x);
    ASSERT_EQ(w.bits() - before, bits(x)) << "x = " << x;
    expected += bits(x);
  }
  const Message m = w.Finish();
  ASSERT_EQ(m.payload_bits, expected);
  BitReader r(m);
  for (uint64_t x : values) ASSERT_EQ(get(r), x);
  r.ExpectEnd();
  // Every strict prefix of the last code word is a truncation error.
  BitWriter one;
  put(one, values.back());
  Message last = one.Finish();
  for (int64_t cut = 0; cut < last.payload_bits; ++cut) {
    Message t = last;
    t.payload_bits = cut;
    BitReader rt(t);
    EXPECT_THROW(get(rt), DecodeError) << "cut " << cut;
  }
}

TEST(EliasTest, GammaLengthsAndRoundTrip) {
  for (uint64_t x = 1; x < 5000; ++x) {
    ASSERT_EQ(EliasGammaBits(x), 2 * static_cast<int>(std::floor(std::log2(x))) + 1);
  }
  CheckCode([](BitWriter& w, uint64_t x) { PutEliasGamma(w, x); }, GetEliasGamma, EliasGammaBits,
            {{1, 1}, {2, 3}, {7, 5}, {8, 7}});
}

TEST(EliasTest, DeltaLengthsAndRoundTrip) {
  CheckCode(PutEliasDelta, GetEliasDelta, EliasDeltaBits,
            {{1, 1}, {2, 4}, {4, 5}, {16, 9}, {17, 9}});
}

TEST(EliasTest, OmegaLengthsAndRoundTrip) {
  // Textbook omega code lengths: 1 -> "0", 2 -> "10 0", 4 -> "10 100 0", 16 -> "10 100 10000 0".
  CheckCode(PutEliasOmega, GetEliasOmega, EliasOmegaBits,
            {{1, 1}, {2, 3}, {3, 3}, {4, 6}, {7, 6}, {8, 7}, {16, 11}, {100, 13}});
}

using elias_test::OmegaStreamBits;
using elias_test::StreamBits;

// The encoder writes exactly the defined bits, and the decoder (whose fast path reads a 64-bit
// window and falls back near the end of the stream) reads them back, at every offset in a word.
TEST(EliasTest, OmegaBitsFollowTheDefinitionAtEveryOffset) {
  const std::vector<uint64_t> values = TestValues();
  for (int offset = 0; offset < 64; offset += 7) {
    BitWriter w;
    w.PutZeros(offset);
    std::string expected(static_cast<size_t>(offset), '0');
    for (uint64_t x : values) {
      PutEliasOmega(w, x);
      expected += OmegaStreamBits(x);
    }
    const Message m = w.Finish();
    ASSERT_EQ(StreamBits(m), expected) << "offset " << offset;
    BitReader r(m);
    r.Skip(offset);
    for (uint64_t x : values) ASSERT_EQ(GetEliasOmega(r), x) << "offset " << offset;
    r.ExpectEnd();
  }
}

TEST(EliasTest, OverlongCodesAreDecodeErrors) {
  BitWriter w;
  w.PutZeros(64);  // a gamma prefix announcing a 64-bit payload
  w.PutBit(true);
  w.PutZeros(64);
  const Message m = w.Finish();
  BitReader r(m);
  EXPECT_THROW(GetEliasGamma(r), DecodeError);
  BitWriter ones;
  for (int i = 0; i < 8; ++i) ones.Put(~uint64_t{0}, 64);  // omega groups that keep growing
  const Message mo = ones.Finish();
  BitReader ro(mo);
  EXPECT_THROW(GetEliasOmega(ro), DecodeError);
}

TEST(GolombTest, LengthsMatchTheDefinition) {
  // M = 5: b = 3, u = 3: remainders 0..2 take 2 bits, 3..4 take 3 bits.
  const GolombCode g5(5);
  EXPECT_EQ(g5.Bits(0), 1 + 2);
  EXPECT_EQ(g5.Bits(2), 1 + 2);
  EXPECT_EQ(g5.Bits(3), 1 + 3);
  EXPECT_EQ(g5.Bits(4), 1 + 3);
  EXPECT_EQ(g5.Bits(5), 2 + 2);
  EXPECT_EQ(g5.Bits(12), 3 + 2);
  EXPECT_EQ(GolombCode(1).Bits(9), 10);      // unary
  EXPECT_EQ(GolombCode(8).Bits(17), 3 + 3);  // Rice(3)
}

TEST(GolombTest, RoundTripForManyParameters) {
  Rng rng(3);
  for (uint64_t m : {1, 2, 3, 5, 7, 8, 10, 64, 100, 1000}) {
    const GolombCode code(m);
    std::vector<uint64_t> values;
    for (int i = 0; i < 2000; ++i) values.push_back(rng.UniformInt(20 * m));
    values.push_back(0);
    values.push_back(200 * m + m - 1);  // long unary run across words
    BitWriter w;
    int64_t bits = 0;
    for (uint64_t v : values) {
      code.Put(w, v);
      bits += code.Bits(v);
    }
    const Message msg = w.Finish();
    ASSERT_EQ(msg.payload_bits, bits);
    BitReader r(msg);
    for (uint64_t v : values) ASSERT_EQ(code.Get(r, 1'000'000), v) << "M = " << m;
    r.ExpectEnd();
  }
}

// Parameters and values around 2^32 and small ones: each value's code is q = v / m zeros, a one,
// then the truncated-binary remainder (read back here bit by bit, the oracle written out).
TEST(GolombTest, CodesAtTheEdgesOfParametersAndValues) {
  const uint64_t big = uint64_t{1} << 32;
  for (uint64_t m : {uint64_t{2}, uint64_t{3}, uint64_t{7}, uint64_t{641}, uint64_t{6700417},
                     big / 2 - 1, big - 1, big, big + 3}) {
    for (uint64_t v : {uint64_t{0}, m - 1, m, 2 * m - 1, 3 * m + 1, big - 2, big - 1, big, big + 1,
                       60 * m, 60 * m + m - 1}) {
      const uint64_t q = v / m;
      if (q > 4096) continue;  // keep the unary run short
      const GolombCode code(m);
      BitWriter w;
      code.Put(w, v);
      const Message msg = w.Finish();
      BitReader r(msg);
      uint64_t zeros = 0;
      while (r.Get(1) == 0) ++zeros;
      EXPECT_EQ(zeros, q) << "m " << m << " v " << v;
      const int b = CeilLog2(m);
      const uint64_t u = (uint64_t{1} << b) - m;
      uint64_t rem = b > 0 ? r.Get(b - 1) : 0;
      if (b > 0 && rem >= u) rem = ((rem << 1) | r.Get(1)) - u;
      EXPECT_EQ(rem, v % m) << "m " << m << " v " << v;
      r.ExpectEnd();
      EXPECT_EQ(code.Bits(v), msg.payload_bits) << "m " << m << " v " << v;
    }
  }
}

TEST(GolombTest, RiceIsGolombWithPowerOfTwo) {
  BitWriter w;
  PutRice(w, 37, 4);
  const Message m = w.Finish();
  EXPECT_EQ(m.payload_bits, 37 / 16 + 1 + 4);
  BitReader r(m);
  EXPECT_EQ(GetRice(r, 4, 100), 37u);
}

TEST(GolombTest, ValuesAboveTheLimitAndTruncationAreDecodeErrors) {
  const GolombCode code(4);
  BitWriter w;
  code.Put(w, 50);
  const Message m = w.Finish();
  BitReader r(m);
  EXPECT_THROW(code.Get(r, 49), DecodeError);
  Message t = m;
  t.payload_bits -= 1;
  BitReader rt(t);
  EXPECT_THROW(code.Get(rt, 100), DecodeError);
}

TEST(GolombTest, ParameterForGeometricSources) {
  EXPECT_EQ(GolombParameterFor(1.0), 1u);
  EXPECT_EQ(GolombParameterFor(0.5), 1u);
  // p = 0.1: -log(1.9)/log(0.9) = 6.09 -> 7.
  EXPECT_EQ(GolombParameterFor(0.1), 7u);
  // p = 0.01: -log(1.99)/log(0.99) = 68.5 -> 69.
  EXPECT_EQ(GolombParameterFor(0.01), 69u);
}

TEST(ZigZagTest, MapsSignedToUnsignedInterleaved) {
  EXPECT_EQ(ZigZag(0), 0u);
  EXPECT_EQ(ZigZag(-1), 1u);
  EXPECT_EQ(ZigZag(1), 2u);
  EXPECT_EQ(ZigZag(-2), 3u);
  EXPECT_EQ(ZigZag(std::numeric_limits<int64_t>::min()), std::numeric_limits<uint64_t>::max());
  for (int64_t v : {int64_t{0}, int64_t{5}, int64_t{-7}, std::numeric_limits<int64_t>::max(),
                    std::numeric_limits<int64_t>::min()}) {
    EXPECT_EQ(UnZigZag(ZigZag(v)), v);
  }
}

}  // namespace
}  // namespace commsim
