// The optional streaming paths of Compressor: ChunkEncode (a vector fed in chunks gives Encode's
// message, and declines where Encode throws) and DecodeSumInto (messages added to a sum in one
// call give what one DecodeInto call each gives). Identity's are checked against the wire format
// written out by hand; every registered compressor against its own Encode / DecodeInto.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "compression/codec/link_compressor.h"
#include "compression/compressors/compressor_test_util.h"
#include "compression/compressors/identity.h"
#include "compression/registry.h"

namespace commsim {
namespace {

using compressor_test::Gaussian;

std::unique_ptr<Compressor> IdentityOf(int64_t precision) {
  IdentityConfig config;
  config.precision = precision;
  return std::make_unique<Identity>(config);
}

// x fed in chunks of 1, 7 and 300 values, then the rest (decoded values to `decoded`, if any).
std::optional<Message> FedInChunks(const Compressor& q, const Eigen::VectorXd& x,
                                   const DecodeTarget* decoded = nullptr) {
  std::unique_ptr<ChunkEncoder> encoder = q.ChunkEncode(x.size(), decoded);
  EXPECT_NE(encoder, nullptr) << q.Name();
  if (encoder == nullptr) return std::nullopt;
  int64_t at = 0;
  for (const int64_t n : {int64_t{1}, int64_t{7}, int64_t{300}, x.size()}) {
    const int64_t take = std::min(n, x.size() - at);
    encoder->Put(x.data() + at, take);
    at += take;
  }
  return encoder->Finish();
}

// The fp32 wire format by hand: value i's float bits at bit 32 (i % 2) of word i / 2.
std::vector<uint64_t> Fp32Words(const Eigen::VectorXd& x) {
  std::vector<uint64_t> words(static_cast<size_t>((x.size() + 1) / 2), 0);
  for (int64_t i = 0; i < x.size(); ++i) {
    const uint64_t bits = std::bit_cast<uint32_t>(static_cast<float>(x[i]));
    words[static_cast<size_t>(i / 2)] |= bits << (32 * (i % 2));
  }
  return words;
}

TEST(ChunkEncodeTest, IdentityChunksAreTheFp32WireFormat) {
  for (const int64_t d : {0, 1, 2, 308, 1001}) {
    const Eigen::VectorXd x = Gaussian(d, 3);
    const std::optional<Message> m = FedInChunks(*IdentityOf(32), x);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->payload_bits, 32 * d);
    const std::vector<uint64_t> words(m->words.begin(), m->words.end());
    EXPECT_EQ(words, Fp32Words(x)) << "d " << d;
  }
  const Eigen::VectorXd x = Gaussian(309, 4);
  const std::optional<Message> m64 = FedInChunks(*IdentityOf(64), x);
  ASSERT_TRUE(m64.has_value());
  ASSERT_EQ(m64->words.size(), 309u);
  for (int64_t i = 0; i < 309; ++i) EXPECT_EQ(m64->words[i], std::bit_cast<uint64_t>(x[i]));
}

// PutAt: the chunks in any order (here last to first, at unaligned starts) give the same wire
// format, through the link wrapper too, with the decoded values delivered at their indices;
// every compressor that draws (block_ternary) keeps to Put (any_order() false). d = 2.1M takes the
// streaming stores.
TEST(ChunkEncodeTest, IdentityChunksTakeTheirValuesInAnyOrder) {
  for (const int64_t d : {int64_t{1}, int64_t{1001}, int64_t{2100001}}) {
    const Eigen::VectorXd x = Gaussian(d, 6);
    for (const int64_t precision : {32, 64}) {
      const LinkCompressor q(IdentityOf(precision));
      Eigen::VectorXd decoded = Eigen::VectorXd::Constant(d, -7.0);
      const DecodeTarget target(decoded);
      std::unique_ptr<ChunkEncoder> encoder = q.ChunkEncode(d, &target);
      ASSERT_TRUE(encoder->any_order());
      const int64_t step = std::max<int64_t>(1, d / 5 + 3);  // chunks of odd lengths
      for (int64_t end = d; end > 0; end -= step) {
        const int64_t begin = std::max<int64_t>(0, end - step);
        encoder->PutAt(begin, x.data() + begin, end - begin);
      }
      const std::optional<Message> m = encoder->Finish();
      ASSERT_TRUE(m.has_value());
      if (precision == 32) {
        EXPECT_EQ(std::vector<uint64_t>(m->words.begin(), m->words.end()), Fp32Words(x));
      } else {
        for (int64_t i = 0; i < d; ++i) ASSERT_EQ(m->words[i], std::bit_cast<uint64_t>(x[i]));
      }
      for (int64_t i = 0; i < d; ++i) {
        const double wire = precision == 32 ? static_cast<double>(static_cast<float>(x[i])) : x[i];
        ASSERT_EQ(decoded[i], wire) << "d " << d << ", i " << i;
      }
    }
  }
  Rng rng(1);
  const std::unique_ptr<Compressor> ternary =
      CompressorRegistry().Make(CompressorSpec("block_ternary"));
  EXPECT_FALSE(ternary->ChunkEncodeWithRng(10, rng, nullptr)->any_order());
}

// With a target, the chunks' decoded values land there as they go in: the value on the wire
// (x rounded to fp32, or x itself at 64 bits), plainly or as base + weight * value. d = 2.1M takes
// the streaming stores (a message over 8 MiB) from the chunk's first 16-byte boundary on.
TEST(ChunkEncodeTest, IdentityChunksDeliverTheDecodedValues) {
  for (const int64_t precision : {32, 64}) {
    for (const int64_t d : {int64_t{0}, int64_t{309}, int64_t{2'100'001}}) {
      const Eigen::VectorXd x = Gaussian(d, 8);
      const Eigen::VectorXd base = Gaussian(d, 9);
      Eigen::VectorXd wire(d);
      for (int64_t i = 0; i < d; ++i) {
        wire[i] = precision == 32 ? static_cast<double>(static_cast<float>(x[i])) : x[i];
      }
      Eigen::VectorXd plain = Eigen::VectorXd::Constant(d, -7.0), updated = base;
      const DecodeTarget to_plain(plain), to_updated(updated, updated, 0.5);
      const std::unique_ptr<Compressor> q = IdentityOf(precision);
      const std::optional<Message> m = FedInChunks(*q, x, &to_plain);
      ASSERT_TRUE(m.has_value());
      ASSERT_TRUE(FedInChunks(*q, x, &to_updated).has_value());
      Rng rng(1);
      EXPECT_EQ(m->words, q->Encode(x, rng).words) << precision << " bits, d " << d;
      EXPECT_TRUE(plain == wire) << precision << " bits, d " << d;
      int64_t wrong = 0;
      for (int64_t i = 0; i < d; ++i) wrong += updated[i] != base[i] + 0.5 * wire[i];
      EXPECT_EQ(wrong, 0) << precision << " bits, d " << d;
    }
  }
}

// Where Encode throws (NaN, Inf, a value beyond fp32 at 32 bits) the chunk encoder declines.
TEST(ChunkEncodeTest, IdentityChunksDeclineWhatEncodeRejects) {
  for (const double bad : {double{NAN}, double{INFINITY}, 1e39}) {
    for (const int64_t precision : {32, 64}) {
      Eigen::VectorXd x = Gaussian(500, 5);
      x[400] = bad;
      const std::unique_ptr<Compressor> q = IdentityOf(precision);
      Rng rng(1);
      const bool throws = bad != 1e39 || precision == 32;
      if (throws) {
        EXPECT_THROW(q->Encode(x, rng), NonFiniteError);
      }
      EXPECT_EQ(FedInChunks(*q, x).has_value(), !throws) << bad << " at " << precision << " bits";
    }
  }
}

// Every compressor that has a chunk encoder gives Encode's message with it; those that draw
// random numbers have none.
TEST(ChunkEncodeTest, EveryChunkEncoderGivesEncodesMessage) {
  const Eigen::VectorXd x = Gaussian(1001, 6);
  for (const std::string& name : CompressorRegistry().names()) {
    const std::unique_ptr<Compressor> q = CompressorRegistry().Make(CompressorSpec(name));
    if (q->ChunkEncode(x.size(), nullptr) == nullptr) continue;
    EXPECT_EQ(name, "identity") << "a chunk encoder besides identity's: extend this test";
    Rng rng(2);
    const Message expected = q->Encode(x, rng);
    const std::optional<Message> got = FedInChunks(*q, x);
    ASSERT_TRUE(got.has_value()) << name;
    EXPECT_EQ(got->payload_bits, expected.payload_bits) << name;
    EXPECT_EQ(got->words, expected.words) << name;
  }
  EXPECT_EQ(CompressorRegistry().Make(CompressorSpec("qsgd"))->ChunkEncode(10, nullptr), nullptr);
}

// A link stamps the chunk encoder's message like its Encode's; with buckets it has none.
TEST(ChunkEncodeTest, LinkStampsChunkMessagesAndHasNoneWithBuckets) {
  LinkCompressor link(IdentityOf(32));
  const Eigen::VectorXd x = Gaussian(400, 7);
  const std::optional<Message> m = FedInChunks(link, x);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->codec, "identity");
  EXPECT_EQ(m->elements, 400);
  link.set_buckets({{0, 100}, {100, 300}});
  EXPECT_EQ(link.ChunkEncode(400, nullptr), nullptr);
}

