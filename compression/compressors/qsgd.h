// qsgd: QSGD stochastic quantization with s levels per bucket (Alistarh et al., 2017).
//
// Per bucket v of `bucket` elements (the last may be shorter), with n = ||v||_2 (or ||v||_inf when
// norm = "inf") rounded up to fp32: a_j = s |v_j| / n, xi_j = floor(a_j) + Bernoulli(frac(a_j))
// (one rng.Uniform() per element of a nonzero bucket; with rng = "counter", uniform_draws.h,
// element j's 32-bit counter draw, so P(xi_j = floor + 1) is within 2^-32 of frac(a_j), and each
// message draws one key from the Rng), Q(v)_j = n sign(v_j) xi_j / s. Unbiased; E||Q(v) - v||^2 =
// sum_j (n/s)^2 f_j (1 - f_j) <= min(b/s^2, sqrt(b)/s) ||v||^2. Default levels = 15: the 4-bit
// variant (levels 0..15 fit 4 bits). Payload per bucket:
//   fixed  32 + |B| (1 + ceil(log2(s+1))) bits: sign bit then level, for every element (exact)
//   elias  the paper's code: 32 (norm); if n > 0: Elias-omega(first nonzero position + 1), then per
//          nonzero a sign bit, Elias-omega(level) and Elias-omega(gap to the next nonzero position
//          or to the bucket end). The paper bounds its expectation by
//          (3 + 1.5 log2(2(s^2 + b) / (s(s + sqrt b)))) s(s + sqrt b) + 32 bits.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_QSGD_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_QSGD_H_

#include <string>
#include <vector>

#include "base/params.h"
#include "compression/coding/bit_reader.h"
#include "compression/compressors/compressor.h"
#include "compression/compressors/uniform_draws.h"

namespace commsim {

struct QsgdConfig final : ConfigBase<QsgdConfig> {
  int64_t levels = 15;
  int64_t bucket = 512;
  std::string norm = "2";        // "2" or "inf"
  std::string coding = "elias";  // elias | fixed
  std::string rng = "stream";    // stream | counter (uniform_draws.h)
  void Describe(ParamVisitor& v) override;
};

class Qsgd final : public DrawingCompressor<Qsgd> {
 public:
  explicit Qsgd(const QsgdConfig& config);
  COMMSIM_COMPRESSOR_MEMBERS;

  // The paper's bound on the expected elias payload of one bucket of n elements.
  double EliasBound(int64_t n) const;

 private:
  friend class DrawingCompressor<Qsgd>;
  template <class Src>
  Message EncodeWith(const Eigen::Ref<const Eigen::VectorXd>& x, Src& src,
                     const DecodeTarget* target) const;
  void DecodeFixed(BitReader& r, int64_t n, double unit, const DecodeTarget& o) const;
  void DecodeElias(BitReader& r, int64_t n, double unit, const DecodeTarget& o) const;
  int64_t levels_;
  int64_t bucket_;
  bool norm_inf_;
  bool elias_;
  std::vector<uint32_t> short_pairs_;  // the elias decoder's table (qsgd_elias.h)
};

extern template class DrawingCompressor<Qsgd>;

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_QSGD_H_
