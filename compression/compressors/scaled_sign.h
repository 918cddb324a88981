// scaled_sign: per block, the block's mean magnitude times the sign of each element.
//
// Per block B (size `block`, the last may be shorter; `block` 0: the whole vector is one block):
// sigma = ||x_B||_1 / |B| (scale "l1") or
// ||x_B||_2 / sqrt(|B|) (scale "l2"), rounded to the nearest fp32; Q(x)_j = sigma * sign(x_j),
// where the sign bit decides (+0 -> +sigma, -0 -> -sigma). Biased, deterministic.
// Payload: exactly 32 + |B| bits per block.
// l1: ||Q(x) - x||^2 = ||x||^2 - sum_B ||x_B||_1^2 / |B| <= (1 - 1/b) ||x||^2 (contractive).
// l2: ||Q(x) - x||^2 = 2 sum_B ||x_B||_2 (||x_B||_2 - ||x_B||_1 / sqrt|B|)
//                    <= 2 (1 - 1/sqrt b) ||x||^2.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_SCALED_SIGN_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_SCALED_SIGN_H_

#include <string>

#include "base/params.h"
#include "compression/compressors/compressor.h"

namespace commsim {

struct ScaledSignConfig final : ConfigBase<ScaledSignConfig> {
  int64_t block = 256;
  std::string scale = "l1";  // l1 | l2
  void Describe(ParamVisitor& v) override;
};

class ScaledSign final : public Compressor {
 public:
  explicit ScaledSign(const ScaledSignConfig& config)
      : Compressor("scaled_sign", /*unbiased=*/false),
        block_(config.block == 0 ? kWholeVector : config.block),
        l2_(config.scale == "l2") {}
  COMMSIM_COMPRESSOR_MEMBERS;
  float BlockScale(const double* x, int64_t n) const;

 private:
  // One block of any vector (NumBlocks(d, kWholeVector) = 1 for every d < 2^62).
  static constexpr int64_t kWholeVector = int64_t{1} << 62;
  float CheckedBlockScale(const double* xb, int64_t n,
                          const Eigen::Ref<const Eigen::VectorXd>& x) const;
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                     const DecodeTarget* target) const override;
  int64_t block_;
  bool l2_;
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_SCALED_SIGN_H_
