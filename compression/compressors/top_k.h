// top_k: keeps the k entries of largest magnitude (ties: the lower index), zeroes the rest.
//
// Biased, contractive: ||x - C(x)||^2 <= (1 - k/d) ||x||^2 (plus the fp32 rounding of kept values).
// k = `k` when k > 0 (clamped to d), else max(1, round(fraction * d)). Selection is one
// vectorised threshold pass over x (top_k_select.h), O(d), never a full sort.
// Deterministic; uses no randomness.
// Payload: the k indices in increasing order, then the k values as fp32:
//   fixed   k ceil(log2 d) + 32k bits (exact)
//   golomb  gaps between consecutive indices (first: the index) Golomb-coded with
//           M = GolombParameterFor(k/d), + 32k bits
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_TOP_K_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_TOP_K_H_

#include <string>
#include <vector>

#include "base/params.h"
#include "compression/compressors/compressor.h"
#include "compression/compressors/sparse_wire.h"

namespace commsim {

struct TopKConfig final : ConfigBase<TopKConfig>, KeptCount {
  std::string index_coding = "fixed";  // fixed | golomb
  void Describe(ParamVisitor& v) override;
};

class TopK final : public Compressor {
 public:
  explicit TopK(const TopKConfig& config);
  COMMSIM_COMPRESSOR_MEMBERS;

  int64_t KFor(int64_t dim) const;
  // The k selected indices in increasing order. Throws NonFiniteError on NaN/Inf input (the
  // check rides on the candidate pass).
  std::vector<uint32_t> Select(const Eigen::Ref<const Eigen::VectorXd>& x) const;

 private:
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                     const DecodeTarget* target) const override;

  TopKConfig config_;
  bool golomb_;
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_TOP_K_H_
