#include "compression/compressors/onebit.h"

#include <algorithm>
#include <cmath>

#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/compressors/wire.h"

namespace commsim {

void OneBitConfig::Describe(ParamVisitor& v) {
  v.Real("c", c, Range::NonNegative(), "lambda = c ||z|| / sqrt(n); 0: sqrt(2 ln(2n))");
}

double OneBit::CFor(int64_t n) const {
  if (c_ > 0.0) return c_;
  return std::sqrt(2.0 * std::log(2.0 * static_cast<double>(std::max<int64_t>(n, 1))));
}

float OneBit::Lambda(const Eigen::Ref<const Eigen::VectorXd>& z) const {
  const int64_t n = z.size();
  if (n == 0) return 0.0f;
  // A sum of squares beyond the double range means ||z|| > 1e154, and lambda beyond fp32: the
  // infinity then reaches Fp32Up's range error.
  const double norm = std::sqrt(SumSquares(z.data(), n));
  return Fp32Up(Name(), CFor(n) * norm / std::sqrt(static_cast<double>(n)));
}

Message OneBit::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                           const DecodeTarget* target) const {
  RequireFinite(Name(), x);
  const int64_t n = x.size();
  const float lambda_f = Lambda(x);
  const double lambda = lambda_f;
  const double value[2] = {lambda, -lambda};
  BitWriter w;
  w.Reserve(32 + n);
  w.PutFloat(lambda_f);
  for (int64_t j = 0; j < n; j += 64) {
    const int m = static_cast<int>(std::min<int64_t>(64, n - j));
    uint64_t word = 0;
    for (int k = 0; k < m; ++k) {
      const double tau = lambda * (2.0 * rng.Uniform() - 1.0);
      word |= static_cast<uint64_t>(x[j + k] + tau < 0.0) << k;
    }
    w.Put(word, m);
    if (target != nullptr) {
      for (int k = 0; k < m; ++k) target->Put(j + k, value[(word >> k) & 1]);
    }
  }
  return w.Finish();
}

void OneBit::DecodeInto(const Message& message, const DecodeTarget& out) const {
  BitReader r(message);
  const int64_t n = out.size();
  const double lambda = ReadScale(r);
  const double value[2] = {lambda, -lambda};
  for (int64_t j = 0; j < n; j += 64) {
    const int m = static_cast<int>(std::min<int64_t>(64, n - j));
    const uint64_t word = r.Get(m);
    for (int k = 0; k < m; ++k) out.Put(j + k, value[(word >> k) & 1]);
  }
  r.ExpectEnd();
}

double OneBit::ErrorFactor(int64_t dim) const {
  const double c = CFor(dim);
  return 1.0 + c * c;
}

Expectation OneBit::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const int64_t n = x.size();
  const double lambda = Lambda(x);
  Expectation e;
  for (int64_t j = 0; j < n; ++j) {
    const double a = std::abs(x[j]);
    e.squared_error += a <= lambda ? lambda * lambda - a * a : (a - lambda) * (a - lambda);
  }
  e.nonzeros = lambda > 0.0 ? static_cast<double>(n) : 0.0;
  e.payload_bits = 32.0 + static_cast<double>(n);
  e.bits_formula = "32 + n (exact)";
  return e;
}

}  // namespace commsim
