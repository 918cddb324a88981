// fp16: every value sent as an IEEE-754 binary16 (half precision), rounded to nearest, ties to
// even (one rounding, from the double: no detour through fp32).
//
// Q(x)_j = half(x_j): 1 sign bit, 5 exponent bits, 10 fraction bits. Values below 2^-14 in
// magnitude become half subnormals (multiples of 2^-24; at or below 2^-25 they round to a zero of
// the same sign), so the whole half range is used. |x_j| > 65504 (the largest half) is a
// NonFiniteError naming the compressor and the index, as identity's values beyond fp32 are; so
// is NaN/Inf (a NaN/Inf anywhere is reported before a value beyond the range).
// Deterministic and biased (rounding to nearest is not unbiased). Payload: exactly 16d bits,
// value j's 16-bit pattern at bits [16j, 16j + 16). A pattern with exponent code 31 (Inf/NaN)
// never comes from the encoder: the decoder rejects it with a DecodeError.
// Error: for |x_j| >= 2^-14 (half's normal range), |Q(x)_j - x_j| <= 2^-11 |x_j| (half a unit in
// the last of 11 significant bits), so ErrorFactor = 2^-22. Subnormal caveat: below 2^-14 the
// error is absolute, at most 2^-25 per value (up to the whole value for one that rounds to zero),
// so in general ||Q(x) - x||^2 <= 2^-22 ||x||^2 + 2^-50 #{j : |x_j| < 2^-14}; every x also has
// ||Q(x) - x|| <= ||x|| (zero is a half).
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_FP16_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_FP16_H_

#include <cstdint>

#include "base/params.h"
#include "compression/compressors/compressor.h"

namespace commsim {

struct Fp16Config final : ConfigBase<Fp16Config> {
  void Describe(ParamVisitor& v) override;
};

// The binary16 pattern nearest to v (ties to even). REQUIRES: |v| <= 65504 (so not NaN).
uint16_t HalfBits(double v);
// The value of a binary16 pattern. REQUIRES: its exponent code is not 31.
double HalfValue(uint16_t bits);

class Fp16 final : public Compressor {
 public:
  explicit Fp16(const Fp16Config& /*config*/) : Compressor("fp16", /*unbiased=*/false) {}
  COMMSIM_COMPRESSOR_MEMBERS;
  static constexpr double kMax = 65504.0;  // the largest finite half

 private:
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                     const DecodeTarget* target) const override;
  // Throws the error for x, whose values are not all within +-kMax: the first NaN/Inf, else the
  // first value beyond kMax.
  [[noreturn]] void ThrowOutOfRange(const Eigen::Ref<const Eigen::VectorXd>& x) const;
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_FP16_H_
