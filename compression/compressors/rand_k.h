// rand_k: keeps k coordinates drawn uniformly without replacement; optionally scaled by d/k.
//
// The encoder draws a 64-bit seed from the Rng and sends it; sender and receiver regenerate the
// same k indices from it (SampleIndices), so indices cost nothing beyond the seed.
// Payload: exactly 64 + 32k bits (seed, then the kept values as fp32 in increasing index order).
// scale = false (default): contractive, E||x - C(x)||^2 = (1 - k/d) ||x||^2.
// scale = true: values multiplied by d/k on decode; unbiased, E||Q(x) - x||^2 = (d/k - 1) ||x||^2.
// k = `k` when k > 0 (clamped to d), else max(1, round(fraction * d)).
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_RAND_K_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_RAND_K_H_

#include "base/params.h"
#include "compression/compressors/compressor.h"
#include "compression/compressors/sparse_wire.h"

namespace commsim {

struct RandKConfig final : ConfigBase<RandKConfig>, KeptCount {
  bool scale = false;
  void Describe(ParamVisitor& v) override;
};

class RandK final : public Compressor {
 public:
  explicit RandK(const RandKConfig& config)
      : Compressor("rand_k", /*unbiased=*/config.scale), config_(config) {}
  COMMSIM_COMPRESSOR_MEMBERS;
  int64_t KFor(int64_t dim) const;

 private:
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                     const DecodeTarget* target) const override;
  // The decoded value of a kept entry is factor * its fp32 value.
  double Factor(int64_t d, int64_t k) const;
  RandKConfig config_;
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_RAND_K_H_
