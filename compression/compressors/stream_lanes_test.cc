#include "compression/compressors/stream_lanes.h"

#include <gtest/gtest.h>

#include <vector>

#include "base/rng.h"

namespace commsim {
namespace {

// The oracle: the plain serial stream, one NextU64 per step.
XoshiroState SerialAfter(const Rng& rng, int64_t steps) {
  Rng r = rng;
  for (int64_t i = 0; i < steps; ++i) r.NextU64();
  return r.state();
}

TEST(StreamLanesTest, JumpEqualsThatManySerialSteps) {
  const Rng rng(42);
  for (int64_t n : {0, 1, 2, 255, 256, 257, 2048, 14336, 100003}) {
    EXPECT_EQ(XoshiroJump(rng.state(), XoshiroJumpPoly(static_cast<uint64_t>(n))),
              SerialAfter(rng, n))
        << n;
  }
}

// Draws handed out in chunks of uneven sizes, across several refills (kLanes * kLaneSteps draws
// each): every draw and the final state are the serial stream's.
TEST(StreamLanesTest, LaneDrawsEqualTheSerialStreamAndEndInItsState) {
  const int64_t refill = LaneDraws::kLanes * LaneDraws::kLaneSteps;
  for (int64_t total : {int64_t{0}, int64_t{1}, refill - 1, refill, refill + 1, 3 * refill + 77}) {
    SCOPED_TRACE(total);
    const Rng start(7);
    Rng serial = start;
    LaneDraws lanes(start);
    int64_t handed = 0;
    for (int64_t chunk = 1; handed < total; chunk = chunk % 256 + 37) {
      const int64_t m = std::min(chunk, total - handed);
      lanes.Prepare(handed, m);
      for (int64_t k = 0; k < m; ++k)
        ASSERT_EQ(lanes.Next(k), static_cast<double>(serial.NextU64() >> 11)) << handed + k;
      handed += m;
    }
    EXPECT_EQ(lanes.rng().state(), serial.state());
  }
}

TEST(StreamLanesTest, RngKeepsItsCachedNormal) {
  Rng start(3);
  start.Normal();  // the polar method caches the second deviate
  Rng serial = start;
  LaneDraws lanes(start);
  lanes.Prepare(0, 100);
  for (int k = 0; k < 100; ++k) serial.NextU64();
  Rng after = lanes.rng();
  EXPECT_EQ(after.Normal(), serial.Normal());
  EXPECT_EQ(after.NextU64(), serial.NextU64());
}

}  // namespace
}  // namespace commsim
