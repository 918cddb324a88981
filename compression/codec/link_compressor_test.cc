// LinkCompressor: without buckets it is the wrapped compressor bit for bit; with buckets each
// bucket is compressed on its own (top-k keeps its fraction of every bucket).
#include "compression/codec/link_compressor.h"

#include <gtest/gtest.h>

#include "base/params.h"
#include "compression/registry.h"

namespace commsim {
namespace {

TEST(LinkCompressorTest, WithoutBucketsItIsTheWrappedCompressor) {
  Rng data(5);
  Eigen::VectorXd x(300);
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = data.Normal();
  const std::unique_ptr<Compressor> plain = CompressorRegistry().Make(CompressorSpec("qsgd"));
  const std::unique_ptr<LinkCompressor> link = MakeLinkCompressor(CompressorSpec("qsgd"));
  Rng a(1), b(1);
  const Message m = plain->Encode(x, a), n = link->Encode(x, b);
  EXPECT_EQ(n.payload_bits, m.payload_bits);
  EXPECT_EQ(n.words, m.words);
  EXPECT_EQ(n.codec, "qsgd");
  EXPECT_EQ(n.elements, 300);
  EXPECT_TRUE(n.parts.empty());
}

// Top-k on two buckets [200, 300) and [0, 200): the largest entries all sit in the first 100
// coordinates, so a whole-vector top-k would keep only those; per bucket, each keeps its own.
TEST(LinkCompressorTest, TopKPerBucketKeepsItsFractionOfEveryBucket) {
  Eigen::VectorXd x = Eigen::VectorXd::Constant(300, 0.001);
  for (int i = 0; i < 100; ++i) x[i] = 10.0 + i;
  const std::unique_ptr<LinkCompressor> link = MakeLinkCompressor(CompressorSpec("top_k"));
  link->set_buckets({Segment{200, 100}, Segment{0, 200}});
  Rng rng(1);
  const Message m = link->Encode(x, rng);
  ASSERT_EQ(m.parts.size(), 2u);
  EXPECT_EQ(m.parts[0].elements, 100);
  EXPECT_EQ(m.parts[1].elements, 200);
  EXPECT_EQ(m.payload_bits, m.parts[0].payload_bits + m.parts[1].payload_bits);
  EXPECT_EQ(m.nonzeros, m.parts[0].nonzeros + m.parts[1].nonzeros);
  Eigen::VectorXd out(300);
  link->Decode(m, out);
  // The bucket [200, 300) of small values still sends its k largest (all 0.001).
  EXPECT_EQ((out.segment(200, 100).array() != 0.0).count(), m.parts[0].nonzeros);
  EXPECT_GT(m.parts[0].nonzeros, 0);
  // Decoding a message of another bucket count is a DecodeError, not a crash.
  link->set_buckets({Segment{0, 300}});
  EXPECT_THROW(link->Decode(m, out), DecodeError);
}

}  // namespace
}  // namespace commsim
