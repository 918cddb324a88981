#include "algorithms/compressors/stream_lanes.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "sim/target_clones.h"

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

constexpr int kLanes = LaneDraws::kLanes;
using Lanes = std::array<std::array<uint64_t, kLanes>, 4>;

// One state word of every lane (gcc/clang vector extension: element-wise integer operations,
// one AVX-512 register, two AVX2 or four SSE2 ones).
typedef uint64_t LaneVec __attribute__((vector_size(8 * kLanes)));
typedef double LaneDoubles __attribute__((vector_size(8 * kLanes)));

// The lanes' states as four vectors, word w of lane l at s[w][l].
struct LaneWords {
  LaneVec s[4];
  explicit LaneWords(const Lanes& lanes) {
    for (int w = 0; w < 4; ++w) std::memcpy(&s[w], lanes[w].data(), sizeof(LaneVec));
  }
  void CopyTo(Lanes& lanes) const {
    for (int w = 0; w < 4; ++w) std::memcpy(lanes[w].data(), &s[w], sizeof(LaneVec));
  }
  // Step() on every lane.
  void Step() { XoshiroStep(s); }
  // Every lane's output (NextU64() >> 11) before the next Step(): rotl(s1 * 5, 7) * 9, the
  // products as shifts and adds.
  void Draws(LaneVec& out) const {
    const LaneVec times5 = s[1] + (s[1] << 2);
    const LaneVec rotated = (times5 << 7) | (times5 >> 57);
    out = (rotated + (rotated << 3)) >> 11;
  }
};

// Every lane's state advanced by the jump polynomial q (the same for all lanes).
COMMSIM_TARGET_CLONES
void JumpLanes(Lanes& lanes, const Gf2Poly& q) {
  LaneWords s(lanes);
  LaneVec acc[4] = {};
  for (int i = 0; i < 256; ++i) {
    const uint64_t mask = 0 - ((q[i / 64] >> (i % 64)) & 1);
    for (int w = 0; w < 4; ++w) acc[w] ^= s.s[w] & mask;
    s.Step();
  }
  for (int w = 0; w < 4; ++w) s.s[w] = acc[w];
  s.CopyTo(lanes);
}

// The 8 x 8 tile r[step][lane] transposed in place (r[lane][step]): three rounds of two-vector
// shuffles, swapping 1 x 1, then 2 x 2, then 4 x 4 blocks.
inline void Transpose8(LaneDoubles r[8]) {
  LaneDoubles s[8], t[8];
  for (int k = 0; k < 8; k += 2) {
    s[k] = __builtin_shufflevector(r[k], r[k + 1], 0, 8, 2, 10, 4, 12, 6, 14);
    s[k + 1] = __builtin_shufflevector(r[k], r[k + 1], 1, 9, 3, 11, 5, 13, 7, 15);
  }
  for (int k : {0, 1, 4, 5}) {
    t[k] = __builtin_shufflevector(s[k], s[k + 2], 0, 1, 8, 9, 4, 5, 12, 13);
    t[k + 2] = __builtin_shufflevector(s[k], s[k + 2], 2, 3, 10, 11, 6, 7, 14, 15);
  }
  for (int k = 0; k < 4; ++k) {
    r[k] = __builtin_shufflevector(t[k], t[k + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    r[k + 4] = __builtin_shufflevector(t[k], t[k + 4], 4, 5, 6, 7, 12, 13, 14, 15);
  }
}

// v < 2^53 as a double, exactly, without a 64-bit integer conversion (AVX2 has none): the halves
// placed in the mantissas of 2^84 + hi 2^32 and 2^52 + lo, then (that - (2^84 + 2^52)) + this;
// every step is exact, so this equals the conversion.
[[gnu::always_inline]] inline void ExactDoubles(const LaneVec& v, LaneDoubles& out) {
  const LaneVec hi = (v >> 32) | 0x4530000000000000ULL;
  const LaneVec lo = (v & 0xFFFFFFFFULL) | 0x4330000000000000ULL;
  LaneDoubles h, l;
  std::memcpy(&h, &hi, sizeof(h));
  std::memcpy(&l, &lo, sizeof(l));
  out = (h - 0x1.00000001p84) + l;
}

// out[l * steps + i] = the i-th draw (NextU64() >> 11, as an exact double) of lane l; the lanes
// advance by `steps`.
// Eight steps of all lanes go to a tile, which is transposed and stored lane by lane. REQUIRES:
// steps % 8 == 0. Integer arithmetic and exact conversions only: every clone gives the same draws.
// kConvert: the draws through the machine's conversion (AVX-512DQ has one) or ExactDoubles.
template <bool kConvert>
[[gnu::always_inline]] inline void GenerateTiles(Lanes& lanes, int64_t steps,
                                                 double* __restrict out) {
  static_assert(kLanes == 8, "Transpose8 is for eight lanes");
  LaneWords s(lanes);
  for (int64_t i = 0; i < steps; i += 8) {
    LaneDoubles tile[8];
    for (int k = 0; k < 8; ++k) {
      LaneVec draws;
      s.Draws(draws);
      if constexpr (kConvert) {
        tile[k] = __builtin_convertvector(draws, LaneDoubles);
      } else {
        ExactDoubles(draws, tile[k]);
      }
      s.Step();
    }
    Transpose8(tile);
    for (int l = 0; l < kLanes; ++l) std::memcpy(out + l * steps + i, &tile[l], sizeof(tile[l]));
  }
  s.CopyTo(lanes);
}

COMMSIM_TARGET_CLONES
void GenerateLanes(Lanes& lanes, int64_t steps, double* __restrict out) {
#if defined(__GNUC__) && defined(__x86_64__)
  if (__builtin_cpu_supports("avx512dq")) return GenerateTiles<true>(lanes, steps, out);
  return GenerateTiles<false>(lanes, steps, out);
#else
  GenerateTiles<true>(lanes, steps, out);
#endif
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
