// Golomb and Rice codes for non-negative integers, and the zigzag map for signed ones.
//
// Golomb with parameter M >= 1: q = v / M in unary (q zero bits then a one bit), then r = v mod M
// in truncated binary (b = ceil(log2 M), u = 2^b - M: r < u takes b - 1 bits, else b bits). Rice(k)
// is Golomb with M = 2^k (remainder exactly k bits). GolombCode::Bits() gives the exact length.
// Decoders take the largest legal value and throw DecodeError beyond it or on truncation, so a
// corrupted stream cannot make them spin through a long run of zeros.
#ifndef COMMSIM_COMPRESSION_CODING_GOLOMB_H_
#define COMMSIM_COMPRESSION_CODING_GOLOMB_H_

#include <cstdint>

#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"

namespace commsim {

// A Golomb code with a fixed parameter; precomputes the truncated-binary constants.
class GolombCode {
 public:
  // REQUIRES: m >= 1.
  explicit GolombCode(uint64_t m);
  uint64_t m() const { return m_; }

  void Put(BitWriter& w, uint64_t v) const;
  // Throws DecodeError when the value would exceed max_value or the stream ends.
  uint64_t Get(BitReader& r, uint64_t max_value) const;
  int64_t Bits(uint64_t v) const;

 private:
  uint64_t m_;
  int b_;       // ceil(log2 m)
  uint64_t u_;  // 2^b - m: remainders below u take b - 1 bits
};

// The Golomb parameter for a geometric source with success probability p in (0, 1]:
// max(1, ceil(-log(2 - p) / log(1 - p))) (Gallager and van Voorhis).
uint64_t GolombParameterFor(double p);

inline void PutRice(BitWriter& w, uint64_t v, int k) { GolombCode(uint64_t{1} << k).Put(w, v); }
inline uint64_t GetRice(BitReader& r, int k, uint64_t max_value) {
  return GolombCode(uint64_t{1} << k).Get(r, max_value);
}

// 0, -1, 1, -2, 2, ... -> 0, 1, 2, 3, 4, ...
inline uint64_t ZigZag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t UnZigZag(uint64_t u) {
  return static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
}

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_CODING_GOLOMB_H_
