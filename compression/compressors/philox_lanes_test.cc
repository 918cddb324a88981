#include "compression/compressors/philox_lanes.h"

#include <gtest/gtest.h>

#include <vector>

#include "base/counter_rng.h"

namespace commsim::philox_lanes {
namespace {

constexpr int64_t kChunk = CounterRng::kChunk;

// Every version's chunks are CounterRng's (itself checked against Random123's known answers).
TEST(PhiloxLanesTest, ChunksEqualCounterRngInEveryVersion) {
  for (uint64_t key : {uint64_t{0}, ~uint64_t{0}, uint64_t{0x243F6A8885A308D3}}) {
    for (uint64_t chunk :
         {uint64_t{0}, uint64_t{1}, uint64_t{0xFFFFFFFF}, uint64_t{1} << 32, ~uint64_t{0}}) {
      std::vector<uint32_t> expected(kChunk);
      CounterRng(key).FillChunk(chunk, expected.data());
      for (SimdVersion v : {SimdVersion::kPortable, SimdVersion::kAvx2, SimdVersion::kAvx512}) {
        const ChunkFn fn = Chunk().For(v);
        if (fn == nullptr) continue;
        std::vector<uint32_t> out(kChunk, 0xDEADBEEF);
        fn(key, chunk, out.data());
        EXPECT_EQ(out, expected) << "key " << key << " chunk " << chunk << " version "
                                 << static_cast<int>(v);
      }
    }
  }
}

// Windows at every kind of offset and length, across a chunk boundary or not.
TEST(PhiloxLanesTest, WindowsEqualCounterRngFill) {
  const uint64_t key = 77;
  for (uint64_t first : {uint64_t{0}, uint64_t{1}, uint64_t{255}, uint64_t{256}, uint64_t{300},
                         (uint64_t{1} << 40) - 3}) {
    for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{2}, int64_t{200}, int64_t{255}, kChunk}) {
      std::vector<uint32_t> expected(static_cast<size_t>(n));
      CounterRng(key).Fill(first, n, expected.data());
      std::vector<uint32_t> out(kChunk);
      FillWindow(key, first, n, out.data());
      out.resize(static_cast<size_t>(n));
      EXPECT_EQ(out, expected) << "first " << first << " n " << n;
    }
  }
}

}  // namespace
}  // namespace commsim::philox_lanes
