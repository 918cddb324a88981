// block_ternary's encoder of one block (compression/compressors/block_ternary.h), written once over
// a draw source (uniform_draws.h) for the two encoders that use it: the whole-vector encoder
// (block_ternary.cc) and the chunk encoder (block_ternary_chunks.cc). PutBlock writes a block's
// norm and symbols in any coding (entropy: draws its symbols, coded after all norms by the
// caller) and delivers its decoded values; the helpers below draw and code the symbols.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_BLOCK_TERNARY_BLOCKS_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_BLOCK_TERNARY_BLOCKS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

#include "compression/coding/bit_writer.h"
#include "compression/compressors/block_ternary.h"
#include "compression/compressors/compressor.h"
#include "compression/compressors/counter_kernels.h"
#include "compression/compressors/ternary_masks.h"
#include "compression/compressors/uniform_draws.h"
#include "compression/compressors/wire.h"

namespace commsim::ternary_blocks {

// The 2-bit code of one element: 0 -> 00, +1 -> 01, -1 -> 11, from an integer draw in
// [0, Src::kOne); `scale` is Src::kOne / norm. Branch-free: the Bernoulli outcome is
// unpredictable, a branch on it mispredicts half the time.
inline uint64_t DrawCode(double x, double scale, uint64_t draw) {
  const uint64_t keep = static_cast<double>(draw) < std::abs(x) * scale;
  const uint64_t negative = std::signbit(x);
  return keep | ((keep & negative) << 1);
}

// Draws the symbols of one block (-1, 0, +1) into sym; `first` is the block's first element in
// the message. REQUIRES: norm > 0.
template <class Src>
void DrawSymbols(const double* x, int64_t first, int64_t n, float norm, Src& src, int8_t* sym) {
  decltype(auto) local = LocalDraws(src);
  const double scale = Src::kOne / static_cast<double>(norm);
  for (int64_t c = 0; c < n; c += kDrawChunk) {
    const int64_t m = std::min(kDrawChunk, n - c);
    local.Prepare(first + c, m);
    for (int64_t k = 0; k < m; ++k) {
      const uint64_t code = DrawCode(x[c + k], scale, local.Next(k));
      sym[c + k] = static_cast<int8_t>(static_cast<int>(code & 1) - static_cast<int>(code & 2));
    }
  }
  Commit(src, local);
}

// Draws in memory: the same symbols from the vectorised kernel, a chunk at a time.
template <KernelDraws Src>
void DrawSymbols(const double* x, int64_t first, int64_t n, float norm, Src& src, int8_t* sym) {
  const double scale = Src::kOne / static_cast<double>(norm);
  for (int64_t c = 0; c < n; c += kDrawChunk) {
    const int64_t m = std::min(kDrawChunk, n - c);
    src.Prepare(first + c, m);
    counter_kernels::TernarySymbols(x + c, src.data(), m, scale, sym + c);
  }
}

// The block's symbols as masks (ternary_masks.h), from the same draws as DrawSymbols; the word
// after the last is zeroed (the packed writer's padding). sym: scratch for n symbols.
// REQUIRES: norm > 0; keep and neg hold ternary_masks::MaskWords(n) words.
template <class Src>
void DrawMasks(const double* x, int64_t first, int64_t n, float norm, Src& src, int8_t* sym,
               uint64_t* keep, uint64_t* neg) {
  static_assert(kDrawChunk % 64 == 0);
  if constexpr (KernelDraws<Src>) {
    const double scale = Src::kOne / static_cast<double>(norm);
    for (int64_t c = 0; c < n; c += kDrawChunk) {
      const int64_t m = std::min(kDrawChunk, n - c);
      src.Prepare(first + c, m);
      ternary_masks::DrawMasks(x + c, src.data(), m, scale, keep + c / 64, neg + c / 64);
    }
  } else {
    DrawSymbols(x, first, n, norm, src, sym);
    ternary_masks::SymbolMasks(sym, n, keep, neg);
  }
  keep[(n + 63) / 64] = neg[(n + 63) / 64] = 0;
}

// The decoded values of masked symbols: norm, -norm or 0.
inline void PutMaskValues(const uint64_t* keep, const uint64_t* neg, int64_t n, double norm,
                          const DecodeTarget& target) {
  const double value[3] = {0.0, norm, -norm};
  for (int64_t j = 0; j < n; ++j) {
    target.Put(j, value[((keep[j / 64] >> (j % 64)) & 1) + ((neg[j / 64] >> (j % 64)) & 1)]);
  }
}

// The decoded values of one block's symbols, as every decoder below produces them.
inline void PutSymbols(const int8_t* sym, int64_t n, double norm, const DecodeTarget& target) {
  const double value[3] = {-norm, 0.0, norm};
  for (int64_t j = 0; j < n; ++j) target.Put(j, value[sym[j] + 1]);
}

// fixed2 fast path: draws and packs 32 codes per 64-bit field (a draw chunk holds 8 fields);
// with a target, also delivers the decoded values (as GetFixed2 gives them). REQUIRES: norm > 0.
template <bool kDecoded, class Src>
void DrawFixed2(const double* x, int64_t first, int64_t n, float norm, Src& src, BitWriter& w,
                const DecodeTarget* target) {
  static_assert(kDrawChunk % 32 == 0);
  decltype(auto) local = LocalDraws(src);
  const double scale = Src::kOne / static_cast<double>(norm);
  const double value[4] = {0.0, norm, 0.0, -static_cast<double>(norm)};
  for (int64_t c = 0; c < n; c += kDrawChunk) {
    const int64_t cm = std::min(kDrawChunk, n - c);
    local.Prepare(first + c, cm);
    for (int64_t j = 0; j < cm; j += 32) {
      const int m = static_cast<int>(std::min<int64_t>(32, cm - j));
      uint64_t word = 0;
      for (int k = 0; k < m; ++k)
        word |= DrawCode(x[c + j + k], scale, local.Next(j + k)) << (2 * k);
      w.Put(word, 2 * m);
      if constexpr (kDecoded) {
        for (int k = 0; k < m; ++k) target->Put(c + j + k, value[(word >> (2 * k)) & 3]);
      }
    }
  }
  Commit(src, local);
}

// Draws in memory: the fields straight from the vectorised kernel (the same fields as above).
template <bool kDecoded, KernelDraws Src>
void DrawFixed2(const double* x, int64_t first, int64_t n, float norm, Src& src, BitWriter& w,
                const DecodeTarget* target) {
  const double scale = Src::kOne / static_cast<double>(norm);
  const double value[4] = {0.0, norm, 0.0, -static_cast<double>(norm)};
  uint64_t words[kDrawChunk / 32];
  for (int64_t c = 0; c < n; c += kDrawChunk) {
    const int64_t cm = std::min(kDrawChunk, n - c);
    src.Prepare(first + c, cm);
    counter_kernels::TernaryCodes(x + c, src.data(), cm, scale, words);
    for (int64_t j = 0; j < cm; j += 32) {
      const int m = static_cast<int>(std::min<int64_t>(32, cm - j));
      const uint64_t word = words[j / 32];
      w.Put(word, 2 * m);
      if constexpr (kDecoded) {
        for (int k = 0; k < m; ++k) target->Put(c + j + k, value[(word >> (2 * k)) & 3]);
      }
    }
  }
}

// The bits to reserve for a message of d elements in blocks of `block`: the size of fixed2 and
// packed (which do not depend on the values; packed counted as if every block were whole, a bound),
// and for sparse and entropy 3 bits an element besides the norms (sparse with p = inf sends about
// 2.6 at b = 256): a message beyond the reserve only makes the writer grow its buffer.
inline int64_t ReserveBits(BlockTernary::Coding coding, int64_t d, int64_t block) {
  using Coding = BlockTernary::Coding;
  const int64_t nb = NumBlocks(d, block);
  if (coding == Coding::kFixed2) return 32 * nb + 2 * d;
  if (coding == Coding::kPacked) return 32 * nb + 8 * nb * ((std::min(block, d) + 4) / 5);
  return 32 * nb + 3 * d;
}

// One block's scratch: `sym` (entropy: the block's place among all d symbols; packed and sparse
// with a stream source: the block's symbols) and masks of ternary_masks::MaskWords(n) words
// (packed and sparse); the coding's unused ones may be null.
struct BlockScratch {
  int8_t* sym;
  uint64_t* keep;
  uint64_t* neg;
};

// Block [begin, begin + n) of the message, xb its values and `norm` its fp32 norm (checked by
// the caller): writes the norm and the symbols drawn from `src` in `coding` (entropy: the symbols
// only drawn into s.sym), and delivers the decoded values to `target` (the whole vector's target;
// null: none).
template <class Src>
void PutBlock(BlockTernary::Coding coding, const double* xb, int64_t begin, int64_t n, float norm,
              Src& src, BitWriter& w, const DecodeTarget* target, const BlockScratch& s) {
  using Coding = BlockTernary::Coding;
  w.PutFloat(norm);
  const std::optional<DecodeTarget> block_target =
      target == nullptr ? std::nullopt : std::optional(target->Segment(begin, n));
  if (norm == 0.0f) {  // an all-zero block draws nothing
    if (block_target) block_target->PutZeros(0, n);
    if (coding == Coding::kFixed2) w.PutZeros(2 * n);
    if (coding == Coding::kPacked) w.PutZeros(8 * ((n + 4) / 5));  // bytes of zero trits
    return;  // sparse and entropy send only the norm
  }
  if (coding == Coding::kFixed2) {
    if (block_target) {
      DrawFixed2<true>(xb, begin, n, norm, src, w, &*block_target);
    } else {
      DrawFixed2<false>(xb, begin, n, norm, src, w, nullptr);
    }
    return;
  }
  if (coding == Coding::kPacked || coding == Coding::kSparse) {
    DrawMasks(xb, begin, n, norm, src, s.sym, s.keep, s.neg);
    if (block_target) PutMaskValues(s.keep, s.neg, n, norm, *block_target);
    if (coding == Coding::kPacked) ternary_masks::PutPacked(s.keep, s.neg, n, w);
    if (coding == Coding::kSparse) ternary_masks::PutSparse(s.keep, s.neg, n, w);
    return;
  }
  DrawSymbols(xb, begin, n, norm, src, s.sym);  // kEntropy: coded after all norms
  if (block_target) PutSymbols(s.sym, n, norm, *block_target);
}

}  // namespace commsim::ternary_blocks

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_BLOCK_TERNARY_BLOCKS_H_
