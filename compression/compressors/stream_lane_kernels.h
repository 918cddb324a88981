// The kernels of LaneDraws (stream_lanes.h): eight xoshiro256** lanes stepped side by side, in
// versions (simd_versions.h) that give the same bits. The AVX2 and portable versions step the
// lanes four at a time (four state words plus a 4 x 4 tile fit the sixteen AVX2 registers), the
// AVX-512 version all eight at once; the work per draw is the same integer arithmetic and exact
// conversions in every version.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_STREAM_LANE_KERNELS_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_STREAM_LANE_KERNELS_H_

#include <array>
#include <cstdint>

#include "compression/compressors/simd_versions.h"

namespace commsim::lane_kernels {

inline constexpr int kLanes = 8;
// The lanes' xoshiro256 states, word w of lane l at [w][l].
using Lanes = std::array<std::array<uint64_t, kLanes>, 4>;
// A polynomial over GF(2) of degree < 256 (stream_lanes.h's Gf2Poly).
using Poly = std::array<uint64_t, 4>;

// out[l * steps + i] = the i-th draw (NextU64() >> 11, as an exact double) of lane l, for
// l < kLanes and i < steps; every lane advances by `steps`. REQUIRES: steps % 8 == 0.
using GenerateFn = void (*)(Lanes& lanes, int64_t steps, double* out);
// Every lane's state advanced by the jump polynomial q: the state sum over set bits i of q of
// the state i steps on (stream_lanes.h's XoshiroJump on each lane).
using JumpFn = void (*)(Lanes& lanes, const Poly& q);

const KernelVersions<GenerateFn>& Generate();
const KernelVersions<JumpFn>& Jump();

}  // namespace commsim::lane_kernels

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_STREAM_LANE_KERNELS_H_
