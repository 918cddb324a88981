#include <gtest/gtest.h>

#include <initializer_list>
#include <utility>
#include <vector>

#include "base/rng.h"
#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"

namespace commsim {
namespace {

// The message of these (value, bits) fields, written with BitWriter::Put in order.
Message Written(std::initializer_list<std::pair<uint64_t, int>> fields) {
  BitWriter w;
  for (const auto& [value, bits] : fields) w.Put(value, bits);
  return w.Finish();
}

TEST(BitIoTest, RandomFieldsRoundTripAndCountExactly) {
  Rng rng(7);
  std::vector<std::pair<uint64_t, int>> fields;
  BitWriter w;
  int64_t total = 0;
  for (int i = 0; i < 5000; ++i) {
    const int n = static_cast<int>(rng.UniformInt(65));
    const uint64_t v = n == 64 ? rng.NextU64() : rng.NextU64() & ((uint64_t{1} << n) - 1);
    fields.emplace_back(v, n);
    w.Put(v, n);
    total += n;
    ASSERT_EQ(w.bits(), total);
  }
  const Message m = w.Finish();
  EXPECT_EQ(m.payload_bits, total);
  EXPECT_EQ(static_cast<int64_t>(m.words.size()), (total + 63) / 64);
  if (total % 64 != 0) {
    EXPECT_EQ(m.words.back() >> (total % 64), 0u);  // zero padding
  }
  BitReader r(m);
  for (const auto& [v, n] : fields) ASSERT_EQ(r.Get(n), v);
  EXPECT_EQ(r.remaining(), 0);
  r.ExpectEnd();
}

TEST(BitIoTest, FirstBitIsLeastSignificantBitOfFirstWord) {
  BitWriter w;
  w.PutBit(true);
  w.Put(0b10, 2);
  const Message m = w.Finish();
  ASSERT_EQ(m.words.size(), 1u);
  EXPECT_EQ(m.words[0], 0b101u);
  EXPECT_EQ(m.payload_bits, 3);
}

TEST(BitIoTest, FloatsAndDoublesKeepTheirBits) {
  BitWriter w;
  w.PutFloat(-1.5e-30f);
  w.PutDouble(3.25e300);
  w.PutFloat(0.1f);
  const Message m = w.Finish();
  EXPECT_EQ(m.payload_bits, 128);
  BitReader r(m);
  EXPECT_EQ(r.GetFloat(), -1.5e-30f);
  EXPECT_EQ(r.GetDouble(), 3.25e300);
  EXPECT_EQ(r.GetFloat(), 0.1f);
}

TEST(BitIoTest, ReadingPastTheEndThrowsDecodeError) {
  const Message m = Written({{5, 3}});
  BitReader r(m);
  EXPECT_EQ(r.Get(2), 1u);
  EXPECT_THROW(r.Get(2), DecodeError);
  EXPECT_EQ(r.Get(1), 1u);
  EXPECT_THROW(r.Get(1), DecodeError);
  EXPECT_THROW(r.Skip(1), DecodeError);
}

TEST(BitIoTest, MessageWithTooFewWordsIsRejected) {
  Message m;
  m.payload_bits = 65;
  m.words = {1};
  EXPECT_THROW(BitReader r(m), DecodeError);
  m.payload_bits = -1;
  EXPECT_THROW(BitReader r(m), DecodeError);
}

TEST(BitIoTest, PaddedReadsReturnZerosPastTheEnd) {
  const Message m = Written({{0b11, 2}});
  BitReader r(m);
  EXPECT_EQ(r.GetPadded(5), 0b11u);
  EXPECT_EQ(r.GetPadded(64), 0u);
  EXPECT_EQ(r.position(), 69);
}

TEST(BitIoTest, CountZerosStopsAtOneBitAndHonoursTheLimit) {
  BitWriter w;
  w.PutZeros(130);
  w.PutBit(true);
  const Message m = w.Finish();
  {
    BitReader r(m);
    EXPECT_EQ(r.CountZeros(1000), 130);
    EXPECT_TRUE(r.GetBit());
  }
  {
    BitReader r(m);
    EXPECT_THROW(r.CountZeros(100), DecodeError);
  }
  BitWriter z;
  z.PutZeros(10);
  const Message zeros = z.Finish();
  BitReader r(zeros);
  EXPECT_THROW(r.CountZeros(1000), DecodeError);
}

}  // namespace
}  // namespace commsim
