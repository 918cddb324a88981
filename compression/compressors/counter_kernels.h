// The vectorised inner loops of the stochastic quantizers (uniform_draws.h): one chunk of elements
// and their draws u in, the quantized symbols or levels out. Each kernel takes either the 32-bit
// counter draws (rng = "counter"; kOne = 2^32 below) or the stream's 53-bit draws as exact doubles
// (stream_lanes.h; kOne = 2^53), and then computes exactly what the stream's scalar loops compute.
//
// Each kernel is compiled for several instruction sets (gcc target_clones: AVX-512, AVX2,
// baseline x86-64), picked at load time, and gives the same bits in every version: the only
// floating-point operations are |v|, one product v * scale (correctly rounded, IEEE), min/max,
// truncations to integer, one addition or subtraction (correctly rounded), products by kOne or
// 1 / kOne (exact), and uint32 -> double conversions (exact); the build is compiled with
// -ffp-contract=off, so no version fuses a product into a fused multiply-add. Each kernel equals
// the scalar expression in its comment, which the stream path computes with 53-bit draws.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_COUNTER_KERNELS_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_COUNTER_KERNELS_H_

#include <cstdint>

namespace commsim::counter_kernels {

// One chunk's draws u: the counter's 32-bit draws or the stream's 53-bit draws as doubles (a
// draw source's data() converts).
struct ChunkDraws {
  ChunkDraws(const uint32_t* draws) : u32(draws) {}  // NOLINT: implicit by design
  ChunkDraws(const double* draws) : f64(draws) {}    // NOLINT: implicit by design
  const uint32_t* u32 = nullptr;
  const double* f64 = nullptr;
};

// sym[k] = sign(x[k]) * [ u[k] < |x[k]| * scale ] in {-1, 0, +1} (block_ternary; -0.0 counts as
// negative, but |x| = 0 never keeps). REQUIRES: 0 <= n <= 256.
void TernarySymbols(const double* x, ChunkDraws u, int64_t n, double scale, int8_t* sym);

// The same symbols as fixed2 codes (0 -> 00, +1 -> 01, -1 -> 11), 32 to a word, the first in the
// low bits: words[w] holds elements [32w, 32w + 32), a short last word zero above its elements.
// REQUIRES: 0 <= n <= 256 (so at most 8 words).
void TernaryCodes(const double* x, ChunkDraws u, int64_t n, double scale, uint64_t* words);

// The qsgd levels with their sign bit below: ms[k] = xi << 1 | neg, with
// xi = floor(a) + [ u[k] < frac(a) * kOne ], a = min(|v[k]| * scale, s), and
// neg = [v[k] < 0 and xi > 0]. REQUIRES: 0 <= n <= 256, 0 < s < 2^30.
void QsgdSignedLevels(const double* v, ChunkDraws u, int64_t n, double scale, double s,
                      uint32_t* ms);

// The qsgd fixed coding's fields, each at its place in its word: g[k] = ms[k] << shift[k], ms as
// QsgdSignedLevels gives it. REQUIRES: 0 <= n <= 256, 0 < s < 2^30, shift[k] < 64 and the field
// fits above it.
void QsgdFields(const double* v, ChunkDraws u, int64_t n, double scale, double s,
                const uint64_t* shift, uint64_t* g);

// dithered, with u_k = u[k] / kOne: z[k] = sign(x[k]) * trunc(min(|x[k]| * scale, s) + u_k), or
// with `subtractive` z[k] = floor(clamp(x[k] * scale, -s, s) + u_k). REQUIRES: 0 <= n <= 256,
// 0 < s < 2^30.
void DitheredLevels(const double* x, ChunkDraws u, int64_t n, double scale, double s,
                    bool subtractive, int32_t* z);

// The block norms of the quantizers (wire.h), in the same clones. MaxAbsBits: the largest of the
// bit patterns of |x[k]| (sign bit cleared), which for finite values is the pattern of max |x[k]|
// (non-negative doubles order as their patterns do), and is >= the pattern of +Inf exactly when
// some x[k] is NaN or Inf: the norm and the input check in one integer pass. 0 when n = 0.
uint64_t MaxAbsBits(const double* x, int64_t n);
// sum_k x[k]^2 with four accumulators: a[k % 4] += x[k] * x[k] for k below n rounded down to a
// multiple of 4, the rest into a[0]; then (a[0] + a[1]) + (a[2] + a[3]). A fixed order of
// correctly rounded operations, so every clone gives the same bits. SumAbs the same with |x[k]|.
double SumSquares4(const double* x, int64_t n);
double SumAbs4(const double* x, int64_t n);

}  // namespace commsim::counter_kernels

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_COUNTER_KERNELS_H_
