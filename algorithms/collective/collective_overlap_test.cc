// DDP-style overlap in the collective family (compute.overlap = "layerwise"): allreduce_sgd
// all-reduces its gradient bucket by bucket as the backward pass releases the buckets, one
// collective at a time per worker; times against closed forms written out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "algorithms/collective/allreduce_sgd.h"
#include "algorithms/run_test_util.h"
#include "models/layer_profile.h"
#include "sim/network_test_util.h"
#include "sim/topology_regular.h"

namespace commsim {
namespace {

using testing::FixedComputeRun;
using testing::RunOutput;

constexpr int64_t kNs = 1000;  // picoseconds per nanosecond

using net_test::Seconds;

// allreduce_sgd (ring, fp32 on the wire) on n workers (default two) in a ring of 1 Gbps, 1 us
// links.
RunOutput PlayRing(const LayerProfile& layers, int dim, bool layerwise, int64_t bucket_params,
                   double compute_s, int n = 2) {
  RingConfig rc;
  rc.links.bandwidth_bps = 1e9;
  rc.links.latency_s = 1e-6;
  const Topology ring = RingBuilder(rc).Build(n);
  FixedComputeRun run(ring, n, dim, compute_s, &layers, layerwise, bucket_params);
  run.setup.iterations = 2;
  run.setup.step.size = 0.01;
  AllReduceSgdRule rule{AllReduceSgdConfig()};
  RunOutput out;
  RunCollective(run.setup, CollectiveOptions{}, rule, &out.records, &out.summary);
  return out;
}

// Two layers in forward order: L0 150 parameters, L1 100; forward 1 and backward 2 FLOPs per
// sample each; cap 100 parameters. Buckets in backward order: b0 = L1, ready after forward (2)
// + backward of L1 (2) of 6 FLOPs = 2/3 of the 3 ms step; L0 split by the cap into b1 (100
// values) and b2 (50), both ready at 3 ms. A ring all-reduce of m values on 2 workers is 2 steps
// of m/2 values: 2 (T(16 m bits) + 1 us), T(x) = x ns at 1 Gbps.
TEST(CollectiveOverlapTest, BucketsAreAllReducedAsTheBackwardPassReleasesThem) {
  const LayerProfile layers{.name = "two",
                            .layers = {Layer{"L0", 150, 1, 2}, Layer{"L1", 100, 1, 2}}};
  const auto ring_ar = [](int64_t m) { return 2 * (16 * m * kNs + 1000 * kNs); };
  const RunOutput over = PlayRing(layers, 250, true, 100, 3e-3);
  // b0 runs 2 ms .. 2 ms + 5.2 us, long before 3 ms; then b1 and b2 one after the other.
  const int64_t end = 3'000'000 * kNs + ring_ar(100) + ring_ar(50);
  ASSERT_EQ(over.records.size(), 3u) << over.summary.message;
  EXPECT_EQ(over.records[1].iter_time_s, Seconds(end));
  EXPECT_EQ(over.records[1].overlap_saved_s, Seconds(1'000'000 * kNs));
  EXPECT_EQ(over.records[1].bits_up, 2 * 2 * 16 * 250);  // every value crosses twice, each way
  // Without overlap: one all-reduce of 250 values after the compute.
  const RunOutput plain = PlayRing(layers, 250, false, 100, 3e-3);
  EXPECT_EQ(plain.records[1].iter_time_s, Seconds(3'000'000 * kNs + ring_ar(250)));
  EXPECT_EQ(plain.records[1].overlap_saved_s, 0.0);
  // The same learning up to rounding: partial sums travel as fp32 and each bucket is cut into
  // its own chunks, so they are rounded at other points (a misplaced or lost bucket would be
  // off by far more).
  EXPECT_NEAR(over.records[2].loss, plain.records[2].loss, 1e-8 * std::abs(plain.records[2].loss));
  EXPECT_NE(over.records[2].loss, over.records[0].loss);
}

// With every bucket released at the end of the compute (no FLOPs to place them) and one bucket,
// overlap is no overlap: the same time, the same learning bit for bit.
TEST(CollectiveOverlapTest, OneBucketAtTheEndOfComputeEqualsNoOverlap) {
  const LayerProfile layers{.name = "one", .layers = {Layer{"all", 240, 0, 0}}};
  for (int n : {2, 3, 4}) {
    const RunOutput one = PlayRing(layers, 240, true, 240, 1e-3, n);
    const RunOutput plain = PlayRing(layers, 240, false, 240, 1e-3, n);
    ASSERT_EQ(one.records.size(), plain.records.size());
    for (size_t k = 1; k < one.records.size(); ++k) {
      EXPECT_EQ(one.records[k].iter_time_s, plain.records[k].iter_time_s) << n;
      EXPECT_EQ(one.records[k].loss, plain.records[k].loss) << n;
      EXPECT_EQ(one.records[k].overlap_saved_s, 0.0);
    }
  }
}

}  // namespace
}  // namespace commsim
