// BlockTernary::ChunkEncodeWithRng: a vector fed in chunks (the synthetic quadratic's 8192, and
// odd sizes that cut blocks) gives Encode(x, rng)'s message, EncodeWithDecoded's decoded values
// and the same final Rng state, for the codings it covers, both draw sources, both norms, short
// and long vectors (lane draws from kLaneDrawsMinDim on), zero blocks; it declines where Encode
// throws, and there is none for entropy or blocks too long to hold.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "compression/compressors/block_ternary.h"
#include "compression/compressors/compressor_test_util.h"
#include "compression/compressors/stream_lanes.h"

namespace commsim {
namespace {

using compressor_test::Gaussian;

BlockTernary Ternary(const std::string& coding, const std::string& rng, const std::string& p,
                     int64_t block) {
  BlockTernaryConfig config;
  config.coding = coding;
  config.rng = rng;
  config.p = p;
  config.block = block;
  return BlockTernary(config);
}

// x fed to `encoder` in pieces of `sizes` (cycled) until it is all in, then Finish.
std::optional<Message> Fed(ChunkEncoder& encoder, const Eigen::VectorXd& x,
                           const std::vector<int64_t>& sizes) {
  int64_t at = 0;
  for (size_t i = 0; at < x.size(); ++i) {
    const int64_t take = std::min(sizes[i % sizes.size()], x.size() - at);
    encoder.Put(x.data() + at, take);
    at += take;
  }
  return encoder.Finish();
}

// The chunk encoder against EncodeWithDecoded from the same Rng state: the same words and bits,
// the same decoded values (delivered as base + 0.5 v), the same Rng state after.
void ExpectEncodeBitForBit(const BlockTernary& q, const Eigen::VectorXd& x,
                           const std::vector<int64_t>& sizes, const std::string& what) {
  const Eigen::VectorXd base = Gaussian(x.size(), 99);
  Rng rng_old(7, 1, "uplink"), rng_new(7, 1, "uplink");
  Eigen::VectorXd old_values = base, new_values = base;
  const Message old = q.EncodeWithDecoded(x, rng_old, DecodeTarget(old_values, old_values, 0.5));
  const DecodeTarget target(new_values, new_values, 0.5);
  std::unique_ptr<ChunkEncoder> encoder = q.ChunkEncodeWithRng(x.size(), rng_new, &target);
  ASSERT_NE(encoder, nullptr) << what;
  const std::optional<Message> chunked = Fed(*encoder, x, sizes);
  ASSERT_TRUE(chunked.has_value()) << what;
  EXPECT_EQ(chunked->payload_bits, old.payload_bits) << what;
  EXPECT_TRUE(chunked->words == old.words) << what;
  EXPECT_EQ(0, std::memcmp(new_values.data(), old_values.data(), 8 * static_cast<size_t>(x.size())))
      << what;
  EXPECT_EQ(rng_new.NextU64(), rng_old.NextU64()) << what;
  // And Encode's message without a target.
  Rng rng_plain(7, 1, "uplink");
  std::unique_ptr<ChunkEncoder> plain = q.ChunkEncodeWithRng(x.size(), rng_plain, nullptr);
  const std::optional<Message> plain_message = Fed(*plain, x, sizes);
  ASSERT_TRUE(plain_message.has_value()) << what;
  EXPECT_TRUE(plain_message->words == old.words) << what;
}

TEST(BlockTernaryChunksTest, ChunksGiveEncodesMessageValuesAndRngState) {
  const std::vector<std::vector<int64_t>> feeds = {{8192}, {1, 7, 300, 2048}};
  for (const int64_t d : {1, 255, 256, 257, 8191, 8192, 8193, 2 * 8192 + 300}) {
    Eigen::VectorXd x = Gaussian(d, static_cast<uint64_t>(d));
    if (d > 600) x.segment(256, 256).setZero();  // a block that draws nothing
    for (const std::string coding : {"fixed2", "packed", "sparse"}) {
      for (const std::string rng : {"stream", "counter"}) {
        for (const std::string p : {"inf", "2"}) {
          for (const int64_t block : {256, 100}) {
            for (size_t f = 0; f < feeds.size(); ++f) {
              ExpectEncodeBitForBit(
                  Ternary(coding, rng, p, block), x, feeds[f],
                  fmt::format("d {} {} {} p={} b={} feed {}", d, coding, rng, p, block, f));
            }
          }
        }
      }
    }
  }
}

// Long enough for the lane draws (stream_lanes.h), which the chunk encoder must pick as Encode
// does.
TEST(BlockTernaryChunksTest, LongVectorsDrawInLanesAlike) {
  Eigen::VectorXd x = Gaussian(kLaneDrawsMinDim + 1000, 5);
  x.segment(8192 + 512, 256).setZero();
  for (const std::string coding : {"fixed2", "sparse"}) {
    for (const std::string rng : {"stream", "counter"}) {
      ExpectEncodeBitForBit(Ternary(coding, rng, "inf", 256), x, {8192}, coding + " " + rng);
    }
  }
  ExpectEncodeBitForBit(Ternary("packed", "stream", "2", 256), x, {1000, 24}, "packed cut");
}

// Where Encode throws (a NaN or Inf, a norm beyond fp32), Finish declines.
TEST(BlockTernaryChunksTest, DeclinesWhereEncodeThrows) {
  const double huge = 1e300;  // finite, but a 2-norm of two overflows and max |x| is beyond fp32
  for (const double bad : {std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::infinity(), 1e39, huge}) {
    for (const std::string p : {"inf", "2"}) {
      Eigen::VectorXd x = Gaussian(9000, 3);
      x[8500] = bad;
      const BlockTernary q = Ternary("fixed2", "stream", p, 256);
      Rng rng(1);
      EXPECT_THROW(q.Encode(x, rng), NonFiniteError);
      Rng chunk_rng(1);
      std::unique_ptr<ChunkEncoder> encoder = q.ChunkEncodeWithRng(x.size(), chunk_rng, nullptr);
      EXPECT_FALSE(Fed(*encoder, x, {8192}).has_value()) << bad << " p=" << p;
    }
  }
}

TEST(BlockTernaryChunksTest, NoneForEntropyOrBlocksTooLongToHold) {
  Rng rng(1);
  EXPECT_EQ(Ternary("entropy", "stream", "inf", 256).ChunkEncodeWithRng(1000, rng, nullptr),
            nullptr);
  const int64_t long_block = BlockTernary::kMaxChunkBlock + 1;
  EXPECT_EQ(
      Ternary("fixed2", "stream", "inf", long_block).ChunkEncodeWithRng(1 << 20, rng, nullptr),
      nullptr);
  // A block longer than the vector is the vector: held only when short enough.
  EXPECT_NE(Ternary("fixed2", "stream", "inf", long_block).ChunkEncodeWithRng(1000, rng, nullptr),
            nullptr);
}

}  // namespace
}  // namespace commsim
