#include "compression/coding/vector_source_code.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "base/rng.h"
#include "compression/coding/elias.h"

namespace commsim {
namespace {

Message Encode(const std::vector<int32_t>& z) {
  BitWriter w;
  PutVectorSourceCode(w, z);
  return w.Finish();
}

std::vector<int32_t> Decode(const Message& m, size_t d) {
  std::vector<int32_t> z(d, 12345);
  BitReader r(m);
  GetVectorSourceCode(r, z);
  r.ExpectEnd();
  return z;
}

// Sparse integer vector: zero with probability p0, else a small signed level.
std::vector<int32_t> Draw(size_t d, double p0, int max_level, uint64_t seed) {
  Rng rng(seed);
  std::vector<int32_t> z(d);
  for (int32_t& v : z) {
    if (rng.Uniform() < p0) {
      v = 0;
    } else {
      const int32_t level =
          1 + static_cast<int32_t>(rng.UniformInt(static_cast<uint64_t>(max_level)));
      v = rng.Uniform() < 0.5 ? -level : level;
    }
  }
  return z;
}

TEST(VectorSourceCodeTest, RoundTrip) {
  for (double p0 : {0.0, 0.5, 0.9, 0.999}) {
    const std::vector<int32_t> z = Draw(3000, p0, 4, 1);
    EXPECT_EQ(Decode(Encode(z), z.size()), z) << "p0 = " << p0;
  }
}

TEST(VectorSourceCodeTest, EdgeCases) {
  const std::vector<int32_t> zeros(100, 0);
  const Message mz = Encode(zeros);
  EXPECT_EQ(mz.payload_bits, 1);  // gamma(K + 1) with K = 0
  EXPECT_EQ(Decode(mz, 100), zeros);
  const std::vector<int32_t> one = {-7};
  EXPECT_EQ(Decode(Encode(one), 1), one);
  const std::vector<int32_t> constant(50, 3);  // no zeros: positions implied
  const Message mc = Encode(constant);
  // gamma(2) + gamma(zigzag(3) + 1 = 7) + gamma(50): 3 + 5 + 11 bits.
  EXPECT_EQ(mc.payload_bits, 3 + 5 + 11);
  EXPECT_EQ(Decode(mc, 50), constant);
  const std::vector<int32_t> extremes = {INT32_MAX, 0, INT32_MIN + 1, 0, 0, 1};
  EXPECT_EQ(Decode(Encode(extremes), extremes.size()), extremes);
}

TEST(VectorSourceCodeTest, WithinFivePercentOfTheEmpiricalEntropyForLargeD) {
  for (double p0 : {0.6, 0.9, 0.99}) {
    const std::vector<int32_t> z = Draw(100000, p0, 3, 2);
    const Message m = Encode(z);
    const double bound = EmpiricalEntropyBits(z);
    EXPECT_LE(m.payload_bits, 1.05 * bound) << "p0 = " << p0;
    EXPECT_GE(m.payload_bits, 0.99 * bound);
    EXPECT_EQ(Decode(m, z.size()), z);
  }
}

TEST(VectorSourceCodeTest, TruncationIsADecodeError) {
  const std::vector<int32_t> z = Draw(500, 0.8, 3, 3);
  const Message m = Encode(z);
  for (int64_t keep : {int64_t{0}, int64_t{5}, m.payload_bits / 2, m.payload_bits - 1}) {
    Message t = m;
    t.payload_bits = keep;
    EXPECT_THROW(Decode(t, z.size()), DecodeError) << "keep " << keep;
  }
}

// A count of 2^63 or more is negative as a signed count; the header check must reject it
// before it reaches the Golomb parameter (found by the decoders fuzzer).
TEST(VectorSourceCodeTest, ACountBeyondInt64IsADecodeError) {
  for (uint64_t count : {uint64_t{1} << 63, ~uint64_t{0}}) {
    BitWriter w;
    PutEliasGamma(w, 2);      // one distinct value
    PutEliasGamma(w, 2 + 1);  // zigzag(1) + 1: the value 1
    PutEliasGamma(w, count);
    w.Put(0, 40);  // room for the positions the count would promise
    try {
      Decode(w.Finish(), 100);
      ADD_FAILURE() << "count " << count << " accepted";
    } catch (const DecodeError& e) {
      EXPECT_NE(std::string(e.what()).find("count"), std::string::npos) << e.what();
    }
  }
}

TEST(VectorSourceCodeTest, CorruptedHeadersNeverReadOutOfBounds) {
  const std::vector<int32_t> z = Draw(200, 0.7, 3, 4);
  const Message m = Encode(z);
  Rng rng(9);
  int errors = 0;
  for (int trial = 0; trial < 300; ++trial) {
    Message c = m;
    const uint64_t bit = rng.UniformInt(static_cast<uint64_t>(m.payload_bits));
    c.words[bit / 64] ^= uint64_t{1} << (bit % 64);
    try {
      const std::vector<int32_t> out = Decode(c, z.size());
      EXPECT_EQ(out.size(), z.size());
    } catch (const DecodeError&) {
      ++errors;
    }
  }
  EXPECT_GT(errors, 0);
}

}  // namespace
}  // namespace commsim
