// Index sets and fp32 values shared by the sparsifying compressors (top_k, rand_k).
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_SPARSE_WIRE_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_SPARSE_WIRE_H_

#include <Eigen/Core>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "base/params.h"
#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/compressors/compressor.h"

namespace commsim {

// How many entries a sparsifier keeps (top_k, rand_k): a base of their configs. k = `k` when
// k > 0 (clamped to d), else max(1, round(fraction * d)).
struct KeptCount {
  int64_t k = 0;           // 0: use fraction
  double fraction = 0.01;  // of d, used when k == 0
  // Describes "k" and "fraction".
  void DescribeKept(ParamVisitor& v);
  // REQUIRES: d >= 1.
  int64_t For(int64_t d) const;
};

// Increasing indices in [0, d): fixed ceil(log2 d)-bit fields, or Golomb-coded gaps.
void PutIndices(BitWriter& w, std::span<const uint32_t> idx, int64_t d, bool golomb);
// Reads k increasing indices; DecodeError when they are not increasing or not below d.
std::vector<uint32_t> GetIndices(BitReader& r, int64_t k, int64_t d, bool golomb);
// Reads one fp32 value per index in idx (increasing) and delivers the decoded vector to `out`:
// the values at idx, 0 elsewhere; then expects the message's end. DecodeError on a non-finite
// value or trailing bits.
void GetSparseValues(BitReader& r, const std::vector<uint32_t>& idx, const DecodeTarget& out);

// Writes x[i] for every i in idx (increasing) as fp32, rounded to nearest (`name` for the range
// error), and returns the message, with nonzeros = idx.size(). When `target` is not null, also
// delivers the decoded vector to it: factor * the fp32 value at the kept indices, 0 elsewhere.
// `values`, when not empty, holds x[idx[j]] already (read from there, not gathered from x).
Message FinishSparseValues(BitWriter& w, std::string_view name, std::span<const uint32_t> idx,
                           const Eigen::Ref<const Eigen::VectorXd>& x, double factor,
                           const DecodeTarget* target, std::span<const double> values = {});

// k distinct indices drawn uniformly from [0, d) with Floyd's algorithm from a stream seeded by
// `seed`, returned in increasing order. REQUIRES: 0 <= k <= d.
std::vector<uint32_t> SampleIndices(uint64_t seed, int64_t k, int64_t d);

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_SPARSE_WIRE_H_
