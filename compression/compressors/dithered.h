// dithered: MALCOM-PSGD's dithered quantizer with the vector source code [recon].
//
// Reconstructed from the paper's description (docs/algorithms.md lists what); parameter names
// follow the paper. With n = ||r||_2 rounded up to fp32 and a_j = s r_j / n:
//   non-subtractive (default): z_j = sign(r_j) floor(|a_j| + u_j), u_j ~ U[0,1) from the Rng;
//     decoded (n/s) z_j. Unbiased; E||Q(r) - r||^2 = (n/s)^2 sum_j f_j (1 - f_j), f_j = frac|a_j|,
//     <= min(d/s^2, sqrt(d)/s) ||r||^2.
//   subtractive: the encoder draws a 64-bit nonce from the Rng and sends it; the dither
//     u_j ~ U[0,1) comes from Rng(DeriveSeed(dither_seed, nonce, "dither")), which the receiver
//     regenerates. z_j = floor(a_j + u_j), decoded (n/s)(z_j - u_j + 1/2): unbiased with error
//     uniform in [-n/2s, n/2s) on every coordinate, E||Q(r) - r||^2 = d (n/s)^2 / 12.
// rng = "counter" (uniform_draws.h): u_j = (element j's 32-bit counter draw) / 2^32, keyed by one
// NextU64 of the Rng per message (non-subtractive) or by the shared dither stream's first draw
// (subtractive, so the receiver regenerates it); u_j takes 2^32 equally likely values, which moves
// the rounding probabilities and the subtractive mean by at most 2^-32 of a level.
// Payload: 32 (n) [+ 64 nonce when subtractive] + the vector source code of z
// (compression/coding/vector_source_code.h), close to 32 + d H(empirical z); n = 0 sends only 32.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_DITHERED_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_DITHERED_H_

#include <string>

#include "base/params.h"
#include "compression/compressors/compressor.h"

namespace commsim {

struct DitheredConfig final : ConfigBase<DitheredConfig> {
  int64_t levels = 15;
  bool subtractive = false;
  int64_t dither_seed = 0;
  std::string rng = "stream";  // stream | counter (uniform_draws.h)
  void Describe(ParamVisitor& v) override;
};

class Dithered final : public Compressor {
 public:
  explicit Dithered(const DitheredConfig& config)
      : Compressor("dithered", /*unbiased=*/true), config_(config) {}
  COMMSIM_COMPRESSOR_MEMBERS;

 private:
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                     const DecodeTarget* target) const override;
  DitheredConfig config_;
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_DITHERED_H_
