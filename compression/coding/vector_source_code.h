// The vector source code for integer vectors (MALCOM-PSGD, docs/algorithms.md) [recon].
//
// Layout for z in Z^d (d known to both sides):
//   Elias-gamma(K + 1), K = number of distinct nonzero values;
//   per value a, in decreasing count order (ties: smaller zigzag(a) first):
//     Elias-gamma(zigzag(a) + 1), Elias-gamma(count(a));
//   then per value in the same order, its positions as ranks among the positions still free
//   (not taken by earlier values), coded as gaps (first rank, then rank - previous rank - 1) with
//   a Golomb code of parameter M = max(1, ceil(-log(2 - p) / log(1 - p))), p = count / free.
//   When count == free (no zeros left) the positions are implied and take no bits.
// Zeros are the positions left free at the end. Costs O(d + K * nnz) time (O(K * nnz) to encode
// from the nonzeros).
// Length is within a few percent of d * H(empirical distribution of z) for large sparse-ish z.
#ifndef COMMSIM_COMPRESSION_CODING_VECTOR_SOURCE_CODE_H_
#define COMMSIM_COMPRESSION_CODING_VECTOR_SOURCE_CODE_H_

#include <cstdint>
#include <span>

#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"

namespace commsim {

void PutVectorSourceCode(BitWriter& w, std::span<const int32_t> z);
// The same code for the vector of dimension d whose nonzero entries are values[i] at
// positions[i] (increasing, below d; every value nonzero): costs O(nnz), not O(d).
void PutSparseVectorSourceCode(BitWriter& w, int64_t d, std::span<const uint32_t> positions,
                               std::span<const int32_t> values);
// Fills z (its size is d). Throws DecodeError on truncated or inconsistent input.
void GetVectorSourceCode(BitReader& r, std::span<int32_t> z);

// d * H(empirical distribution of z) in bits (zeros included as a value).
double EmpiricalEntropyBits(std::span<const int32_t> z);

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_CODING_VECTOR_SOURCE_CODE_H_
