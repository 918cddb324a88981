// natural: natural compression (Horvath, Ho, Horvath, Sahu, Canini, Richtarik, "Natural
// Compression for Distributed Deep Learning", arXiv:1905.10988, 2019; MSML 2022): each value
// randomly rounded to one of the two powers of two that bracket it, keeping its sign.
//
// For 2^a <= |x_j| < 2^(a+1): Q(x)_j = sign(x_j) 2^(a+1) with probability p_j = (|x_j| - 2^a) /
// 2^a, else sign(x_j) 2^a; an exact power of two stays itself; zero stays zero (with its sign).
// Unbiased, with E(Q(x)_j - x_j)^2 = (2^(a+1) - |x_j|)(|x_j| - 2^a) <= x_j^2 / 8 (equality at
// |x_j| = (4/3) 2^a), so ErrorFactor = omega = 1/8 (the paper's).
// Range: fp32's normal exponents, with the two ends handled so that every value within fp32
// stays unbiased:
//   |x_j| < 2^-126 (below fp32's normal range, including fp32 subnormals): Q(x)_j = sign(x_j)
//     2^-126 with probability |x_j| / 2^-126, else a zero of that sign. The 1/8 bound does not
//     hold there: the variance is |x_j| (2^-126 - |x_j|) < 2^-254 per value (an additive caveat
//     to ErrorFactor, like fp32 rounding elsewhere).
//   2^127 <= |x_j| <= FLT_MAX rounds to 2^127 or 2^128 (code 255 below: fp32 has no 2^128, the
//     decoded double does).
//   |x_j| > FLT_MAX (beyond fp32), NaN and Inf: NonFiniteError naming the compressor and the
//     index (a NaN/Inf anywhere is reported before a value beyond fp32).
// Draws: one per element, zeros and powers of two included (`rng`, uniform_draws.h), in element
// order; rounding up is [draw < p_j kOne], exact with stream draws (p_j is a multiple of 2^-52),
// within 2^-32 with counter draws.
// Wire: per element 9 bits, the sign bit first (lowest), then an 8-bit exponent code e: e = 0 is
// zero, e in [1, 255] is 2^(e - 127) (fp32's biased exponent, 255 standing for 2^128). Every
// 9-bit pattern decodes to a finite value. Payload: exactly 9d bits.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_NATURAL_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_NATURAL_H_

#include <string>

#include "base/params.h"
#include "compression/compressors/compressor.h"
#include "compression/compressors/uniform_draws.h"

namespace commsim {

struct NaturalConfig final : ConfigBase<NaturalConfig> {
  std::string rng = "stream";  // stream | counter (uniform_draws.h)
  void Describe(ParamVisitor& v) override;
};

class Natural final : public DrawingCompressor<Natural> {
 public:
  explicit Natural(const NaturalConfig& config)
      : DrawingCompressor("natural", /*unbiased=*/true, config.rng) {}
  COMMSIM_COMPRESSOR_MEMBERS;

 private:
  friend class DrawingCompressor<Natural>;
  template <class Src>
  Message EncodeWith(const Eigen::Ref<const Eigen::VectorXd>& x, Src& src,
                     const DecodeTarget* target) const;
  // Throws the error for x, whose values are not all within fp32: the first NaN/Inf, else the
  // first value beyond fp32.
  [[noreturn]] void ThrowOutOfRange(const Eigen::Ref<const Eigen::VectorXd>& x) const;
};

extern template class DrawingCompressor<Natural>;

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_NATURAL_H_
