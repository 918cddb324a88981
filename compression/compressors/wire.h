// Helpers shared by the compressors' encoders and decoders (input checks, fp32 scales, blocks).
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_WIRE_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_WIRE_H_

#include <Eigen/Core>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string_view>

#include "base/finite.h"
#include "compression/coding/bit_reader.h"
#include "compression/compressors/compressor.h"

namespace commsim {

// Throws NonFiniteError "<compressor>: input has a non-finite value (nan) at index i".
void RequireFinite(std::string_view compressor, const Eigen::Ref<const Eigen::VectorXd>& x);

// The smallest fp32 value >= v (so probabilities |x_j| / norm never exceed 1), or the nearest.
// REQUIRES: v >= 0 finite. Throws NonFiniteError when v exceeds the fp32 range.
float Fp32Up(std::string_view compressor, double v);
[[noreturn]] void ThrowOutsideFp32(std::string_view compressor, double v);
inline float Fp32Nearest(std::string_view compressor, double v) {
  const float f = static_cast<float>(v);
  if (!std::isfinite(f)) [[unlikely]]
    ThrowOutsideFp32(compressor, v);
  return f;
}

// Fp32Up of a norm computed in a pass that also checked the input (`finite`: the pass saw no NaN
// or Inf, e.g. MaxAbsChecked, or a sum of squares that stayed finite). Throws exactly what
// RequireFinite(x) followed by Fp32Up(raw) would: the first NaN/Inf of the whole input x comes
// before a norm beyond the fp32 range.
float CheckedFp32Up(std::string_view compressor, double raw, bool finite,
                    const Eigen::Ref<const Eigen::VectorXd>& x);

// The fp32 norm (max |x_j| when inf_norm, else the 2-norm) of the block [v, v + n) of x, as sent
// on the wire, with the input check folded into the block's pass: a NaN or Inf in the block, or
// a norm beyond fp32, throws what RequireFinite(x) then Fp32Up would (the first NaN/Inf of x).
// Also prefetches the block after next (PrefetchBlockAfterNext): the callers go through x in
// order.
float CheckedBlockNorm(std::string_view compressor, bool inf_norm, const double* v, int64_t n,
                       const Eigen::Ref<const Eigen::VectorXd>& x);

// A hint for the loops that go through x[0, d) block by block in order (blocks of n elements):
// asks the memory system for x[begin + 2n, begin + 3n) (clamped to d), so that the reads of the
// block after next overlap the work on the current one instead of stalling the next block's
// first pass. No effect on any result.
void PrefetchBlockAfterNext(const double* x, int64_t d, int64_t begin, int64_t n);

// Reads a 32-bit scale (a norm) and checks that it is finite and >= 0; DecodeError otherwise.
float ReadScale(BitReader& r);

// Reductions with four independent accumulators (a single serial floating-point sum is bound
// by the add latency); the order is fixed, so results are deterministic (the vectorised kernels
// of counter_kernels.h).
double SumAbs(const double* x, int64_t n);
double SumSquares(const double* x, int64_t n);
// max |x[i]|, and whether every x[i] is finite (*finite; when it is false the value returned is
// meaningless). One integer pass over the block does both.
double MaxAbsChecked(const double* x, int64_t n, bool* finite);

inline int64_t NumBlocks(int64_t d, int64_t b) { return d / b + (d % b != 0); }

// Block `index` of a vector cut into blocks: elements [begin, begin + size).
struct Block {
  int64_t index;
  int64_t begin;
  int64_t size;
};

// The blocks of `block` elements covering [0, d) in order, the last one possibly shorter:
//   for (const auto [b, begin, n] : Blocks(d, block)) ...
class Blocks {
 public:
  class Iterator {
   public:
    Iterator(int64_t index, int64_t d, int64_t block) : index_(index), d_(d), block_(block) {}
    Block operator*() const {
      const int64_t begin = index_ * block_;
      return {index_, begin, std::min(block_, d_ - begin)};
    }
    Iterator& operator++() {
      ++index_;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return index_ != other.index_; }

   private:
    int64_t index_, d_, block_;
  };
  // REQUIRES: block >= 1, d >= 0.
  Blocks(int64_t d, int64_t block) : d_(d), block_(block) {}
  Iterator begin() const { return {0, d_, block_}; }
  Iterator end() const { return {NumBlocks(d_, block_), d_, block_}; }

 private:
  int64_t d_, block_;
};

// Number of elements of the k fraction of d: max(1, round(fraction * d)) or min(k, d) when k > 0.
// REQUIRES: d >= 1.
int64_t ResolveK(int64_t k, double fraction, int64_t d);

// Shannon entropy in bits of a histogram (counts >= 0), times the total count: sum c log2(n/c).
double EntropyBits(const double* counts, int size);

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_WIRE_H_
