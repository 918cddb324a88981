// LaneDraws: the "stream" draws of the stochastic compressors (uniform_draws.h) -- the caller's
// xoshiro256** Rng, one 53-bit draw (NextU64() >> 11) per element in order -- computed in eight
// vectorised lanes instead of one serial chain. The values, their order and the Rng's final
// state are exactly those of calling rng.NextU64() once per draw; only the speed differs.
//
// How: xoshiro256**'s state transition T is linear over GF(2), so T^n = q(T) with
// q(x) = x^n mod P(x), P the characteristic polynomial of T (found once by Berlekamp-Massey from
// the generator itself). A refill generates kLanes * kLaneSteps draws: lane l starts at draw
// l * kLaneSteps of the refill, computed by such a jump, and all lanes step side by side
// (stream_lane_kernels.h: the versions that step them, picked once). The draws a caller has not
// used when it asks for the Rng back are discarded: rng() recomputes the state after the last
// draw handed out.
//
// For the loops of uniform_draws.h: Prepare(first, m) hands out the next m draws (the caller uses
// all of them, in order; `first` is ignored), Next(k) is the k-th. A LaneDraws holds a buffer of
// about 260 KB and costs a few microseconds to start, so it pays off for long messages only
// (uniform_draws.h picks it from kLaneDrawsMinDim elements on).
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_STREAM_LANES_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_STREAM_LANES_H_

#include <array>
#include <cstdint>
#include <memory>

#include "base/counter_rng.h"
#include "base/rng.h"

namespace commsim {

using XoshiroState = std::array<uint64_t, 4>;
// A polynomial over GF(2) of degree < 256: bit i of word i / 64 is the coefficient of x^i.
using Gf2Poly = std::array<uint64_t, 4>;

// x^n mod P, P the characteristic polynomial of the xoshiro256 state transition.
Gf2Poly XoshiroJumpPoly(uint64_t n);
// The state n steps after `s`, n given by its jump polynomial q = XoshiroJumpPoly(n).
XoshiroState XoshiroJump(const XoshiroState& s, const Gf2Poly& q);

inline constexpr int64_t kLaneDrawsMinDim = int64_t{1} << 18;

class LaneDraws {
 public:
  static constexpr double kOne = 0x1p53;
  static constexpr int kLanes = 8;
  static constexpr int64_t kLaneSteps = 4096;

  explicit LaneDraws(const Rng& rng);
  LaneDraws(const LaneDraws&) = delete;
  LaneDraws& operator=(const LaneDraws&) = delete;

  // REQUIRES: 0 < m <= CounterRng::kChunk.
  void Prepare(int64_t /*first*/, int64_t m);
  // The draws as doubles (exact: they are below 2^53), for the vectorised kernels.
  double Next(int64_t k) const { return chunk_[k]; }
  const double* data() const { return chunk_; }
  // The Rng given to the constructor, advanced past every draw handed out so far.
  Rng rng() const;

 private:
  static constexpr int64_t kPad = CounterRng::kChunk;  // room for a chunk's leftover draws
  static constexpr int64_t kDraws = kLanes * kLaneSteps;
  using LaneStates = std::array<std::array<uint64_t, kLanes>, 4>;  // [word][lane]
  void Refill();

  Rng start_;
  bool generated_ = false;
  LaneStates lanes_{};             // every lane's state after the last refill
  LaneStates starts_{};            // every lane's state at the start of the last refill
  std::unique_ptr<double[]> buf_;  // kPad + kDraws; the last refill at [kPad, kPad + kDraws)
  int64_t pos_ = kPad + kDraws;    // the next draw not handed out
  const double* chunk_ = nullptr;
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_STREAM_LANES_H_
