// Shards and parts of a parameter-server round, against boundaries written out by hand.
#include "algorithms/ps/ps_parts.h"

#include <gtest/gtest.h>

#include <vector>

namespace commsim {
namespace {

struct Expected {
  int64_t offset, size;
  double ready;
  int shard;
};

void ExpectParts(const std::vector<PsPart>& got, const std::vector<Expected>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].segment.offset, want[i].offset) << i;
    EXPECT_EQ(got[i].segment.size, want[i].size) << i;
    EXPECT_EQ(got[i].ready_fraction, want[i].ready) << i;
    EXPECT_EQ(got[i].shard, want[i].shard) << i;
  }
}

// 10 = 4 + 3 + 3: the first 10 % 3 = 1 shard holds one more.
TEST(PsPartsTest, ShardsAreContiguousAndTheFirstRemainderShardsHoldOneMore) {
  const std::vector<Segment> s = ShardSegments(10, 3);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].offset, 0);
  EXPECT_EQ(s[0].size, 4);
  EXPECT_EQ(s[1].offset, 4);
  EXPECT_EQ(s[1].size, 3);
  EXPECT_EQ(s[2].offset, 7);
  EXPECT_EQ(s[2].size, 3);
  // One coordinate per shard, and one shard of everything.
  const std::vector<Segment> each = ShardSegments(4, 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(each[i].offset, i);
    EXPECT_EQ(each[i].size, 1);
  }
  EXPECT_EQ(ShardSegments(7, 1)[0].size, 7);
}

TEST(PsPartsTest, WithoutBucketsThePartsAreTheShards) {
  ExpectParts(SplitOverServers({Bucket{0, 10, 1.0}}, 3),
              {{0, 4, 1.0, 0}, {4, 3, 1.0, 1}, {7, 3, 1.0, 2}});
}

// Buckets in send order (last layers first, as the backward pass): [6, 10) ready at 0.5 and
// [0, 6) ready at 1.0, over 3 servers: each bucket is spread over every server (4 = 2 + 1 + 1,
// 6 = 2 + 2 + 2), so every server gets a piece of each bucket as it is released.
TEST(PsPartsTest, EveryBucketIsSpreadOverEveryServer) {
  ExpectParts(SplitOverServers({Bucket{6, 4, 0.5}, Bucket{0, 6, 1.0}}, 3), {{6, 2, 0.5, 0},
                                                                            {8, 1, 0.5, 1},
                                                                            {9, 1, 0.5, 2},
                                                                            {0, 2, 1.0, 0},
                                                                            {2, 2, 1.0, 1},
                                                                            {4, 2, 1.0, 2}});
}

// A bucket smaller than the server count goes to the first servers, one value each.
TEST(PsPartsTest, ABucketOfFewerValuesThanServersGoesToTheFirstServers) {
  ExpectParts(SplitOverServers({Bucket{3, 2, 0.25}, Bucket{0, 3, 1.0}}, 4),
              {{3, 1, 0.25, 0}, {4, 1, 0.25, 1}, {0, 1, 1.0, 0}, {1, 1, 1.0, 1}, {2, 1, 1.0, 2}});
}

}  // namespace
}  // namespace commsim
