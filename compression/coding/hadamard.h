// The fast Walsh-Hadamard transform and Rademacher sign vectors, for compressors that rotate a
// vector before quantizing it (the `hadamard` wrapper, compression/compressors/hadamard.h).
//
// NormalizedFwht applies H_n / sqrt(n) in place, where H_n is Sylvester's Hadamard matrix
// (H_1 = [1], H_2m = [[H_m, H_m], [H_m, -H_m]]: entry (i, j) is (-1)^popcount(i & j)). The
// normalised matrix is orthonormal and symmetric, so it is its own inverse and keeps the 2-norm:
// ||H x|| = ||x|| up to rounding. O(n log n) additions and one scaling pass; no allocation.
// The scaling comes first, so no intermediate value exceeds ||x||_2 in magnitude (no overflow
// when the norm is finite). With n = 4^k the scale 2^-k is exact; otherwise each element carries
// one rounding of 1/sqrt(n) besides the additions' roundings.
//
// RademacherSigns: n independent uniform signs drawn from Rng(seed) (base/rng.h): element
// 64w + b takes bit b of the w-th NextU64 (bit set: -1). The same seed gives the same signs on
// every machine, so a decoder that reads the seed regenerates them.
#ifndef COMMSIM_COMPRESSION_CODING_HADAMARD_H_
#define COMMSIM_COMPRESSION_CODING_HADAMARD_H_

#include <cstdint>

namespace commsim {

// True for 1, 2, 4, ...
constexpr bool IsPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

// The smallest power of two >= d (1 for d <= 1). REQUIRES: d <= 2^62.
int64_t PaddedPowerOfTwo(int64_t d);

// v[0, n) <- (H_n / sqrt(n)) v. REQUIRES: IsPowerOfTwo(n).
void NormalizedFwht(double* v, int64_t n);

// v[j] <- s_j v[j] for j in [0, n), s the signs of Rng(seed) described above (a sign flip:
// exact, and 0 becomes -0). REQUIRES: n >= 0.
void ApplyRademacherSigns(uint64_t seed, double* v, int64_t n);

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_CODING_HADAMARD_H_