// Pointers to the messages, in order, as DecodeSumInto takes them.
std::vector<const Message*> Pointers(const std::vector<Message>& messages) {
  std::vector<const Message*> p;
  for (const Message& m : messages) p.push_back(&m);
  return p;
}

// sum_j = ((out_j + w m0_j) + w m1_j) + ... with m_k the fp32 values: identity's fused pass, by
// hand, for 0 to 5 messages over a dimension of several of its chunks plus a partial one.
TEST(DecodeSumIntoTest, IdentityAddsEveryMessageInOrder) {
  const std::unique_ptr<Compressor> q = IdentityOf(32);
  constexpr int64_t kDim = 1301;
  std::vector<Eigen::VectorXd> values;
  std::vector<Message> messages;
  Rng rng(3);
  for (int k = 0; k < 5; ++k) {
    values.push_back(Gaussian(kDim, 8 + k, k % 2 == 0 ? 1.0 : 1e-3));
    messages.push_back(q->Encode(values.back(), rng));
  }
  for (const double weight : {1.0, 0.3}) {
    for (size_t count = 0; count <= messages.size(); ++count) {
      Eigen::VectorXd sum = Gaussian(kDim, 20);
      Eigen::VectorXd expected = sum;
      for (int64_t j = 0; j < kDim; ++j) {
        for (size_t k = 0; k < count; ++k) {
          expected[j] = expected[j] + weight * static_cast<float>(values[k][j]);
        }
      }
      const std::vector<const Message*> run = Pointers(messages);
      q->DecodeSumInto(std::span(run).first(count), DecodeTarget(sum, sum, weight));
      EXPECT_EQ(std::memcmp(sum.data(), expected.data(), sizeof(double) * kDim), 0)
          << weight << " " << count;
    }
  }
}

