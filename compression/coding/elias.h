// Elias universal codes for positive integers (x >= 1), written with BitWriter fields.
//
// With N = floor(log2 x):
//   gamma: N zero bits, a one bit, then the N low bits of x            -> 2N + 1 bits
//   delta: gamma(N + 1), then the N low bits of x                     -> N + 2*floor(log2(N+1)) + 1
//   omega: the recursive groups x_k = x, x_{i-1} = floor(log2 x_i) down to 1; each group as a one
//   bit
//          followed by its bits below the leading one; then a zero bit -> sum of group lengths + 1
// Bit lengths equal the textbook codes (the bit order inside a field follows BitWriter's
// least-significant-first packing). Decoders throw DecodeError on truncation and on codes whose
// value would not fit in 64 bits.
#ifndef COMMSIM_COMPRESSION_CODING_ELIAS_H_
#define COMMSIM_COMPRESSION_CODING_ELIAS_H_

#include <bit>
#include <cstdint>

#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"

namespace commsim {

constexpr int FloorLog2(uint64_t x) { return 63 - std::countl_zero(x); }  // REQUIRES: x >= 1
// Smallest w with 2^w >= n (0 for n <= 1): the width of a field holding values in [0, n).
constexpr int CeilLog2(uint64_t n) { return n <= 1 ? 0 : 64 - std::countl_zero(n - 1); }

// REQUIRES: x >= 1 for all Put* functions.
inline void PutEliasGamma(BitWriter& w, uint64_t x) {
  const int n = FloorLog2(x);
  if (n < 32) {
    // Unary prefix and payload in one field: bit n is the terminating one.
    w.Put(uint64_t{1} << n | ((x & ((uint64_t{1} << n) - 1)) << (n + 1)), 2 * n + 1);
    return;
  }
  w.Put(uint64_t{1} << n, n + 1);
  w.Put(x & ((uint64_t{1} << n) - 1), n);
}
uint64_t GetEliasGamma(BitReader& r);
inline int EliasGammaBits(uint64_t x) { return 2 * FloorLog2(x) + 1; }

void PutEliasDelta(BitWriter& w, uint64_t x);
uint64_t GetEliasDelta(BitReader& r);
int EliasDeltaBits(uint64_t x);

namespace elias_internal {
// Codes of x < 256 (at most 14 bits) precomputed in stream order, and the decoding of every
// 8-bit window that starts with a whole code of at most 8 bits (x < 16): value << 4 | length,
// 0 where the code is longer. Built at compile time (no guard on access).
struct OmegaTables {
  uint16_t code[256];
  uint8_t length[256];
  uint16_t decode[256];
};
extern const OmegaTables kOmegaTables;
void PutEliasOmegaLarge(BitWriter& w, uint64_t x);
}  // namespace elias_internal

// The Elias-omega code of 1 <= x < 256 as one BitWriter field: Put(code, length).
inline uint64_t SmallEliasOmegaCode(uint64_t x) { return elias_internal::kOmegaTables.code[x]; }
inline int SmallEliasOmegaBits(uint64_t x) { return elias_internal::kOmegaTables.length[x]; }

inline void PutEliasOmega(BitWriter& w, uint64_t x) {
  if (x < 256) {
    w.Put(SmallEliasOmegaCode(x), SmallEliasOmegaBits(x));
    return;
  }
  elias_internal::PutEliasOmegaLarge(w, x);
}
uint64_t GetEliasOmega(BitReader& r);
int EliasOmegaBits(uint64_t x);

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_CODING_ELIAS_H_
