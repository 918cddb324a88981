#include "base/counter_rng.h"

#include <algorithm>
#include <cstring>

#include "base/target_clones.h"

namespace commsim {
namespace {

constexpr int kLanes = 64;                                      // Philox blocks per chunk
constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;    // Philox4x32 multipliers
constexpr uint32_t kBump0 = 0x9E3779B9u, kBump1 = 0xBB67AE85u;  // Weyl key schedule

// One Philox4x32 round on every lane (structure of arrays: c0[l] is word 0 of lane l).
inline void Round(uint32_t* c0, uint32_t* c1, uint32_t* c2, uint32_t* c3, uint32_t k0,
                  uint32_t k1) {
  for (int l = 0; l < kLanes; ++l) {
    const uint64_t p0 = uint64_t{kMul0} * c0[l];
    const uint64_t p1 = uint64_t{kMul1} * c2[l];
    const uint32_t n0 = static_cast<uint32_t>(p1 >> 32) ^ c1[l] ^ k0;
    const uint32_t n2 = static_cast<uint32_t>(p0 >> 32) ^ c3[l] ^ k1;
    c1[l] = static_cast<uint32_t>(p1);
    c3[l] = static_cast<uint32_t>(p0);
    c0[l] = n0;
    c2[l] = n2;
  }
}

}  // namespace

// Integer arithmetic only, so the clones agree bit for bit. The 64 lanes are written as plain
// loops that gcc vectorises (the 32x32->64 multiplies become vpmuludq). The Random123 header's
// one-block-at-a-time form vectorises less well (about 1.8x slower here); the tests check this
// form against it and against the published known answers.
COMMSIM_TARGET_CLONES
void CounterRng::FillChunk(uint64_t chunk, uint32_t* out) const {
  alignas(64) uint32_t c0[kLanes], c1[kLanes], c2[kLanes], c3[kLanes];
  for (int l = 0; l < kLanes; ++l) {
    c0[l] = static_cast<uint32_t>(l);
    c1[l] = static_cast<uint32_t>(chunk);
    c2[l] = static_cast<uint32_t>(chunk >> 32);
    c3[l] = 0;
  }
  uint32_t k0 = static_cast<uint32_t>(key_), k1 = static_cast<uint32_t>(key_ >> 32);
  for (int r = 0; r < 10; ++r, k0 += kBump0, k1 += kBump1) Round(c0, c1, c2, c3, k0, k1);
  std::memcpy(out, c0, sizeof c0);
  std::memcpy(out + kLanes, c1, sizeof c1);
  std::memcpy(out + 2 * kLanes, c2, sizeof c2);
  std::memcpy(out + 3 * kLanes, c3, sizeof c3);
}

void CounterRng::Fill(uint64_t first, int64_t n, uint32_t* out) const {
  alignas(64) uint32_t chunk[kChunk];
  const uint64_t end = first + static_cast<uint64_t>(n);
  for (uint64_t j = first; j < end;) {
    const uint64_t c = j / kChunk, offset = j % kChunk;
    const uint64_t m = std::min<uint64_t>(kChunk - offset, end - j);
    if (offset == 0 && m == kChunk) {
      FillChunk(c, out);
    } else {
      FillChunk(c, chunk);
      std::memcpy(out, chunk + offset, m * sizeof(uint32_t));
    }
    out += m;
    j += m;
  }
}

uint32_t CounterRng::Draw(uint64_t j) const {
  uint32_t value = 0;
  Fill(j, 1, &value);
  return value;
}

}  // namespace commsim
