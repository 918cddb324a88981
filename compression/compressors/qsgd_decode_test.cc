// qsgd's elias decoder (its table of short codes, qsgd_elias.h, and the general path) against an
// independent reference: messages written bit by bit from the code's definition, and a plain
// reader of the format (qsgd.h) for truncated and bit-flipped messages.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "compression/coding/bit_reader.h"
#include "compression/coding/elias.h"
#include "compression/coding/elias_test_util.h"
#include "compression/compressors/compressor_test_util.h"
#include "compression/compressors/qsgd.h"

namespace commsim {
namespace qsgd_decode_test {

using elias_test::OmegaStreamBits;
using elias_test::StreamBits;

QsgdConfig EliasConfig(int64_t levels, int64_t bucket) {
  QsgdConfig c;
  c.levels = levels;
  c.bucket = bucket;
  c.coding = "elias";
  return c;
}

// A message of the given bits in stream order ('0' / '1').
Message MessageOf(const std::string& bits) {
  Message m;
  m.payload_bits = static_cast<int64_t>(bits.size());
  m.words.assign((bits.size() + 63) / 64, 0);
  for (size_t i = 0; i < bits.size(); ++i) {
    if (bits[i] == '1') m.words[i / 64] |= uint64_t{1} << (i % 64);
  }
  return m;
}

std::string FloatBits(float f) {
  std::string bits;
  for (int b = 0; b < 32; ++b) bits += ((std::bit_cast<uint32_t>(f) >> b) & 1) ? '1' : '0';
  return bits;
}

// The format read plainly (qsgd.h), one field after the other; nullopt where it is invalid:
// a bad scale, a first position past n, a level above s, a gap past the bucket's end, a code
// running past the end, or bits left over.
std::optional<Eigen::VectorXd> ReferenceDecode(const Message& m, int64_t d, int64_t s,
                                               int64_t bucket) {
  try {
    BitReader r(m);
    Eigen::VectorXd out = Eigen::VectorXd::Zero(d);
    for (int64_t begin = 0; begin < d; begin += bucket) {
      const int64_t n = std::min(bucket, d - begin);
      const float norm = std::bit_cast<float>(static_cast<uint32_t>(r.Get(32)));
      if (!(norm >= 0.0f) || !std::isfinite(norm)) return std::nullopt;
      const double unit = static_cast<double>(norm) / static_cast<double>(s);
      if (unit == 0.0) continue;  // a zero bucket: no codes
      const uint64_t first = GetEliasOmega(r);
      if (first > static_cast<uint64_t>(n) + 1) return std::nullopt;
      for (uint64_t pos = first - 1; pos < static_cast<uint64_t>(n);) {
        const bool negative = r.GetBit();
        const uint64_t level = GetEliasOmega(r);
        const uint64_t gap = GetEliasOmega(r);
        if (level > static_cast<uint64_t>(s) || gap > static_cast<uint64_t>(n) - pos) {
          return std::nullopt;
        }
        out[begin + static_cast<int64_t>(pos)] =
            (negative ? -unit : unit) * static_cast<double>(level);
        pos += gap;
      }
    }
    if (r.remaining() != 0) return std::nullopt;
    return out;
  } catch (const DecodeError&) {
    return std::nullopt;
  }
}

// Decode's outcome: the values, or nullopt on a DecodeError.
std::optional<Eigen::VectorXd> Decoded(const Qsgd& c, const Message& m, int64_t d) {
  Eigen::VectorXd out(d);
  try {
    c.Decode(m, out);
  } catch (const DecodeError&) {
    return std::nullopt;
  }
  return out;
}

// Every level and gap at and around the powers of two up to 2^8 (code lengths 1 to 14 bits: each
// side of the table's limit, and pairs over it), each sign, after first positions that move the
// stream's alignment: the values the message was written with.
TEST(QsgdDecodeTest, EliasDecoderReadsEveryLevelAndGapAroundPowersOfTwo) {
  const std::vector<uint64_t> levels = {1,  2,  3,  4,  5,  7,  8,   9,   15,  16, 17,
                                        31, 32, 33, 63, 64, 65, 127, 128, 129, 255};
  const std::vector<uint64_t> gaps = {1,  2,  3,  4,  5,  6,  7,   8,   9,
                                      15, 16, 17, 31, 32, 33, 255, 256, 257};
  const int64_t n = 40000;
  const Qsgd c(EliasConfig(255, n));
  for (const int64_t first : {0, 1, 2, 3, 6, 7, 14, 15, 16, 300}) {
    std::string bits = FloatBits(255.0f) + OmegaStreamBits(static_cast<uint64_t>(first) + 1);
    Eigen::VectorXd expected = Eigen::VectorXd::Zero(n);
    int64_t pos = first;
    size_t i = 0;
    for (const uint64_t level : levels) {
      for (const uint64_t gap : gaps) {
        const bool negative = (i++ % 3) == 1;
        expected[pos] = (negative ? -1.0 : 1.0) * static_cast<double>(level);
        const bool last = i == levels.size() * gaps.size();
        const uint64_t to = last ? static_cast<uint64_t>(n - pos) : gap;  // the last: to the end
        bits += (negative ? "1" : "0") + OmegaStreamBits(level) + OmegaStreamBits(to);
        pos += static_cast<int64_t>(to);
      }
    }
    ASSERT_EQ(pos, n) << "the gaps must fill the bucket";
    const std::optional<Eigen::VectorXd> got = Decoded(c, MessageOf(bits), n);
    ASSERT_TRUE(got.has_value()) << first;
    for (int64_t j = 0; j < n; ++j) ASSERT_EQ((*got)[j], expected[j]) << first << " " << j;
  }
}

// Short codes (the table's) of a level above s, or of a gap past the bucket's end, are rejected;
// the largest valid ones are read. Buckets of 9 elements: a nonzero at 2 and one at 4, then two
// zero buckets (64 bits more: the table path reads only with 64 bits in sight).
TEST(QsgdDecodeTest, EliasDecoderChecksShortLevelsAndGapsAgainstTheirLimits) {
  for (const uint64_t s : {1, 2, 3, 7, 14, 15}) {
    const Qsgd c(EliasConfig(static_cast<int64_t>(s), 9));
    for (uint64_t level = 1; level <= 16; ++level) {
      for (uint64_t end_gap = 1; end_gap <= 6; ++end_gap) {  // 5 reaches the end exactly
        const std::string bits = FloatBits(static_cast<float>(s)) + OmegaStreamBits(3) + "0" +
                                 OmegaStreamBits(1) + OmegaStreamBits(2) + "1" +
                                 OmegaStreamBits(level) + OmegaStreamBits(end_gap) +
                                 FloatBits(0.0f) + FloatBits(0.0f);
        const std::optional<Eigen::VectorXd> got = Decoded(c, MessageOf(bits), 27);
        ASSERT_EQ(got.has_value(), level <= s && end_gap == 5)
            << s << " " << level << " " << end_gap;
        if (!got) continue;
        Eigen::VectorXd want = Eigen::VectorXd::Zero(27);
        want[2] = 1.0;
        want[4] = -static_cast<double>(level);
        ASSERT_EQ(*got, want) << s << " " << level;
      }
    }
  }
}

// Every strict prefix of a message is rejected, and every message with one bit flipped decodes
// as the plain reader reads it (the same values, or rejected by both); also as an update of a base.
TEST(QsgdDecodeTest, EliasDecoderRejectsTruncationsAndReadsFlipsAsThePlainReader) {
  const int64_t d = 1300, bucket = 512, s = 15;
  Eigen::VectorXd x = compressor_test::Gaussian(d, 5);
  for (int64_t j = 600; j < 700; ++j) x[j] = 0.0;  // gaps of 16 and more
  x[1000] = 40.0;                                  // its bucket's other levels mostly 0
  const Qsgd c(EliasConfig(s, bucket));
  Rng rng(9);
  const Message m = c.Encode(x, rng);
  const std::string bits = StreamBits(m);
  for (size_t len = 0; len < bits.size(); ++len) {
    ASSERT_FALSE(Decoded(c, MessageOf(bits.substr(0, len)), d).has_value()) << len;
  }
  const Eigen::VectorXd base = Eigen::VectorXd::LinSpaced(d, -1.0, 1.0);
  for (size_t i = 0; i < bits.size(); ++i) {
    std::string flipped = bits;
    flipped[i] = flipped[i] == '1' ? '0' : '1';
    const Message f = MessageOf(flipped);
    const std::optional<Eigen::VectorXd> want = ReferenceDecode(f, d, s, bucket);
    const std::optional<Eigen::VectorXd> got = Decoded(c, f, d);
    ASSERT_EQ(got.has_value(), want.has_value()) << i;
    if (!want) continue;
    for (int64_t j = 0; j < d; ++j) ASSERT_EQ((*got)[j], (*want)[j]) << i << " " << j;
    Eigen::VectorXd updated(d);
    c.DecodeInto(f, DecodeTarget(updated, base, 0.5));
    for (int64_t j = 0; j < d; ++j)
      ASSERT_EQ(updated[j], base[j] + 0.5 * (*want)[j]) << i << " " << j;
  }
}

}  // namespace qsgd_decode_test
}  // namespace commsim
