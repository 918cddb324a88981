#include "compression/compressors/qsgd.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "base/counter_rng.h"
#include "compression/coding/elias.h"
#include "compression/compressors/compressor_test_util.h"
#include "compression/compressors/qsgd_kernels.h"

namespace commsim {
namespace {

using compressor_test::Gaussian;
using compressor_test::NormUp;
using compressor_test::ShortAndLongInputs;

QsgdConfig QsgdWith(int64_t s, int64_t b, const std::string& norm, const std::string& coding) {
  QsgdConfig c;
  c.levels = s;
  c.bucket = b;
  c.norm = norm;
  c.coding = coding;
  return c;
}

// Independent reference of Q_s: same Rng draws (one Uniform per element of a nonzero bucket).
Eigen::VectorXd Reference(const Eigen::VectorXd& x, int64_t s, int64_t b, bool inf, Rng& rng) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(x.size());
  for (int64_t begin = 0; begin < x.size(); begin += b) {
    const int64_t n = std::min<int64_t>(b, x.size() - begin);
    const Eigen::VectorXd v = x.segment(begin, n);
    const float norm = NormUp(v, inf);
    if (norm == 0.0f) continue;
    for (int64_t j = 0; j < n; ++j) {
      const double a = std::min(std::abs(v[j]) * (static_cast<double>(s) / norm), double(s));
      const double xi = std::floor(a) + (rng.Uniform() < a - std::floor(a) ? 1 : 0);
      q[begin + j] = (v[j] < 0 ? -1.0 : 1.0) * (static_cast<double>(norm) / s) * xi;
    }
  }
  return q;
}

// Also for a long message, whose stream draws are computed in lanes (stream_lanes.h), with an
// all-zero bucket (no draws) inside: the same values, and the Rng ends where the reference's does.
TEST(QsgdTest, DecodedEqualsTheReferenceOperator) {
  for (const Eigen::VectorXd& x : ShortAndLongInputs(100 * 700, 100)) {
    for (const char* norm : {"2", "inf"}) {
      for (const char* coding : {"elias", "fixed"}) {
        const Qsgd c(QsgdWith(7, 100, norm, coding));
        Rng rng(4), ref(4);
        Eigen::VectorXd out(x.size());
        c.Decode(c.Encode(x, rng), out);
        const Eigen::VectorXd expected = Reference(x, 7, 100, std::string(norm) == "inf", ref);
        for (int64_t i = 0; i < x.size(); ++i) {
          ASSERT_EQ(out[i], expected[i]) << norm << coding << i;
        }
        EXPECT_EQ(rng.NextU64(), ref.NextU64()) << norm << coding;
      }
    }
  }
}

TEST(QsgdTest, FixedCodingBitsAreExact) {
  for (int64_t s : {1, 3, 15, 16}) {
    for (int64_t d : {1, 511, 512, 1300}) {
      const Qsgd c(QsgdWith(s, 512, "2", "fixed"));
      Rng rng(2);
      const int64_t nb = (d + 511) / 512;
      EXPECT_EQ(c.Encode(Gaussian(d, 3), rng).payload_bits,
                32 * nb + d * (1 + CeilLog2(static_cast<uint64_t>(s) + 1)))
          << "s " << s << " d " << d;
    }
  }
}

TEST(QsgdTest, EliasCodingIsBelowThePaperBoundOnAverage) {
  for (int64_t s : {1, 4, 15}) {
    const int64_t b = 512, d = 512 * 20;
    const Qsgd c(QsgdWith(s, b, "2", "elias"));
    double total = 0.0;
    Rng rng(5);
    for (int t = 0; t < 10; ++t) total += c.Encode(Gaussian(d, 10 + t), rng).payload_bits;
    const double s_d = static_cast<double>(s);
    const double nnz = s_d * (s_d + std::sqrt(512.0));
    const double bound = (3 + 1.5 * std::log2(2 * (s_d * s_d + 512) / nnz)) * nnz + 32;
    EXPECT_LT(total / 10, 20 * bound) << "s " << s;
    EXPECT_DOUBLE_EQ(c.EliasBound(512), bound);
  }
}

TEST(QsgdTest, VarianceBoundAndExpectedNonzeros) {
  const Eigen::VectorXd x = Gaussian(2048, 6);
  for (int64_t s : {1, 2, 8, 64}) {
    const Qsgd c(QsgdWith(s, 256, "2", "fixed"));
    const double bound = std::min(256.0 / (s * s), std::sqrt(256.0) / s);
    EXPECT_DOUBLE_EQ(c.ErrorFactor(1 << 20), bound);
    const Expectation e = c.Expected(x);
    EXPECT_LE(e.squared_error, bound * x.squaredNorm());
    // E[nnz] <= s (s + sqrt b) per bucket (the paper's Lemma 3.1).
    EXPECT_LE(e.nonzeros, 8 * s * (s + 16.0));
  }
}

TEST(QsgdTest, CorruptLevelsAreDecodeErrors) {
  const Qsgd c(QsgdWith(2, 4, "2", "fixed"));  // level field of 2 bits: 3 is out of range
  BitWriter w;
  w.PutFloat(1.0f);
  for (int j = 0; j < 4; ++j) w.Put(3 << 1, 3);
  const Message m = w.Finish();
  Eigen::VectorXd out(4);
  EXPECT_THROW(c.Decode(m, out), DecodeError);
}

// An Elias-omega first position of 2^63 + 5 (a valid 64-bit code) used to become a negative int64
// position and a write far before `out` (found by decoders_fuzz).
TEST(QsgdTest, EliasPositionBeyondTheBucketIsADecodeErrorWhateverItsSize) {
  const Qsgd c(QsgdWith(2, 4, "2", "elias"));
  for (uint64_t first : {uint64_t{6}, (uint64_t{1} << 63) + 5, ~uint64_t{0}}) {
    BitWriter w;
    w.PutFloat(1.0f);
    PutEliasOmega(w, first);  // position + 1
    w.PutBit(false);          // sign
    PutEliasOmega(w, 1);      // level
    PutEliasOmega(w, 1);      // gap
    const Message m = w.Finish();
    Eigen::VectorXd out(4);
    EXPECT_THROW(c.Decode(m, out), DecodeError) << first;
  }
}

// Integer inputs with the inf norm equal to s: scale is 1, every level is |x_j| exactly (no
// rounding draw), so the stream is known. It mixes nonzeros whose level and gap are both below
// 256 (one table field) with levels, gaps and first positions of 256 and more (the general
// path), and long runs of small fields across word boundaries. Read back field by field with the
// Elias-omega reader, it must give x; a bit lost or misplaced where the encoder switches paths
// breaks the parse.
TEST(QsgdTest, EliasStreamMixingTableAndGeneralCodesParsesBackToTheLevels) {
  const int64_t n = 2048;
  Eigen::VectorXd x = Eigen::VectorXd::Zero(2 * n);
  x[300] = -1000;  // first position 300, level 1000
  x[301] = 3;
  x[302] = 1;  // gap 400 to the next
  x[702] = 255;
  x[703] = 256;
  x[704] = -2;
  for (int64_t j = 705; j < 900; ++j)
    x[j] = ((j % 3 == 0) ? -1.0 : 1.0) * static_cast<double>(j % 7 + 1);
  x[2000] = -5;        // gap 48 to the end of the bucket
  x[n + 1000] = 1000;  // second bucket: first position 1000, gap 1048 to its end
  const Qsgd c(QsgdWith(1000, n, "inf", "elias"));
  Rng rng(3);
  const Message m = c.Encode(x, rng);
  BitReader r(m);
  Eigen::VectorXd parsed = Eigen::VectorXd::Zero(2 * n);
  for (int64_t begin = 0; begin < 2 * n; begin += n) {
    ASSERT_EQ(std::bit_cast<float>(static_cast<uint32_t>(r.Get(32))), 1000.0f);
    int64_t pos = static_cast<int64_t>(GetEliasOmega(r)) - 1;
    while (pos < n) {
      const bool negative = r.GetBit();
      const double level = static_cast<double>(GetEliasOmega(r));
      parsed[begin + pos] = negative ? -level : level;
      pos += static_cast<int64_t>(GetEliasOmega(r));
    }
    ASSERT_EQ(pos, n) << begin;
  }
  r.ExpectEnd();
  for (int64_t j = 0; j < 2 * n; ++j) ASSERT_EQ(parsed[j], x[j]) << j;
}

// The reference encoder below: the obviously correct per-element loop, its stream's bits packed
// one at a time into words (bit i of the stream is bit i % 64 of word i / 64, fields least
// significant bit first), Elias omega from its definition. Packed words, not text: the test runs
// millions of elements, also under the sanitizers.
struct ReferenceStream {
  std::vector<uint64_t> words;
  int64_t size = 0;
  void Put(uint64_t value, int n) {
    for (int b = 0; b < n; ++b, ++size) {
      if (size % 64 == 0) words.push_back(0);
      words.back() |= ((value >> b) & 1) << (size % 64);
    }
  }
  // omega(x): the groups x_k = x, x_{i-1} = (bit length of x_i) - 1, down to 1, innermost first;
  // each group its leading one, then its lower bits; then a zero.
  void PutOmega(uint64_t x) {
    uint64_t groups[64];
    int count = 0;
    for (; x > 1; x = static_cast<uint64_t>(std::bit_width(x) - 1)) groups[count++] = x;
    while (count > 0) {
      const uint64_t g = groups[--count];
      Put(1, 1);
      Put(g, static_cast<int>(std::bit_width(g)) - 1);
    }
    Put(0, 1);
  }
};

// Every bucket: its fp32 norm rounded up, then (nonzero norm) one draw per element in element
// order: the stream's NextU64() >> 11 over 2^53, or with `counter` element j's CounterRng draw
// (j in the message, key one NextU64 of rng) over 2^32. elias: omega(first nonzero + 1), then per
// nonzero sign, omega(level), omega(gap to the next nonzero or n); fixed: sign, level bits.
ReferenceStream ReferenceBits(const Eigen::VectorXd& x, int64_t s, int64_t b, bool inf, bool elias,
                              bool counter, Rng& rng) {
  const int level_bits = std::bit_width(static_cast<uint64_t>(s));
  std::optional<CounterRng> philox;
  if (counter) philox.emplace(rng.NextU64());
  ReferenceStream bits;
  std::vector<int64_t> pos, level;
  std::vector<bool> negative;
  std::vector<uint32_t> draws;
  for (int64_t begin = 0; begin < x.size(); begin += b) {
    const int64_t n = std::min<int64_t>(b, x.size() - begin);
    const Eigen::VectorXd v = x.segment(begin, n);
    const float norm = NormUp(v, inf);
    bits.Put(std::bit_cast<uint32_t>(norm), 32);
    pos.clear();
    level.clear();
    negative.clear();
    // The bucket's counter draws: Fill(begin, n) is Draw(begin + j) for each j (counter_rng.h),
    // without recomputing a whole chunk of draws for each element.
    if (counter && norm > 0.0f) {
      draws.resize(static_cast<size_t>(n));
      philox->Fill(static_cast<uint64_t>(begin), n, draws.data());
    }
    for (int64_t j = 0; j < n && norm > 0.0f; ++j) {
      const double a = std::min(std::abs(v[j]) * (static_cast<double>(s) / norm), double(s));
      const double frac = a - std::floor(a);
      const bool up = counter ? std::ldexp(draws[static_cast<size_t>(j)], -32) < frac
                              : std::ldexp(static_cast<double>(rng.NextU64() >> 11), -53) < frac;
      const int64_t xi = static_cast<int64_t>(std::floor(a)) + (up ? 1 : 0);
      if (!elias) {
        bits.Put(xi == 0 ? 0 : v[j] < 0, 1);
        bits.Put(static_cast<uint64_t>(xi), level_bits);
      }
      if (xi == 0) continue;
      pos.push_back(j);
      level.push_back(xi);
      negative.push_back(v[j] < 0);
    }
    if (!elias) {
      for (int64_t j = 0; j < n && norm == 0.0f; ++j) bits.Put(0, 1 + level_bits);
      continue;
    }
    if (norm == 0.0f) continue;
    bits.PutOmega(static_cast<uint64_t>(pos.empty() ? n : pos[0]) + 1);
    for (size_t i = 0; i < pos.size(); ++i) {
      bits.Put(negative[i] ? 1 : 0, 1);
      bits.PutOmega(static_cast<uint64_t>(level[i]));
      const int64_t next = i + 1 < pos.size() ? pos[i + 1] : n;
      bits.PutOmega(static_cast<uint64_t>(next - pos[i]));
    }
  }
  return bits;
}

// The first stream bit where `m` and `ref` differ (`m` holds at least `ref.size` bits), or -1.
int64_t FirstDifference(const Message& m, const ReferenceStream& ref) {
  for (size_t w = 0; w < ref.words.size(); ++w) {
    const int64_t bits = std::min<int64_t>(64, ref.size - static_cast<int64_t>(w) * 64);
    const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    const uint64_t diff = (m.words[w] ^ ref.words[w]) & mask;
    if (diff != 0) return static_cast<int64_t>(w) * 64 + std::countr_zero(diff);
  }
  return -1;
}

// Gaussian input with a zero run [zeros_begin, zeros_end) and, with `spikes`, a few values 1e4
// times the rest (the other levels of their bucket fall to 0 or 1: long gaps).
Eigen::VectorXd TestInput(int64_t d, uint64_t seed, int64_t zeros_begin, int64_t zeros_end,
                          bool spikes) {
  Eigen::VectorXd x = Gaussian(d, seed);
  for (int64_t j = std::min(zeros_begin, d); j < std::min(zeros_end, d); ++j) x[j] = 0.0;
  if (spikes) {
    for (int64_t j = d / 3; j < d; j += 70001) x[j] = -1e4 * (1.0 + static_cast<double>(j % 5));
  }
  return x;
}

// The encoder's bits (and the Rng's next state) equal the reference's, over sizes, buckets,
// levels (1, 15, 255 and 2^20 reach the table's fallbacks), norms, rngs, zero runs, huge gaps;
// the last size computes the stream draws in lanes.
TEST(QsgdTest, MessagesEqualTheReferenceEncoderBitForBit) {
  struct Case {
    int64_t d, bucket, levels;
    int64_t zeros_begin, zeros_end;
    bool spikes;
  };
  const Case cases[] = {
      {0, 512, 15, 0, 0, false},           {1, 512, 15, 0, 0, false},
      {511, 512, 15, 100, 400, false},     {512, 512, 1, 0, 0, false},
      {513, 512, 255, 0, 0, false},        {513, 7, 15, 10, 20, false},
      {100000, 512, 15, 1000, 5000, true}, {100000, 100000, 15, 200, 90000, true},
      {100000, 1, 3, 0, 0, false},         {100000, 4096, 1 << 20, 300, 2000, true},
      {100000, 512, 255, 0, 0, true},      {kLaneDrawsMinDim + 1000, 512, 15, 5000, 6000, true},
  };
  for (const bool avx512 : {true, false}) {  // the coder's AVX-512 loop where the CPU has it
    if (avx512 && !qsgd_kernels::HasAvx512Coder()) continue;  // the same scalar loop twice
    qsgd_kernels::EnableAvx512Coder(avx512);
    for (const Case& k : cases) {
      const Eigen::VectorXd x = TestInput(k.d, 7 + k.d, k.zeros_begin, k.zeros_end, k.spikes);
      for (const char* norm : {"2", "inf"}) {
        for (const char* coding : {"elias", "fixed"}) {
          for (const char* rng_kind : {"stream", "counter"}) {
            QsgdConfig config = QsgdWith(k.levels, k.bucket, norm, coding);
            config.rng = rng_kind;
            const Qsgd c(config);
            Rng rng(11), ref(11);
            const Message got = c.Encode(x, rng);
            const ReferenceStream expected = ReferenceBits(
                x, k.levels, k.bucket, std::string(norm) == "inf", std::string(coding) == "elias",
                std::string(rng_kind) == "counter", ref);
            ASSERT_EQ(got.payload_bits, expected.size)
                << k.d << " " << k.bucket << " " << k.levels << norm << coding << rng_kind;
            ASSERT_GE(got.words.size(), expected.words.size());
            ASSERT_EQ(FirstDifference(got, expected), -1)
                << k.d << " " << k.bucket << " " << k.levels << norm << coding << rng_kind;
            EXPECT_EQ(rng.NextU64(), ref.NextU64()) << k.d << norm << coding << rng_kind;
          }
        }
      }
    }
  }
  qsgd_kernels::EnableAvx512Coder(true);
}

}  // namespace
}  // namespace commsim
