#include "compression/compressors/sign.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/compressors/wire.h"

namespace commsim {

void SignConfig::Describe(ParamVisitor& v) {
  v.Real("scale", scale, Range::Positive(), "decoded magnitude: each element becomes +-scale");
}

Message Sign::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& /*rng*/,
                         const DecodeTarget* target) const {
  RequireFinite(Name(), x);
  const int64_t d = x.size();
  const double value[2] = {scale_, -scale_};
  BitWriter w;
  w.Reserve(d);
  for (int64_t j = 0; j < d; j += 64) {
    const int m = static_cast<int>(std::min<int64_t>(64, d - j));
    uint64_t word = 0;
    for (int k = 0; k < m; ++k) word |= (std::bit_cast<uint64_t>(x[j + k]) >> 63) << k;
    w.Put(word, m);
    if (target != nullptr) {
      for (int k = 0; k < m; ++k) target->Put(j + k, value[(word >> k) & 1]);
    }
  }
  return w.Finish();
}

void Sign::DecodeInto(const Message& message, const DecodeTarget& out) const {
  BitReader r(message);
  const int64_t d = out.size();
  const double value[2] = {scale_, -scale_};
  for (int64_t j = 0; j < d; j += 64) {
    const int m = static_cast<int>(std::min<int64_t>(64, d - j));
    const uint64_t word = r.Get(m);
    for (int k = 0; k < m; ++k) out.Put(j + k, value[(word >> k) & 1]);
  }
  r.ExpectEnd();
}

double Sign::ErrorFactor(int64_t /*dim*/) const { return std::numeric_limits<double>::infinity(); }

Expectation Sign::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  Expectation e;
  for (int64_t j = 0; j < x.size(); ++j) {
    const double q = std::signbit(x[j]) ? -scale_ : scale_;
    e.squared_error += (q - x[j]) * (q - x[j]);
  }
  e.nonzeros = static_cast<double>(x.size());
  e.payload_bits = static_cast<double>(x.size());
  e.bits_formula = "d (exact)";
  return e;
}

}  // namespace commsim
