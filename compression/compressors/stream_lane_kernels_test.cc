#include "compression/compressors/stream_lane_kernels.h"

#include <gtest/gtest.h>

#include <vector>

#include "base/rng.h"
#include "compression/compressors/stream_lanes.h"

namespace commsim::lane_kernels {
namespace {

constexpr SimdVersion kVersions[] = {SimdVersion::kPortable, SimdVersion::kAvx2,
                                     SimdVersion::kAvx512};

// The oracle: the plain serial stream, lane l starting `l * stride` steps after `rng`.
Lanes SerialLanes(const Rng& rng, int64_t stride, int64_t offset) {
  Lanes lanes{};
  Rng r = rng;
  for (int64_t i = 0; i < offset; ++i) r.NextU64();
  for (int l = 0; l < kLanes; ++l) {
    for (int w = 0; w < 4; ++w) lanes[w][l] = r.state()[w];
    for (int64_t i = 0; i < stride; ++i) r.NextU64();
  }
  return lanes;
}

// Every version's draws are the serial stream's, lane l holding draws [l steps, (l + 1) steps),
// and every lane ends where the next one started.
TEST(StreamLaneKernelsTest, GenerateEqualsTheSerialStreamInEveryVersion) {
  const Rng start(11);
  for (int64_t steps : {8, 16, 24, 64, 136, 2048}) {
    std::vector<uint64_t> serial;
    Rng r = start;
    for (int64_t i = 0; i < kLanes * steps; ++i) serial.push_back(r.NextU64() >> 11);
    for (SimdVersion v : kVersions) {
      const GenerateFn generate = Generate().For(v);
      if (generate == nullptr) continue;
      SCOPED_TRACE(testing::Message() << "steps " << steps << " version " << static_cast<int>(v));
      Lanes lanes = SerialLanes(start, steps, 0);
      std::vector<double> out(static_cast<size_t>(kLanes * steps), -1.0);
      generate(lanes, steps, out.data());
      for (size_t k = 0; k < out.size(); ++k)
        ASSERT_EQ(out[k], static_cast<double>(serial[k])) << k;
      EXPECT_EQ(lanes, SerialLanes(start, steps, steps));
    }
  }
}

// Draws near 2^53 and small ones convert exactly: states whose outputs are at the extremes.
TEST(StreamLaneKernelsTest, GenerateConvertsExtremeDrawsExactly) {
  for (uint64_t s1 : {uint64_t{0}, ~uint64_t{0}, uint64_t{1} << 63, uint64_t{0x3333333333333333}}) {
    Lanes base{};
    base[1].fill(s1);
    for (int l = 0; l < kLanes; ++l) base[0][l] = l + 1;  // nonzero states
    std::vector<uint64_t> serial;
    for (int l = 0; l < kLanes; ++l) {
      Rng r(0);
      r.set_state({base[0][l], base[1][l], base[2][l], base[3][l]});
      for (int i = 0; i < 8; ++i) serial.push_back(r.NextU64() >> 11);
    }
    for (SimdVersion v : kVersions) {
      const GenerateFn generate = Generate().For(v);
      if (generate == nullptr) continue;
      Lanes lanes = base;
      std::vector<double> out(8 * kLanes);
      generate(lanes, 8, out.data());
      for (size_t k = 0; k < out.size(); ++k)
        EXPECT_EQ(out[k], static_cast<double>(serial[k]))
            << k << " version " << static_cast<int>(v);
    }
  }
}

// Every version's jump moves each lane as the serial XoshiroJump does.
TEST(StreamLaneKernelsTest, JumpEqualsTheSerialJumpInEveryVersion) {
  const Rng start(5);
  for (uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{63}, uint64_t{64}, uint64_t{14336}}) {
    const Poly q = XoshiroJumpPoly(n);
    const Lanes base = SerialLanes(start, 1000, 0);
    Lanes expected = SerialLanes(start, 1000, static_cast<int64_t>(n));
    for (SimdVersion v : kVersions) {
      const JumpFn jump = Jump().For(v);
      if (jump == nullptr) continue;
      Lanes lanes = base;
      jump(lanes, q);
      EXPECT_EQ(lanes, expected) << n << " version " << static_cast<int>(v);
    }
  }
}

}  // namespace
}  // namespace commsim::lane_kernels
