// The bucket planner against hand-written plans (PyTorch DDP's rule, backward order).
#include "models/buckets.h"

#include <gtest/gtest.h>

#include "base/error.h"

namespace commsim {
namespace {

void ExpectBucket(const Bucket& b, int64_t offset, int64_t size, double ready) {
  EXPECT_EQ(b.offset, offset);
  EXPECT_EQ(b.size, size);
  EXPECT_DOUBLE_EQ(b.ready_fraction, ready);
}

// Layers (forward order) L0 = 150, L1 = 100, L2 = 30 parameters; forward 1, 2, 3 FLOPs and
// backward 2, 4, 6 (total 18). Cap 120: bucket 0 = L2 (30) + the last 90 of L1, ready after
// forward (6) + backward of L2 and L1 (10) = 16/18; bucket 1 = L1's first 10 + L0's last 110,
// ready at 18/18; bucket 2 = L0's first 40.
TEST(BucketsTest, FillsInBackwardOrderAndSplitsLayersAtTheCap) {
  const LayerProfile p{
      .name = "three",
      .layers = {Layer{"L0", 150, 1, 2}, Layer{"L1", 100, 2, 4}, Layer{"L2", 30, 3, 6}}};
  const std::vector<Bucket> b = PlanBuckets(&p, 280, 120);
  ASSERT_EQ(b.size(), 3u);
  ExpectBucket(b[0], 160, 120, 16.0 / 18.0);
  ExpectBucket(b[1], 40, 120, 1.0);
  ExpectBucket(b[2], 0, 40, 1.0);
  // A cap that holds L2 exactly closes bucket 0 at the layer boundary: ready after L2 alone.
  const std::vector<Bucket> c = PlanBuckets(&p, 280, 30);
  ExpectBucket(c[0], 250, 30, 12.0 / 18.0);
  EXPECT_EQ(c.size(), 1u + 4u + 5u);  // L2; L1 in 4 buckets of 30 (the last 10 + 20 of L0) ...
}

TEST(BucketsTest, WithoutAProfileEveryBucketIsReadyAtTheEnd) {
  const std::vector<Bucket> b = PlanBuckets(nullptr, 250, 100);
  ASSERT_EQ(b.size(), 3u);
  ExpectBucket(b[0], 150, 100, 1.0);
  ExpectBucket(b[1], 50, 100, 1.0);
  ExpectBucket(b[2], 0, 50, 1.0);
  ASSERT_EQ(PlanBuckets(nullptr, 250, 1000).size(), 1u);
}

TEST(BucketsTest, AProfileOfAnotherSizeIsAnError) {
  const LayerProfile p{.name = "small", .layers = {Layer{"L0", 10, 1, 2}}};
  try {
    PlanBuckets(&p, 11, 4);
    ADD_FAILURE() << "no error";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), "layer profile small has 10 parameters but the model has 11");
  }
}

}  // namespace
}  // namespace commsim