// For every compressor (and identity at 64 bits, and a link with buckets), three messages into a
// sum and into a target that is not a sum (the last message's values win): what one DecodeInto
// call each gives.
TEST(DecodeSumIntoTest, EveryCompressorGivesOneDecodeEach) {
  std::vector<std::unique_ptr<Compressor>> all;
  for (const std::string& name : CompressorRegistry().names()) {
    all.push_back(CompressorRegistry().Make(CompressorSpec(name)));
  }
  all.push_back(IdentityOf(64));
  auto link = std::make_unique<LinkCompressor>(IdentityOf(32));
  link->set_buckets({{0, 300}, {300, 200}});
  all.push_back(std::move(link));
  const Eigen::VectorXd base = Gaussian(500, 13);
  for (const std::unique_ptr<Compressor>& q : all) {
    Rng rng(4);
    std::vector<Message> messages;
    for (int k = 0; k < 3; ++k) messages.push_back(q->Encode(Gaussian(500, 11 + k), rng));
    const std::vector<const Message*> run = Pointers(messages);
    Eigen::VectorXd sum = base, expected = base;
    for (const Message& m : messages) q->DecodeInto(m, DecodeTarget(expected, expected, 0.5));
    q->DecodeSumInto(run, DecodeTarget(sum, sum, 0.5));
    EXPECT_EQ(std::memcmp(sum.data(), expected.data(), sizeof(double) * 500), 0) << q->Name();
    Eigen::VectorXd out(500), out_expected(500);
    q->Decode(messages.back(), out_expected);
    q->DecodeSumInto(run, DecodeTarget(out));
    EXPECT_EQ(std::memcmp(out.data(), out_expected.data(), sizeof(double) * 500), 0) << q->Name();
  }
}

