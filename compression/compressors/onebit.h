// onebit: FO-SGD's dithered one-bit quantizer (Stollenwerk & Jacques, "Flattened one-bit
// stochastic gradient descent", arXiv:2405.11095, 2024).
//
// For z of dimension n: lambda = c ||z||_2 / sqrt(n), rounded up to fp32 (c = `c`, or
// sqrt(2 ln(2n)) when `c` is 0, the default); per element a dither tau_j ~ U[-lambda,
// lambda] from the Rng (one 53-bit draw u_j per element, in order: tau_j = lambda (2 u_j - 1)) and
// q_j = sign(z_j + tau_j) (+1 when z_j + tau_j >= 0). Decoded value: lambda q_j (so a zero z
// decodes to zeros).
// Payload: exactly 32 + n bits (lambda as fp32, then one bit per element, set for q_j = -1).
// Bias: E[lambda q_j] = clip(z_j, -lambda, lambda): unbiased on the elements with |z_j| <= lambda,
// shrunk towards zero on the others, so the compressor is biased (unbiased() is false). The
// paper applies it after a random Hadamard rotation (the `hadamard` wrapper), which makes
// |z_j| > lambda rare.
// Error, per element: lambda^2 - z_j^2 when |z_j| <= lambda, (|z_j| - lambda)^2 otherwise. Both
// are at most lambda^2 + z_j^2, so E||Q(z) - z||^2 <= n lambda^2 + ||z||^2 = (c^2 + 1) ||z||^2:
// ErrorFactor(n) = 1 + c^2 (1 + 2 ln(2n) by default), approached by a single spike (one element
// holding all of ||z||, the rest zero).
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_ONEBIT_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_ONEBIT_H_

#include "base/params.h"
#include "compression/compressors/compressor.h"

namespace commsim {

struct OneBitConfig final : ConfigBase<OneBitConfig> {
  double c = 0.0;  // 0: sqrt(2 ln(2n))
  void Describe(ParamVisitor& v) override;
};

class OneBit final : public Compressor {
 public:
  explicit OneBit(const OneBitConfig& config)
      : Compressor("onebit", /*unbiased=*/false), c_(config.c) {}
  COMMSIM_COMPRESSOR_MEMBERS;
  // The factor c for dimension n: `c`, or sqrt(2 ln(2n)) when it is 0.
  double CFor(int64_t n) const;
  // lambda as sent, for the input z (c ||z|| / sqrt(n) rounded up to fp32). REQUIRES: z finite.
  float Lambda(const Eigen::Ref<const Eigen::VectorXd>& z) const;

 private:
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                     const DecodeTarget* target) const override;
  double c_;
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_ONEBIT_H_
