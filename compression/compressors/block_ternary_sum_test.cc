// block_ternary's fused sums (block_ternary_sum.h): DecodeSumInto, DecodeSumFromZero and an
// accumulating DecodeInto against the sums written out by hand from plain decodes (a plain target
// takes the one-message reader of block_ternary_coding.h, not the fused path), bit for bit; the
// fixed2 kernel's versions against the written-out formula; corrupted messages.
#include "compression/compressors/block_ternary_sum.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/error.h"
#include "compression/codec/link_compressor.h"
#include "compression/coding/bit_writer.h"
#include "compression/compressors/compressor_test_util.h"
#include "compression/registry.h"

namespace commsim {
namespace {

using compressor_test::Gaussian;

constexpr int64_t kSumDim = 5003;  // not a multiple of any block below

std::unique_ptr<Compressor> TernarySumCompressor(const std::string& coding, int64_t block) {
  BlockTernaryConfig config;
  config.block = block;
  config.coding = coding;
  return std::make_unique<BlockTernary>(config);
}

// Nine messages of inputs with zero blocks (elements [1000, 4100) of the third; all of the
// fifth), at scales far apart.
std::vector<Message> SumInputsEncoded(const Compressor& q) {
  std::vector<Message> messages;
  Rng rng(17);
  for (int k = 0; k < 9; ++k) {
    Eigen::VectorXd x = Gaussian(kSumDim, 50 + k, k % 3 == 0 ? 1.0 : 1e-4 * (k + 1));
    if (k == 2) x.segment(1000, 3100).setZero();
    if (k == 4) x.setZero();
    messages.push_back(q.Encode(x, rng));
  }
  return messages;
}

std::vector<const Message*> MessagePointers(const std::vector<Message>& messages) {
  std::vector<const Message*> p;
  for (const Message& m : messages) p.push_back(&m);
  return p;
}

// out_j = out_j + weight * v_j for each message in turn, v from a plain decode.
Eigen::VectorXd SumOracle(const Compressor& q, std::span<const Message* const> messages,
                          Eigen::VectorXd out, double weight) {
  Eigen::VectorXd v(out.size());
  for (const Message* m : messages) {
    q.Decode(*m, v);
    for (int64_t j = 0; j < out.size(); ++j) out[j] = out[j] + weight * v[j];
  }
  return out;
}

// A starting sum with signed zeros among Gaussian values (-0 + 0 is +0: the adds must happen).
Eigen::VectorXd SumBase() {
  Eigen::VectorXd base = Gaussian(kSumDim, 70);
  for (int64_t j = 0; j < kSumDim; j += 3) base[j] = j % 2 == 0 ? -0.0 : 0.0;
  return base;
}

bool SumSameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

const std::vector<std::string> kSumCodings = {"fixed2", "packed", "sparse", "entropy"};
const std::vector<int64_t> kSumBlocks = {7, 256, 2048, 3000};  // 3000: longer than a chunk

// Calls check(q, messages, label) for a block_ternary of every coding and block in kSumCodings x
// kSumBlocks, with its nine SumInputsEncoded messages.
template <class Check>
void ForEachSumCase(const Check& check) {
  for (const std::string& coding : kSumCodings) {
    for (const int64_t block : kSumBlocks) {
      const auto q = TernarySumCompressor(coding, block);
      const std::vector<Message> messages = SumInputsEncoded(*q);
      check(*q, MessagePointers(messages), coding + " b=" + std::to_string(block));
    }
  }
}

TEST(BlockTernarySumTest, SumIntoEqualsOneDecodeEachForEveryCountAndWeight) {
  ForEachSumCase([](const Compressor& q, const std::vector<const Message*>& all,
                    const std::string& label) {
    for (const double weight : {1.0, 0.3, -0.7}) {
      for (size_t count = 1; count <= all.size(); ++count) {
        const auto run = std::span(all).first(count);
        Eigen::VectorXd sum = SumBase();
        q.DecodeSumInto(run, DecodeTarget(sum, sum, weight));
        EXPECT_TRUE(SumSameBits(sum, SumOracle(q, run, SumBase(), weight)))
            << label << " w=" << weight << " n=" << count;
      }
      Eigen::VectorXd one = SumBase();  // an accumulating DecodeInto: one message
      q.DecodeInto(*all[2], DecodeTarget(one, one, weight));
      EXPECT_TRUE(SumSameBits(one, SumOracle(q, std::span(all).subspan(2, 1), SumBase(), weight)))
          << label << " w=" << weight;
    }
  });
}

// From zero: chunks in order covering [0, d), the values ((0 + v0_j) + v1_j) + ..., whatever the
// scratch held; and the same through a whole-vector link.
TEST(BlockTernarySumTest, SumFromZeroHandsOverTheSumInOrder) {
  ForEachSumCase(
      [](const Compressor& q, const std::vector<const Message*>& all, const std::string& label) {
        for (const size_t count : {1, 2, 8, 9}) {
          const auto run = std::span(all).first(count);
          const Eigen::VectorXd expected = SumOracle(q, run, Eigen::VectorXd::Zero(kSumDim), 1.0);
          Eigen::VectorXd scratch =
              Eigen::VectorXd::Constant(kSumDim, std::numeric_limits<double>::quiet_NaN());
          Eigen::VectorXd got(kSumDim);
          int64_t next = 0;
          q.DecodeSumFromZero(run, scratch, [&](int64_t begin, int64_t end, const double* v) {
            EXPECT_EQ(begin, next);
            EXPECT_GT(end, begin);
            std::copy(v, v + (end - begin), got.data() + begin);
            next = end;
          });
          EXPECT_EQ(next, kSumDim);
          EXPECT_TRUE(SumSameBits(got, expected)) << label << " n=" << count;
        }
      });
  const std::unique_ptr<LinkCompressor> link = MakeLinkCompressor(CompressorSpec("block_ternary"));
  const std::vector<Message> messages = SumInputsEncoded(*link);
  const std::vector<const Message*> all = MessagePointers(messages);
  Eigen::VectorXd scratch(kSumDim), got(kSumDim);
  link->DecodeSumFromZero(all, scratch, [&](int64_t begin, int64_t end, const double* v) {
    std::copy(v, v + (end - begin), got.data() + begin);
  });
  EXPECT_TRUE(SumSameBits(got, SumOracle(*link, all, Eigen::VectorXd::Zero(kSumDim), 1.0)));
}

// Every version of the fixed2 kernel: out[k] + table[code k], codes random (never 10), for
// blocks of whole and partial 32-code fields.
TEST(BlockTernarySumTest, Fixed2KernelVersionsAddTheTableValueOfEachCode) {
  const double table[4] = {0.0, 0.625, 0.0, -0.625};
  for (const SimdVersion v : {SimdVersion::kPortable, SimdVersion::kAvx2, SimdVersion::kAvx512}) {
    for (const int64_t n : {1, 7, 31, 32, 33, 100, 256}) {
      Rng rng(n);
      BitWriter w;
      std::vector<int> codes;
      for (int64_t k = 0; k < n; ++k) {
        const uint64_t r = rng.NextU64() % 3;
        codes.push_back(r == 2 ? 3 : static_cast<int>(r));
        w.Put(static_cast<uint64_t>(codes.back()), 2);
      }
      const Message m = w.Finish();
      const Eigen::VectorXd start = Gaussian(n, 90 + n);
      Eigen::VectorXd out = start, expected = start;
      for (int64_t k = 0; k < n; ++k) expected[k] = start[k] + table[codes[k]];
      BitReader r(m);
      if (!ternary_sum::AddFixed2With(v, r, n, table, out.data())) continue;
      EXPECT_TRUE(SumSameBits(out, expected)) << static_cast<int>(v) << " n=" << n;
      EXPECT_EQ(r.remaining(), 0);
    }
  }
}

// Sets bits [bit, bit + n) of a message to the low n bits of value.
void PatchBits(Message& m, int64_t bit, int n, uint64_t value) {
  for (int i = 0; i < n; ++i, ++bit) {
    uint64_t& word = m.words[static_cast<size_t>(bit / 64)];
    const uint64_t mask = uint64_t{1} << (bit % 64);
    word = ((value >> i) & 1) != 0 ? (word | mask) : (word & ~mask);
  }
}

// A corrupted code, a truncated message or bits left over: a DecodeError from the sum (into a
// sum and from zero), and from zero no chunk handed over from the corrupted block on.
TEST(BlockTernarySumTest, CorruptedMessagesThrowAndStopTheHandOver) {
  constexpr int64_t kBlock = 256;
  for (const std::string coding : {"fixed2", "packed", "sparse"}) {
    const auto q = TernarySumCompressor(coding, kBlock);
    const std::vector<Message> messages = SumInputsEncoded(*q);
    std::vector<Message> bad(3, messages[3]);
    bad[0].words.pop_back();  // truncated
    bad[1].words.push_back(0);
    bad[1].payload_bits += 1;  // one bit left over
    // Block 12 of message 3 (full blocks before it): its first code 10, or a packed byte 255.
    const int64_t bits_before =
        coding == "fixed2" ? 12 * (32 + 2 * kBlock) : 12 * (32 + 8 * ((kBlock + 4) / 5));
    const bool has_code = coding != "sparse";
    if (has_code) PatchBits(bad[2], bits_before + 32, 8, coding == "fixed2" ? 0b10 : 0xFF);
    for (size_t k = 0; k < bad.size(); ++k) {
      if (k == 2 && !has_code) continue;
      std::vector<const Message*> run = MessagePointers(messages);
      run[3] = &bad[k];
      Eigen::VectorXd sum = SumBase();
      EXPECT_THROW(q->DecodeSumInto(run, DecodeTarget(sum, sum, 1.0)), DecodeError)
          << coding << " " << k;
      int64_t handed = 0;
      EXPECT_THROW(q->DecodeSumFromZero(run, sum,
                                        [&](int64_t, int64_t end, const double*) { handed = end; }),
                   DecodeError)
          << coding << " " << k;
      EXPECT_LT(handed, kSumDim) << coding << " " << k;
      if (k == 2) {
        EXPECT_LE(handed, 12 * kBlock) << coding;
      }
    }
  }
}

}  // namespace
}  // namespace commsim
