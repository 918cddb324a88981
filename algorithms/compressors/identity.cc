#include "algorithms/compressors/identity.h"

#include <bit>

#include "algorithms/coding/bit_reader.h"
#include "algorithms/coding/bit_writer.h"
#include "algorithms/compressors/wire.h"

namespace commsim {

void IdentityConfig::Describe(ParamVisitor& v) {
  v.Int("precision", precision, Range::Closed(32, 64), "bits per value on the wire: 32 or 64");
}

void IdentityConfig::Validate(ParamProblems& problems) const {
  if (precision != 32 && precision != 64) {
    problems.Add("precision", "must be 32 or 64, got " + std::to_string(precision));
  }
}

Message Identity::Encode(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& /*rng*/) const {
  RequireFinite(Name(), x);
  BitWriter w;
  const Eigen::Index d = x.size();
  w.Reserve(d * config_.precision);
  if (config_.precision == 64) {
    for (Eigen::Index i = 0; i < d; ++i) w.PutDouble(x[i]);
  } else {
    Eigen::Index i = 0;
    for (; i + 1 < d; i += 2) {  // two values per 64-bit field
      const uint64_t lo = std::bit_cast<uint32_t>(Fp32Nearest(Name(), x[i]));
      const uint64_t hi = std::bit_cast<uint32_t>(Fp32Nearest(Name(), x[i + 1]));
      w.Put(lo | (hi << 32), 64);
    }
    if (i < d) w.PutFloat(Fp32Nearest(Name(), x[i]));
  }
  return w.Finish();
}

void Identity::Decode(const Message& message, Eigen::Ref<Eigen::VectorXd> out) const {
  BitReader r(message);
  const Eigen::Index d = out.size();
  if (config_.precision == 64) {
    for (Eigen::Index i = 0; i < d; ++i) out[i] = r.GetDouble();
  } else {
    for (Eigen::Index i = 0; i < d; ++i) out[i] = r.GetFloat();
  }
  r.ExpectEnd();
  if (!out.allFinite()) throw DecodeError("corrupted message: non-finite value");
}

Expectation Identity::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  Expectation e;
  e.payload_bits = static_cast<double>(config_.precision) * static_cast<double>(x.size());
  e.bits_formula = config_.precision == 64 ? "64d (exact)" : "32d (exact)";
  double err = 0.0;
  if (config_.precision == 32) {
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      const double q = static_cast<float>(x[i]);
      err += (q - x[i]) * (q - x[i]);
    }
  }
  e.squared_error = err;
  e.nonzeros = static_cast<double>((x.array() != 0.0).count());
  return e;
}

}  // namespace commsim
