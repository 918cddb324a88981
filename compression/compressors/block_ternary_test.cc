#include "compression/compressors/block_ternary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <vector>

#include "compression/coding/arithmetic.h"
#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/coding/elias.h"
#include "compression/compressors/block_ternary_coding.h"
#include "compression/compressors/compressor_test_util.h"
#include "compression/compressors/ternary_masks.h"

namespace commsim {
namespace {

using compressor_test::Gaussian;
using compressor_test::NormUp;
using compressor_test::ShortAndLongInputs;

BlockTernaryConfig TernaryConfig(const std::string& p, int64_t block, const std::string& coding) {
  BlockTernaryConfig c;
  c.p = p;
  c.block = block;
  c.coding = coding;
  return c;
}

// Independent reference of the operator: same Rng draws, no bitstream.
Eigen::VectorXd Reference(const Eigen::VectorXd& x, bool p_inf, int64_t b, Rng& rng) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(x.size());
  for (int64_t begin = 0; begin < x.size(); begin += b) {
    const int64_t n = std::min<int64_t>(b, x.size() - begin);
    const Eigen::VectorXd xb = x.segment(begin, n);
    const float norm = NormUp(xb, p_inf);
    if (norm == 0.0f) continue;
    for (int64_t j = 0; j < n; ++j) {
      const bool keep =
          static_cast<double>(rng.NextU64() >> 11) < std::abs(xb[j]) * (0x1p53 / norm);
      if (keep) q[begin + j] = xb[j] < 0 ? -static_cast<double>(norm) : norm;
    }
  }
  return q;
}

// Also for a long message, whose stream draws are computed in lanes (stream_lanes.h), with an
// all-zero block (no draws) inside: the same values, and the Rng ends where the reference's does.
TEST(BlockTernaryTest, DecodedEqualsTheReferenceOperatorForEveryCoding) {
  for (const Eigen::VectorXd& x : ShortAndLongInputs(64 * 1000, 64)) {
    for (const char* p : {"2", "inf"}) {
      for (const char* coding : {"fixed2", "packed", "sparse", "entropy"}) {
        const BlockTernary c(TernaryConfig(p, 64, coding));
        Rng rng(5), ref_rng(5);
        Eigen::VectorXd out(x.size());
        c.Decode(c.Encode(x, rng), out);
        EXPECT_EQ(out, Reference(x, std::string(p) == "inf", 64, ref_rng)) << p << " " << coding;
        EXPECT_EQ(rng.NextU64(), ref_rng.NextU64()) << p << " " << coding;
      }
    }
  }
}

TEST(BlockTernaryTest, Fixed2AndPackedBitsAreExact) {
  for (int64_t d : {1, 255, 256, 257, 1000}) {
    const Eigen::VectorXd x = Gaussian(d, 2);
    Rng rng(1);
    const int64_t nb = (d + 255) / 256;
    EXPECT_EQ(BlockTernary(TernaryConfig("inf", 256, "fixed2")).Encode(x, rng).payload_bits,
              32 * nb + 2 * d);
    int64_t packed = 0;
    for (int64_t begin = 0; begin < d; begin += 256) {
      packed += 32 + 8 * ((std::min<int64_t>(256, d - begin) + 4) / 5);
    }
    EXPECT_EQ(BlockTernary(TernaryConfig("inf", 256, "packed")).Encode(x, rng).payload_bits,
              packed);
  }
}

TEST(BlockTernaryTest, SparseBitsFollowTheNonzeroCount) {
  const int64_t d = 1000, b = 128;
  const Eigen::VectorXd x = Gaussian(d, 3);
  const BlockTernary c(TernaryConfig("2", b, "sparse"));
  Rng rng(2);
  const Message m = c.Encode(x, rng);
  Eigen::VectorXd q(d);
  c.Decode(m, q);
  int64_t bits = 0;
  for (int64_t begin = 0; begin < d; begin += b) {
    const int64_t n = std::min(b, d - begin);
    const int64_t nnz = (q.segment(begin, n).array() != 0.0).count();
    bits += 32 + CeilLog2(static_cast<uint64_t>(n) + 1) +
            nnz * (1 + CeilLog2(static_cast<uint64_t>(n)));
  }
  EXPECT_EQ(m.payload_bits, bits);
}

TEST(BlockTernaryTest, EntropyCodingIsNearTheEmpiricalEntropyForLargeD) {
  const int64_t d = 200000, b = 256;
  for (const char* p : {"2", "inf"}) {
    const Eigen::VectorXd x = Gaussian(d, 4);
    const BlockTernary c(TernaryConfig(p, b, "entropy"));
    Rng rng(3);
    const Message m = c.Encode(x, rng);
    Eigen::VectorXd q(d);
    c.Decode(m, q);
    std::map<int, double> counts;
    for (int64_t i = 0; i < d; ++i) counts[(q[i] > 0) - (q[i] < 0)] += 1.0;
    double h = 0.0;
    for (const auto& [s, n] : counts) h += n * std::log2(static_cast<double>(d) / n);
    const double bound = 32.0 * static_cast<double>((d + b - 1) / b) + h;
    EXPECT_LE(static_cast<double>(m.payload_bits), 1.02 * bound + 64) << p;
    EXPECT_GE(static_cast<double>(m.payload_bits), 0.98 * bound) << p;
    // And it beats fixed2 by a wide margin on Gaussian data with p = inf.
    if (std::string(p) == "inf") {
      EXPECT_LT(m.payload_bits, 32 * ((d + b - 1) / b) + 2 * d);
    }
  }
}

// An entropy message is the norms, then the symbols of the nonzero blocks through one model,
// symbol by symbol (ArithmeticEncoder::Encode, itself checked against the bit-at-a-time coder):
// with zero blocks first, inside (alone and two in a row) and last, and a short last block.
TEST(BlockTernaryTest, EntropyBitsAreTheNormsThenTheNonzeroBlocksSymbols) {
  const int64_t b = 64, d = 64 * 11 + 17;
  Eigen::VectorXd x = Gaussian(d, 6);
  for (int64_t zero : {0, 3, 6, 7, 11}) x.segment(zero * b, std::min(b, d - zero * b)).setZero();
  const BlockTernary c(TernaryConfig("inf", b, "entropy"));
  Rng rng(9);
  const Message m = c.Encode(x, rng);
  Eigen::VectorXd q(d);
  c.Decode(m, q);
  BitReader norms(m);
  BitWriter w;
  std::vector<bool> nonzero;
  for (int64_t begin = 0; begin < d; begin += b) {
    const uint64_t bits = norms.Get(32);
    w.Put(bits, 32);
    nonzero.push_back(bits != 0);
  }
  AdaptiveModel model(3);
  ArithmeticEncoder enc(w);
  for (int64_t j = 0; j < d; ++j) {
    if (nonzero[static_cast<size_t>(j / b)]) enc.Encode(model, (q[j] > 0) - (q[j] < 0) + 1);
  }
  enc.Finish();
  const Message expected = w.Finish();
  EXPECT_EQ(m.payload_bits, expected.payload_bits);
  EXPECT_EQ(m.words, expected.words);
}

TEST(BlockTernaryTest, ExpectedErrorIsTheClosedFormAndWithinTheTableBound) {
  // By hand, x = (3, -4 | 0, 1 | 2) in blocks of 2: sum over blocks of ||x_B||_1 n_B - ||x_B||^2.
  // p = 2: n = 5, 1, 2: (7 x 5 - 25) + (1 - 1) + (4 - 4) = 10. p = inf: n = 4, 1, 2: 28 - 25 = 3.
  const Eigen::VectorXd small = (Eigen::VectorXd(5) << 3, -4, 0, 1, 2).finished();
  EXPECT_EQ(BlockTernary(TernaryConfig("2", 2, "fixed2")).Expected(small).squared_error, 10.0);
  EXPECT_EQ(BlockTernary(TernaryConfig("inf", 2, "fixed2")).Expected(small).squared_error, 3.0);
  // On Gaussian data, with the norms rounded up to fp32 as written out in NormUp.
  const int64_t b = 64;
  const Eigen::VectorXd x = Gaussian(640, 5);
  for (const char* p : {"2", "inf"}) {
    const BlockTernary c(TernaryConfig(p, b, "fixed2"));
    double closed = 0.0;
    for (int64_t begin = 0; begin < x.size(); begin += b) {
      const Eigen::VectorXd xb = x.segment(begin, b);
      const double norm = NormUp(xb, std::string(p) == "inf");
      closed += xb.lpNorm<1>() * norm - xb.squaredNorm();
    }
    EXPECT_NEAR(c.Expected(x).squared_error, closed, 1e-9 * closed);
    const double bound = std::string(p) == "2" ? std::sqrt(64.0) - 1 : (std::sqrt(64.0) - 1) / 2;
    EXPECT_DOUBLE_EQ(c.ErrorFactor(100000), bound);
    EXPECT_LE(closed, bound * x.squaredNorm());
  }
  // The worst case for p = 2 is the flat vector: C is attained.
  const Eigen::VectorXd flat = Eigen::VectorXd::Ones(64);
  const BlockTernary c2(TernaryConfig("2", 64, "fixed2"));
  EXPECT_NEAR(c2.Expected(flat).squared_error, (std::sqrt(64.0) - 1) * 64, 1e-4);
}

TEST(BlockTernaryTest, CorruptSymbolCodesAreDecodeErrors) {
  const BlockTernary c(TernaryConfig("inf", 4, "fixed2"));
  BitWriter w;
  w.PutFloat(1.0f);
  w.Put(0b10, 2);  // invalid code
  w.Put(0, 6);
  const Message m = w.Finish();
  Eigen::VectorXd out(4);
  EXPECT_THROW(c.Decode(m, out), DecodeError);
  BitWriter neg;
  neg.PutFloat(-1.0f);  // negative norm
  neg.Put(0, 8);
  const Message mn = neg.Finish();
  EXPECT_THROW(c.Decode(mn, out), DecodeError);
}

// A sparse block written out by hand and decoded: nonzeros at both ends and on both sides of the
// decoder's 4096-element windows, one held over a window with no nonzero (4200 -> 9000), in a
// block of 10000 (fields of 1 + 14 bits: the sign first); then the corrupt variants.
TEST(BlockTernaryTest, SparseBlocksAcrossDecodeWindowsDecodeToTheirNonzeros) {
  const int64_t n = 10000;
  const BlockTernary c(TernaryConfig("inf", n, "sparse"));
  const auto message = [&](const std::vector<std::pair<int64_t, bool>>& nonzeros, int64_t count) {
    BitWriter w;
    w.PutFloat(2.0f);
    w.Put(static_cast<uint64_t>(count), 14);  // ceil(log2(n + 1))
    for (const auto& [j, negative] : nonzeros) {
      w.PutBit(negative);
      w.Put(static_cast<uint64_t>(j), 14);  // ceil(log2 n)
    }
    return w.Finish();
  };
  const std::vector<std::pair<int64_t, bool>> nonzeros = {
      {0, true},    {1, false},    {4095, true}, {4096, false},
      {4200, true}, {9000, false}, {9999, true}};
  Eigen::VectorXd expected = Eigen::VectorXd::Zero(n);
  for (const auto& [j, negative] : nonzeros) expected[j] = negative ? -2.0 : 2.0;
  Eigen::VectorXd out = Eigen::VectorXd::Constant(n, 7.0);
  c.Decode(message(nonzeros, 7), out);
  EXPECT_EQ(out, expected);
  // Not increasing, past the block, more nonzeros than elements, fewer fields than counted.
  EXPECT_THROW(c.Decode(message({{5, false}, {5, true}}, 2), out), DecodeError);
  EXPECT_THROW(c.Decode(message({{5, false}, {4000, true}, {3999, true}}, 3), out), DecodeError);
  EXPECT_THROW(c.Decode(message({{10000, false}}, 1), out), DecodeError);
  EXPECT_THROW(c.Decode(message({}, 10001), out), DecodeError);
  EXPECT_THROW(c.Decode(message({{5, false}}, 2), out), DecodeError);
}

// The sparse decoder against the coding read one field at a time (sign bit, index, checked, put),
// on random blocks of 10000 elements (three decode windows): counts from 0 to past n, indices
// mostly increasing with gaps up to past a window, some repeated, decreasing or out of range, and
// messages cut short. Either both reject the message or both give the same vector.
TEST(BlockTernaryTest, SparseDecodeAgreesWithAFieldByFieldReaderOnRandomBlocks) {
  const int64_t n = 10000;
  const BlockTernary c(TernaryConfig("inf", n, "sparse"));
  Rng rng(9);
  int rejected = 0;
  for (int trial = 0; trial < 400; ++trial) {
    BitWriter w;
    w.PutFloat(0.5f);
    const auto count = static_cast<int64_t>(rng.UniformInt(trial % 10 == 0 ? 10003 : 40));
    w.Put(static_cast<uint64_t>(count), 14);
    int64_t j = -1;
    const int64_t written = trial % 7 == 0 ? count / 2 : count;
    for (int64_t i = 0; i < written; ++i) {
      const uint64_t kind = rng.UniformInt(100);
      j = kind == 0
              ? j
              : (kind == 1 ? j - 3
                           : j + 1 + static_cast<int64_t>(rng.UniformInt(kind < 10 ? 6000 : 300)));
      w.PutBit(rng.UniformInt(2) == 1);
      w.Put(static_cast<uint64_t>(std::clamp<int64_t>(j, 0, 16383)), 14);
    }
    const Message m = w.Finish();
    std::optional<Eigen::VectorXd> reference = Eigen::VectorXd::Zero(n);
    BitReader r(m);
    r.GetFloat();
    const auto nnz = static_cast<int64_t>(r.Get(14));
    int64_t prev = -1;
    for (int64_t i = 0; i < nnz && reference && nnz <= n; ++i) {
      if (r.remaining() < 15) {
        reference.reset();
        break;
      }
      const bool negative = r.GetBit();
      const auto at = static_cast<int64_t>(r.Get(14));
      if (at <= prev || at >= n) reference.reset();
      if (reference) (*reference)[at] = negative ? -0.5 : 0.5;
      prev = at;
    }
    if (nnz > n) reference.reset();
    Eigen::VectorXd out(n);
    try {
      c.Decode(m, out);
      ASSERT_TRUE(reference.has_value()) << "trial " << trial << " decoded a corrupt block";
      EXPECT_EQ(out, *reference) << "trial " << trial;
    } catch (const DecodeError&) {
      EXPECT_FALSE(reference.has_value()) << "trial " << trial << " rejected a valid block";
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 40);  // the corrupt kinds above do come up
  EXPECT_LT(rejected, 360);
}

// The packed coding written out: byte g is sum_i trit(s[5g + i]) * 3^i with trit(0, +1, -1) =
// 0, 1, 2 (a short last group the same over its symbols), and byte g sits at bits [8g, 8g + 8)
// of the stream. Random symbols, lengths around the five-symbol groups and 40-symbol words.
TEST(BlockTernaryTest, PackedBytesAreTheBaseThreeDigitsOfEachGroupOfFive) {
  Rng rng(17);
  for (int64_t n : {1, 4, 5, 6, 39, 40, 41, 44, 45, 79, 80, 81, 255, 256}) {
    std::vector<int8_t> s(static_cast<size_t>(n));
    for (int8_t& v : s) v = static_cast<int8_t>(static_cast<int>(rng.UniformInt(3)) - 1);
    std::vector<uint64_t> expected((static_cast<size_t>(n) + 39) / 40, 0);
    for (int64_t g = 0; 5 * g < n; ++g) {
      uint64_t byte = 0, power = 1;
      for (int64_t j = 5 * g; j < std::min<int64_t>(n, 5 * g + 5); ++j, power *= 3) {
        byte += power * static_cast<uint64_t>(s[j] == 0 ? 0 : (s[j] == 1 ? 1 : 2));
      }
      expected[static_cast<size_t>(g / 8)] |= byte << (8 * (g % 8));
    }
    BitWriter w;
    std::vector<uint64_t> keep(ternary_masks::MaskWords(n)), neg(keep.size());
    ternary_masks::SymbolMasks(s.data(), n, keep.data(), neg.data());
    ternary_masks::PutPacked(keep.data(), neg.data(), n, w);
    const Message m = w.Finish();
    EXPECT_EQ(m.payload_bits, 8 * ((n + 4) / 5)) << n;
    ASSERT_EQ(m.words.size(), expected.size()) << n;
    for (size_t k = 0; k < expected.size(); ++k) {
      EXPECT_EQ(m.words[k], expected[k]) << "n " << n << ", word " << k;
    }
  }
}

}  // namespace
}  // namespace commsim
