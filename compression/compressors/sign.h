// sign: one bit per element, the sign of x_j; decoded +-scale (`scale`, default 1). The message
// of signSGD and Signum (Bernstein et al., ICML 2018); a majority vote over workers is the
// algorithm's step, not the compressor's.
//
// The sign bit of the double decides: +0 -> +scale, -0 -> -scale (as scaled_sign). No magnitude
// travels: the scale is configuration, known to both sides. Deterministic, biased.
// Payload: exactly d bits (bit j set for a negative sign).
// Error: ||Q(x) - x||^2 = sum_j (scale - |x_j|)^2, which does not shrink with x (a tiny x still
// costs about d scale^2), so no constant C bounds it by C ||x||^2: sign is not contractive, and
// ErrorFactor is +infinity (compressor.h). Unlike the other compressors, Q(0) is not 0 and the
// relative error depends on the scale of x.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_SIGN_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_SIGN_H_

#include "base/params.h"
#include "compression/compressors/compressor.h"

namespace commsim {

struct SignConfig final : ConfigBase<SignConfig> {
  double scale = 1.0;
  void Describe(ParamVisitor& v) override;
};

class Sign final : public Compressor {
 public:
  explicit Sign(const SignConfig& config)
      : Compressor("sign", /*unbiased=*/false), scale_(config.scale) {}
  COMMSIM_COMPRESSOR_MEMBERS;

 private:
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                     const DecodeTarget* target) const override;
  double scale_;
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_SIGN_H_
