// block_ternary's symbols {-1, 0, +1} as bit masks (block_ternary.h), and the packed and sparse
// codings written from the masks: the symbols' draws in one vectorised pass, the codings without
// a per-element loop (a table per five elements, the nonzeros gathered sixteen elements at a time).
//
// Mask layout: bit k of word w stands for element 64 w + k; keep = the symbol is nonzero, neg =
// the symbol is -1 (a subset of keep). Bits past the last element are zero.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_TERNARY_MASKS_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_TERNARY_MASKS_H_

#include <cstdint>

#include "compression/coding/bit_writer.h"
#include "compression/compressors/counter_kernels.h"
#include "compression/compressors/simd_versions.h"

namespace commsim::ternary_masks {

// The masks of counter_kernels::TernarySymbols' symbols (the same draws, the same outcomes):
// keep bit k = [ u[k] < |x[k]| * scale ], neg bit k = keep bit k and x[k] < 0, for k < n; the
// words [0, ceil(n / 64)) are written. Versions (simd_versions.h) give the same bits: one correctly
// rounded product, exact comparisons and conversions.
// REQUIRES: 0 <= n <= 256.
void DrawMasks(const double* x, counter_kernels::ChunkDraws u, int64_t n, double scale,
               uint64_t* keep, uint64_t* neg);

// DrawMasks in one given version, for tests: false, with nothing written, when the machine does
// not run that version.
bool DrawMasksWith(SimdVersion version, const double* x, counter_kernels::ChunkDraws u, int64_t n,
                   double scale, uint64_t* keep, uint64_t* neg);

// The masks of symbols s[0, n) into ceil(n / 64) words each.
void SymbolMasks(const int8_t* s, int64_t n, uint64_t* keep, uint64_t* neg);

// The number of mask words an n-element block needs, plus one word of padding that the packed
// writer reads (it loads eight bytes where it needs five). Callers size their masks with it.
inline int64_t MaskWords(int64_t n) { return (n + 63) / 64 + 1; }

// packed coding of one n-symbol block (block_ternary.h; block_ternary_coding.h's GetPacked reads
// it).
// REQUIRES: keep and neg hold MaskWords(n) words, zero past element n.
void PutPacked(const uint64_t* keep, const uint64_t* neg, int64_t n, BitWriter& w);

// sparse coding of one n-symbol block (block_ternary.h; block_ternary_coding.h's GetSparse reads
// it): the nonzero count, then (sign, index) per nonzero. REQUIRES: n >= 1, masks zero past
// element n. (ternary_sparse.cc: the nonzeros gathered by a versioned kernel, simd_versions.h,
// then 64 / F fields of F bits to one append.)
void PutSparse(const uint64_t* keep, const uint64_t* neg, int64_t n, BitWriter& w);

// PutSparse in one given version, for tests: false, with nothing written, when the machine does
// not run that version.
bool PutSparseWith(SimdVersion version, const uint64_t* keep, const uint64_t* neg, int64_t n,
                   BitWriter& w);

}  // namespace commsim::ternary_masks

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_TERNARY_MASKS_H_
