// Framework wire formats: the layout's size against the frameworks' formats written out here,
// the exact encoding recovered bit for bit, corrupt length words rejected, and an all-gather run
// that ships GRACE's layout with the same iterates as the exact encoding.
#include "compression/codec/framework_wire.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "algorithms/collective/allgather_compressed.h"
#include "algorithms/decentralized/test_support.h"
#include "algorithms/registry.h"
#include "algorithms/run_test_util.h"
#include "base/error.h"
#include "base/rng.h"
#include "compression/compressors/top_k.h"
#include "models/compute_time.h"
#include "sim/topology_regular.h"

namespace commsim {
namespace {

Eigen::VectorXd RandomVector(int64_t d) {
  Rng rng(3, 0, "wire");
  Eigen::VectorXd x(d);
  for (int64_t i = 0; i < d; ++i) x[i] = static_cast<double>(rng.NextU64() % 2001) / 1000.0 - 1.0;
  return x;
}

// The layouts: fp32 values; int32 index + fp32 value per kept value; a byte per element + fp32.
TEST(FrameworkWireTest, LayoutSizesAndTheExactEncodingComesBackBitForBit) {
  const int64_t d = 1000;
  const Eigen::VectorXd x = RandomVector(d);
  const std::vector<std::pair<std::string, int64_t>> cases = {
      {"identity", 32 * d},        {"top_k", 64 * 10},   {"rand_k", 64 * 10},
      {"scaled_sign", 8 * d + 32}, {"qsgd", 8 * d + 32}, {"block_ternary", 8 * d + 32}};
  for (const auto& [name, layout] : cases) {
    auto link = MakeLinkCompressor(CompressorSpec(name));
    Rng rng(1);
    const Message exact = link->Encode(x, rng);
    const Message framed = ToFrameworkWire(exact);
    EXPECT_EQ(framed.payload_bits, std::max(layout, exact.payload_bits + 64)) << name;
    const Message back = FromFrameworkWire(framed);
    EXPECT_EQ(back.payload_bits, exact.payload_bits) << name;
    EXPECT_TRUE(
        std::equal(exact.words.begin(), exact.words.end(), back.words.begin(), back.words.end()))
        << name;
  }
  EXPECT_EQ(FrameworkWireBits("dithered", d, d), -1);
}

TEST(FrameworkWireTest, ALengthWordPastTheMessageIsRejected) {
  auto link = MakeLinkCompressor(CompressorSpec("top_k"));
  Rng rng(1);
  Message framed = ToFrameworkWire(link->Encode(RandomVector(1000), rng));
  const int64_t last = (framed.payload_bits - 64) / 64;  // the length word starts in this word
  Message corrupt = framed;
  for (size_t w = static_cast<size_t>(last); w < corrupt.words.size(); ++w)
    corrupt.words[w] = ~0ULL;
  EXPECT_THROW(FromFrameworkWire(corrupt), DecodeError);
  Message tiny;
  tiny.payload_bits = 10;
  tiny.words = {0};
  EXPECT_THROW(FromFrameworkWire(tiny), DecodeError);
}

// top_k 10% of 40 values on 3 workers: every message is 4 x 64 bits in GRACE's layout (the exact
// encoding plus its length word is shorter), crossing n - 1 links; the iterates are unchanged.
TEST(FrameworkWireTest, AllGatherShipsTheLayoutWithTheSameIterates) {
  const int n = 3;
  const Topology topology = testing::LinkedRing(n, 1e9, 1e-6);
  testing::FixedComputeRun fixed(topology, n, 40, 0, nullptr);
  fixed.setup.iterations = 4;
  fixed.setup.header_bits = 40;
  const auto run = [&](const std::string& wire) {
    AllGatherCompressedConfig c;
    c.compressor = CompressorSpec("top_k");
    dynamic_cast<TopKConfig&>(*c.compressor.config).fraction = 0.1;
    c.wire = wire;
    return fixed.Run(*MakeAlgorithm("allgather_compressed", c));
  };
  const testing::RunOutput exact = run("exact"), framed = run("framework");
  ASSERT_EQ(framed.summary.status, kStatusOk) << framed.summary.message;
  EXPECT_EQ(framed.records[1].bits_up, (n - 1) * n * (64 * 4 + 40));
  EXPECT_LT(exact.records[1].bits_up, framed.records[1].bits_up);
  for (size_t k = 0; k < exact.records.size(); ++k) {
    EXPECT_EQ(exact.records[k].loss, framed.records[k].loss) << k;
  }
  AllGatherCompressedConfig bad;
  bad.compressor = CompressorSpec("dithered");
  bad.wire = "framework";
  ParamProblems problems;
  bad.Validate(problems);
  ASSERT_EQ(problems.problems().size(), 1u);
  EXPECT_NE(problems.problems()[0].message.find("\"dithered\""), std::string::npos);
}

}  // namespace
}  // namespace commsim
