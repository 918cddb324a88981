// terngrad: TernGrad (Wen et al., "TernGrad: Ternary Gradients to Reduce Communication in
// Distributed Deep Learning", NeurIPS 2017, arXiv:1705.07878): stochastic ternarization with a
// max-norm scale.
//
// Per block B of `block` = b elements (0, the default: one block, the whole vector; else the last
// block may be shorter):
//   clip = 0 (default): c_j = x_j.
//   clip > 0 (the paper's gradient clipping, c = 2.5 there): c_j = x_j clamped to [-tau, tau],
//     tau = clip * sigma_B, sigma_B the block's standard deviation sqrt(sum_j (x_j - mu_B)^2 / |B|)
//     around its mean mu_B.
// s_B = max_j |c_j| rounded up to fp32; Q(x)_j = s_B sign(c_j) xi_j with xi_j ~ Bernoulli(|c_j| /
// s_B), drawn as block_ternary draws them (one draw per element of every block with s_B > 0:
// `rng`, uniform_draws.h; block_ternary.h gives the exact comparison). An all-zero block (s_B = 0)
// draws nothing and decodes to zeros.
// Without clipping this is block_ternary with p = inf and coding fixed2, and is unbiased:
//   E||Q(x) - x||^2 = sum_B (s_B ||x_B||_1 - ||x_B||_2^2) <= (sqrt(b) - 1)/2 ||x||^2,
// b = min(block, d) (block 0: d); the bound is attained by one element of magnitude 1 beside
// b - 1 of magnitude 1/(sqrt(b) + 1).
// With clipping Q is unbiased for c, not x: biased (unbiased() is false), with
//   E||Q(x) - x||^2 = sum_B (s_B ||c_B||_1 - ||c_B||_2^2) + ||c - x||^2 <= max((sqrt(b) - 1)/2, 1)
// ||x||^2 (c_j = a_j x_j with a_j in [0, 1], so ||c_B||^2 + ||c_B - x_B||^2 <= ||x_B||^2); a
// constant block (sigma = 0) is clipped to zero, error ||x_B||^2. Wire per block: s_B as fp32, then
// each element's symbol in 2 bits (00 = 0, 01 = +1, 11 = -1; the code 10 is a DecodeError).
// Payload: exactly 32 ceil(d/b) + 2d bits.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_TERNGRAD_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_TERNGRAD_H_

#include <string>

#include "base/params.h"
#include "compression/compressors/compressor.h"
#include "compression/compressors/uniform_draws.h"

namespace commsim {

struct TernGradConfig final : ConfigBase<TernGradConfig> {
  int64_t block = 0;           // 0: the whole vector is one block
  double clip = 0.0;           // 0: no clipping; else clip at clip * sigma (the paper uses 2.5)
  std::string rng = "stream";  // stream | counter (uniform_draws.h)
  void Describe(ParamVisitor& v) override;
};

class TernGrad final : public DrawingCompressor<TernGrad> {
 public:
  explicit TernGrad(const TernGradConfig& config);
  COMMSIM_COMPRESSOR_MEMBERS;
  // The messages added block by block in one pass over the sum, as block_ternary's fixed2 coding
  // (the same format; block_ternary_sum.h), with the bits of one DecodeInto each.
  void DecodeSumInto(std::span<const Message* const> messages,
                     const DecodeTarget& target) const override;
  void DecodeSumFromZero(std::span<const Message* const> messages,
                         Eigen::Ref<Eigen::VectorXd> scratch,
                         const SumChunkDone& done) const override;
  // The block size used for vectors of dimension d (block, or d when block is 0), at least 1.
  int64_t BlockFor(int64_t d) const;
  // The clipping threshold tau of a block (clip * its standard deviation). REQUIRES: clip > 0.
  double ClipThreshold(const double* xb, int64_t n) const;

 private:
  friend class DrawingCompressor<TernGrad>;
  template <class Src>
  Message EncodeWith(const Eigen::Ref<const Eigen::VectorXd>& x, Src& src,
                     const DecodeTarget* target) const;
  // The block's values to ternarize (xb itself, or the clipped copy in `clipped`) and their fp32
  // scale s_B, with the input checks of CheckedBlockNorm (x is the whole input).
  const double* BlockValues(const double* xb, int64_t n, const Eigen::Ref<const Eigen::VectorXd>& x,
                            double* clipped, float* scale) const;

  int64_t block_;
  double clip_;
};

extern template class DrawingCompressor<TernGrad>;

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_TERNGRAD_H_
