#include "base/counter_rng.h"

#include <Random123/philox.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "base/rng.h"

namespace commsim {
namespace {

using Philox = r123::Philox4x32_R<10>;

// Random123's own one-block Philox4x32-10: the oracle.
std::array<uint32_t, 4> Reference(std::array<uint32_t, 4> ctr, std::array<uint32_t, 2> key) {
  const Philox::ctr_type c = {{ctr[0], ctr[1], ctr[2], ctr[3]}};
  const Philox::key_type k = {{key[0], key[1]}};
  const Philox::ctr_type r = Philox()(c, k);
  return {r[0], r[1], r[2], r[3]};
}

// The draw of element j by the header's layout, computed with the oracle.
uint32_t ReferenceDraw(uint64_t key, uint64_t j) {
  const uint64_t c = j / 256;
  const auto block = Reference(
      {static_cast<uint32_t>(j % 64), static_cast<uint32_t>(c), static_cast<uint32_t>(c >> 32), 0},
      {static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)});
  return block[(j / 64) % 4];
}

// The published known answers for philox4x32 with 10 rounds (Random123's kat_vectors; columns:
// counter, key, result), checked on the oracle itself.
TEST(CounterRngTest, OracleMatchesPublishedKnownAnswers) {
  EXPECT_EQ(Reference({0, 0, 0, 0}, {0, 0}),
            (std::array<uint32_t, 4>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(Reference({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}),
            (std::array<uint32_t, 4>{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(Reference({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
            (std::array<uint32_t, 4>{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

// Counter 0 and key 0 is the first published answer: elements 0, 64, 128 and 192 are its words.
TEST(CounterRngTest, ZeroKeyZeroCounterIsThePublishedAnswer) {
  const CounterRng g(0);
  EXPECT_EQ(g.Draw(0), 0x6627e8d5u);
  EXPECT_EQ(g.Draw(64), 0xe169c58du);
  EXPECT_EQ(g.Draw(128), 0xbc57ac4cu);
  EXPECT_EQ(g.Draw(192), 0x9b00dbd8u);
}

// Every lane, word and chunk of the vectorised generator against the oracle, for keys with both
// halves set and chunk indices past 2^32 (the counter's second word).
TEST(CounterRngTest, ChunksMatchRandom123BlockByBlock) {
  const uint64_t keys[] = {0, 1, 0xffffffffffffffffULL, 0x299f31d0a4093822ULL, 0x123456789ULL};
  const uint64_t chunks[] = {0, 1, 7, 0xffffffffULL, 0x100000000ULL, 0xfedcba9876543ULL};
  std::vector<uint32_t> out(CounterRng::kChunk);
  for (uint64_t key : keys) {
    for (uint64_t c : chunks) {
      CounterRng(key).FillChunk(c, out.data());
      for (uint64_t k = 0; k < 256; ++k) {
        ASSERT_EQ(out[k], ReferenceDraw(key, 256 * c + k)) << "key " << key << " element " << k;
      }
    }
  }
}

// Fill gives each element's own draw, whatever the start (aligned or not) and length.
TEST(CounterRngTest, FillIsIndependentOfChunking) {
  const CounterRng g(0xabcdef);
  const int64_t n = 1500;
  std::vector<uint32_t> whole(n);
  g.Fill(0, n, whole.data());
  for (int64_t j = 0; j < n; j += 97) ASSERT_EQ(whole[j], ReferenceDraw(0xabcdef, j));
  Rng rng(3);
  std::vector<uint32_t> pieces(n);
  for (int64_t j = 0; j < n;) {
    const int64_t m = std::min<int64_t>(n - j, static_cast<int64_t>(rng.UniformInt(600)));
    g.Fill(j, m, pieces.data() + j);
    j += m;
  }
  EXPECT_EQ(pieces, whole);
}

// Mean 1/2 and variance 1/12 of u = draw / 2^32 over 1e6 draws (standard errors 2.9e-4 and
// 7.5e-5; tolerances at 5 of them), and each of the 32 bits set half the time (+-2.5e-3).
TEST(CounterRngTest, DrawsAreUniform) {
  const int64_t n = 1'000'000;
  std::vector<uint32_t> u(n);
  CounterRng(42).Fill(12345, n, u.data());
  double sum = 0, sum_sq = 0;
  std::array<int64_t, 32> ones{};
  for (uint32_t v : u) {
    const double x = v * 0x1p-32;
    sum += x;
    sum_sq += x * x;
    for (int b = 0; b < 32; ++b) ones[b] += (v >> b) & 1;
  }
  const double mean = sum / n;
  EXPECT_NEAR(mean, 0.5, 1.5e-3);
  EXPECT_NEAR(sum_sq / n - mean * mean, 1.0 / 12.0, 4e-4);
  for (int b = 0; b < 32; ++b) EXPECT_NEAR(static_cast<double>(ones[b]) / n, 0.5, 2.5e-3) << b;
}

}  // namespace
}  // namespace commsim