// An fp32 identity message of d Gaussian values (seed) and a copy whose value 2 word is a NaN.
std::pair<Message, Message> GoodAndNaN(int64_t d, uint64_t seed, size_t word) {
  Rng rng(seed);
  const Message good = IdentityOf(32)->Encode(Gaussian(d, seed), rng);
  Message nan = good;
  nan.words[word] |= uint64_t{0x7FC00000};
  return {good, nan};
}

// DecodeSumFromZero: the sum ((0 + m0_j) + m1_j) + ... written out by hand (from each message's
// decoded values), handed over in chunks in order that cover [0, d), for every compressor; the
// scratch's old values never matter.
TEST(DecodeSumIntoTest, FromZeroHandsOverEachFinalChunkInOrder) {
  std::vector<std::unique_ptr<Compressor>> all;
  for (const std::string& name : CompressorRegistry().names()) {
    all.push_back(CompressorRegistry().Make(CompressorSpec(name)));
  }
  all.push_back(IdentityOf(64));
  all.push_back(std::make_unique<LinkCompressor>(IdentityOf(32)));
  constexpr int64_t kDim = 1301;
  for (const std::unique_ptr<Compressor>& q : all) {
    Rng rng(6);
    std::vector<Message> messages;
    std::vector<Eigen::VectorXd> decoded;
    for (int k = 0; k < 3; ++k) {
      messages.push_back(q->Encode(Gaussian(kDim, 30 + k), rng));
      decoded.emplace_back(kDim);
      q->Decode(messages.back(), decoded.back());
    }
    Eigen::VectorXd expected(kDim);
    for (int64_t j = 0; j < kDim; ++j) {
      expected[j] = ((0.0 + decoded[0][j]) + decoded[1][j]) + decoded[2][j];
    }
    Eigen::VectorXd scratch = Gaussian(kDim, 40), sum(kDim);
    int64_t next = 0;
    const std::vector<const Message*> run = Pointers(messages);
    q->DecodeSumFromZero(run, scratch, [&](int64_t begin, int64_t end, const double* values) {
      EXPECT_EQ(begin, next) << q->Name();
      EXPECT_GT(end, begin) << q->Name();
      std::copy(values, values + (end - begin), sum.data() + begin);
      next = end;
    });
    EXPECT_EQ(next, kDim) << q->Name();
    EXPECT_EQ(std::memcmp(sum.data(), expected.data(), sizeof(double) * kDim), 0) << q->Name();
  }
}

// A corrupted value stops the hand-over before its chunk: a DecodeError, no later chunk.
TEST(DecodeSumIntoTest, FromZeroStopsBeforeACorruptedChunk) {
  const auto [good, nan] = GoodAndNaN(1301, 15, 600);  // value 1200 becomes a NaN
  const std::unique_ptr<Compressor> q = IdentityOf(32);
  const std::vector<const Message*> run = {&good, &nan};
  Eigen::VectorXd sum(1301);
  int64_t handed = 0;
  EXPECT_THROW(
      q->DecodeSumFromZero(run, sum, [&](int64_t, int64_t end, const double*) { handed = end; }),
      DecodeError);
  EXPECT_LE(handed, 1200);
}

// A corrupted (non-finite) value in any message, or a truncated message, is a DecodeError.
TEST(DecodeSumIntoTest, IdentityRejectsCorruptedMessages) {
  const std::unique_ptr<Compressor> q = IdentityOf(32);
  const auto [good, nan] = GoodAndNaN(101, 14, 20);  // value 40 becomes a NaN
  Message truncated = good;
  truncated.words.pop_back();
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(101);
  const DecodeTarget target(sum, sum, 1.0);
  for (const Message* bad : {&nan, static_cast<const Message*>(&truncated)}) {
    for (size_t at = 0; at < 3; ++at) {
      std::vector<const Message*> run = {&good, &good, &good};
      run[at] = bad;
      EXPECT_THROW(q->DecodeSumInto(run, target), DecodeError) << at;
    }
  }
}

}  // namespace
}  // namespace commsim
