// int8: linear 8-bit quantization per block, the "8-bit" baseline.
//
// Per block B (size `block`, the last may be shorter): M_B = max_j |x_j| rounded up to fp32 is
// sent as 32 bits, and both sides use the step s_B = M_B / 127. With t_j = |x_j| / M_B * 127
// (in [0, 127]: M_B >= |x_j|, so no clamping), element j becomes an integer q_j in [-127, 127]:
//   stochastic = false (default): q_j = sign(x_j) round(t_j), halves away from zero.
//     Deterministic, biased.
//   stochastic = true: q_j = sign(x_j) (floor(t_j) + Bernoulli(t_j - floor(t_j))), one draw per
//     element of every block with M_B > 0 (`rng`, uniform_draws.h). Unbiased.
// Decoded: Q(x)_j = q_j * M_B / 127, computed in double as written (q_j M_B is exact, then one
// rounded division), so q_j = +-127 decodes to exactly +-M_B. Sending M_B rather than s_B keeps
// the block's largest value exact (up to its fp32 rounding up), which a single value needs.
// An all-zero block sends M_B = 0 and codes 0, and draws nothing.
// Wire: per block the fp32 M_B, then each q_j as its 8-bit two's complement; the code 0x80 (-128)
// never comes from the encoder (a DecodeError). Payload: exactly 32 ceil(d/b) + 8d bits.
// Error: |Q(x)_j - x_j| <= s_B / 2 (deterministic) and E (Q(x)_j - x_j)^2 <= s_B^2 / 4
// (stochastic), and the block's largest element has no error (up to the fp32 rounding of M_B),
// so E||Q(x) - x||^2 <= sum_B (|B| - 1) M_B^2 / (4 * 127^2) <= C ||x||^2 with
// C = (b - 1) / (4 * 127^2), b = min(block, d) (0.00395 at b = 256), in both modes.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_INT8_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_INT8_H_

#include <string>

#include "base/params.h"
#include "compression/compressors/compressor.h"

namespace commsim {

struct Int8Config final : ConfigBase<Int8Config> {
  int64_t block = 256;
  bool stochastic = false;
  std::string rng = "stream";  // stream | counter (uniform_draws.h); stochastic only
  void Describe(ParamVisitor& v) override;
};

class Int8 final : public Compressor {
 public:
  explicit Int8(const Int8Config& config);
  COMMSIM_COMPRESSOR_MEMBERS;
  static constexpr int kLevels = 127;

 private:
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                     const DecodeTarget* target) const override;
  // EncodeImpl with the draws from src (deterministic: a source that draws nothing).
  template <class Src>
  Message EncodeWith(const Eigen::Ref<const Eigen::VectorXd>& x, Src& src,
                     const DecodeTarget* target) const;

  int64_t block_;
  bool stochastic_;
  bool counter_;  // rng = "counter"
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_INT8_H_
