#include "compression/compressors/stream_lanes.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "compression/compressors/stream_lane_kernels.h"

namespace commsim {
namespace {

// One xoshiro256 state transition: Rng::NextU64's update.
inline void Step(Rng& rng) { rng.NextU64(); }

// The characteristic polynomial P of the transition, without its leading x^256 term: the
// minimal polynomial (Berlekamp-Massey) of the bit sequence "bit 0 of word 0" over 512 steps.
// P is primitive of degree 256, so any nonzero state's sequence has it as minimal polynomial.
Gf2Poly CharacteristicPoly() {
  constexpr int kN = 512;
  std::vector<uint8_t> bit(kN), c(kN + 1, 0), b(kN + 1, 0);
  Rng rng(0);
  rng.set_state({1, 0, 0, 0});
  for (int i = 0; i < kN; ++i, Step(rng)) bit[i] = rng.state()[0] & 1;
  c[0] = b[0] = 1;
  int length = 0, gap = 1;
  for (int i = 0; i < kN; ++i) {
    uint8_t discrepancy = bit[i];
    for (int j = 1; j <= length; ++j) discrepancy ^= c[j] & bit[i - j];
    if (discrepancy == 0) {
      ++gap;
      continue;
    }
    const std::vector<uint8_t> previous = c;
    for (int j = 0; j + gap <= kN; ++j) c[j + gap] ^= b[j];
    if (2 * length <= i) {
      length = i + 1 - length;
      b = previous;
      gap = 1;
    } else {
      ++gap;
    }
  }
  Gf2Poly p{};  // P(x) = x^length C(1/x): coefficient of x^(length - j) is c[j]
  for (int j = 1; j <= length; ++j) {
    if (c[j] != 0) p[(length - j) / 64] |= uint64_t{1} << ((length - j) % 64);
  }
  return p;
}

const Gf2Poly& CharPoly() {
  static const Gf2Poly p = CharacteristicPoly();
  return p;
}

// a * x mod P.
Gf2Poly TimesX(Gf2Poly a, const Gf2Poly& p) {
  const uint64_t carry = a[3] >> 63;
  for (int w = 3; w > 0; --w) a[w] = (a[w] << 1) | (a[w - 1] >> 63);
  a[0] <<= 1;
  for (int w = 0; w < 4; ++w) a[w] ^= p[w] & (0 - carry);
  return a;
}

Gf2Poly TimesMod(const Gf2Poly& a, const Gf2Poly& b, const Gf2Poly& p) {
  Gf2Poly r{};
  for (int i = 255; i >= 0; --i) {
    r = TimesX(r, p);
    const uint64_t mask = 0 - ((b[i / 64] >> (i % 64)) & 1);
    for (int w = 0; w < 4; ++w) r[w] ^= a[w] & mask;
  }
  return r;
}

// The jump polynomials of one lane stride and of seven, computed once.
struct LaneJumps {
  Gf2Poly stride = XoshiroJumpPoly(LaneDraws::kLaneSteps);
  Gf2Poly rest = XoshiroJumpPoly((LaneDraws::kLanes - 1) * LaneDraws::kLaneSteps);
};
const LaneJumps& Jumps() {
  static const LaneJumps jumps;
  return jumps;
}

static_assert(LaneDraws::kLanes == lane_kernels::kLanes);
static_assert(LaneDraws::kLaneSteps % 8 == 0);

// The widest kernel versions the machine runs, picked once.
void JumpLanes(lane_kernels::Lanes& lanes, const Gf2Poly& q) {
  static const lane_kernels::JumpFn jump = lane_kernels::Jump().Widest();
  jump(lanes, q);
}
void GenerateLanes(lane_kernels::Lanes& lanes, int64_t steps, double* out) {
  static const lane_kernels::GenerateFn generate = lane_kernels::Generate().Widest();
  generate(lanes, steps, out);
}

}  // namespace

Gf2Poly XoshiroJumpPoly(uint64_t n) {
  const Gf2Poly& p = CharPoly();
  Gf2Poly result{1, 0, 0, 0}, power{2, 0, 0, 0};  // 1 and x
  for (; n != 0; n >>= 1) {
    if (n & 1) result = TimesMod(result, power, p);
    power = TimesMod(power, power, p);
  }
  return result;
}

XoshiroState XoshiroJump(const XoshiroState& s, const Gf2Poly& q) {
  XoshiroState acc{};
  Rng t(0);
  t.set_state(s);
  for (int i = 0; i < 256; ++i, Step(t)) {
    const uint64_t mask = 0 - ((q[i / 64] >> (i % 64)) & 1);
    const XoshiroState words = t.state();
    for (int w = 0; w < 4; ++w) acc[w] ^= words[w] & mask;
  }
  return acc;
}

LaneDraws::LaneDraws(const Rng& rng)
    : start_(rng), buf_(std::make_unique_for_overwrite<double[]>(kPad + kDraws)) {}

void LaneDraws::Refill() {
  if (!generated_) {
    XoshiroState s = start_.state();
    for (int l = 0; l < kLanes; ++l) {
      if (l > 0) s = XoshiroJump(s, Jumps().stride);
      for (int w = 0; w < 4; ++w) lanes_[w][l] = s[w];
    }
    generated_ = true;
  } else {  // lane l is at draw (l + 1) kLaneSteps of the last refill: move it on by 7 lanes
    JumpLanes(lanes_, Jumps().rest);
  }
  starts_ = lanes_;
  GenerateLanes(lanes_, kLaneSteps, buf_.get() + kPad);
}

void LaneDraws::Prepare(int64_t /*first*/, int64_t m) {
  if (pos_ + m > kPad + kDraws) {
    const int64_t left = kPad + kDraws - pos_;  // < m <= kPad
    std::memmove(buf_.get() + kPad - left, buf_.get() + pos_, sizeof(double) * left);
    Refill();
    pos_ = kPad - left;
  }
  chunk_ = buf_.get() + pos_;
  pos_ += m;
}

Rng LaneDraws::rng() const {
  Rng out = start_;
  if (!generated_) return out;
  // pos_ - kPad draws of the last refill are handed out (Prepare refills only for a chunk that
  // reaches into the new draws).
  const int64_t used = pos_ - kPad;
  const int64_t lane = std::min<int64_t>(used / kLaneSteps, kLanes - 1);
  XoshiroState s;
  for (int w = 0; w < 4; ++w) s[w] = starts_[w][lane];
  out.set_state(s);
  for (int64_t i = lane * kLaneSteps; i < used; ++i) Step(out);
  return out;
}

}  // namespace commsim
