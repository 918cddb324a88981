// Index sets and fp32 values shared by the sparsifying compressors (top_k, rand_k).
#ifndef COMMSIM_ALGORITHMS_COMPRESSORS_SPARSE_WIRE_H_
#define COMMSIM_ALGORITHMS_COMPRESSORS_SPARSE_WIRE_H_

#include <cstdint>
#include <span>
#include <vector>

#include "algorithms/coding/bit_reader.h"
#include "algorithms/coding/bit_writer.h"

namespace commsim {

// Increasing indices in [0, d): fixed ceil(log2 d)-bit fields, or Golomb-coded gaps.
void PutIndices(BitWriter& w, std::span<const uint32_t> idx, int64_t d, bool golomb);
// Reads k increasing indices; DecodeError when they are not increasing or not below d.
std::vector<uint32_t> GetIndices(BitReader& r, int64_t k, int64_t d, bool golomb);

// k distinct indices drawn uniformly from [0, d) with Floyd's algorithm from a stream seeded by
// `seed`, returned in increasing order. REQUIRES: 0 <= k <= d.
std::vector<uint32_t> SampleIndices(uint64_t seed, int64_t k, int64_t d);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COMPRESSORS_SPARSE_WIRE_H_
