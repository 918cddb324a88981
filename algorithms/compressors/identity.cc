#include "algorithms/compressors/identity.h"

#include <bit>
#include <cmath>

#include "algorithms/coding/bit_reader.h"
#include "algorithms/compressors/wire.h"
#include "sim/check.h"

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
  return EncodeImpl(x, nullptr);
}

Message Identity::EncodeWithDecoded(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& /*rng*/,
                                    const DecodeTarget& target) const {
  COMMSIM_CHECK(target.size() == x.size(), "decode target of size {} for d = {}", target.size(),
                x.size());
  return EncodeImpl(x, &target);
}

namespace {

constexpr uint64_t kF64Exponent = 0x7FF0000000000000ULL;
constexpr uint32_t kF32Exponent = 0x7F800000U;

// The wire bits of one fp32 value; `bad` collects values that are not finite in fp32.
inline uint64_t F32Bits(double v, uint32_t& bad) {
  const uint32_t bits = std::bit_cast<uint32_t>(static_cast<float>(v));
  bad |= static_cast<uint32_t>((bits & kF32Exponent) == kF32Exponent);
  return bits;
}

}  // namespace

// One pass: converts, writes the words directly (two fp32 values per 64-bit word, the first in
// the low half, as BitWriter would), checks and (with a target) delivers the decoded values. A
// value that is not finite, or not finite in fp32, fails after the pass with the same error as a
// check up front: RequireFinite names the first NaN/Inf, else the first value beyond fp32.
Message Identity::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x,
                             const DecodeTarget* target) const {
  const Eigen::Index d = x.size();
  const double* p = x.data();
  Message m;
  m.payload_bits = d * config_.precision;
  m.words.resize(static_cast<size_t>((m.payload_bits + 63) / 64));
  uint64_t* words = m.words.data();
  uint64_t bad = 0;
  if (config_.precision == 64) {
    for (Eigen::Index i = 0; i < d; ++i) {
      words[i] = std::bit_cast<uint64_t>(p[i]);
      bad |= static_cast<uint64_t>((words[i] & kF64Exponent) == kF64Exponent);
    }
    if (bad != 0) RequireFinite(Name(), x);
    if (target != nullptr) {
      for (Eigen::Index i = 0; i < d; ++i) target->Put(i, p[i]);
    }
    return m;
  }
  uint32_t bad32 = 0;
  Eigen::Index i = 0;
  for (; i + 1 < d; i += 2) words[i / 2] = F32Bits(p[i], bad32) | (F32Bits(p[i + 1], bad32) << 32);
  if (i < d) words[i / 2] = F32Bits(p[i], bad32);
  bad = bad32;
  if (bad != 0) {
    RequireFinite(Name(), x);
    for (Eigen::Index j = 0; j < d; ++j) Fp32Nearest(Name(), x[j]);  // throws at the first
  }
  if (target != nullptr) {
    for (Eigen::Index i = 0; i < d; ++i) target->Put(i, static_cast<float>(p[i]));
  }
  return m;
}

void Identity::Decode(const Message& message, Eigen::Ref<Eigen::VectorXd> out) const {
  DecodeInto(message, DecodeTarget(out));
}

void Identity::DecodeInto(const Message& message, const DecodeTarget& out) const {
  BitReader r(message);  // checks that the words hold payload_bits
  const Eigen::Index d = out.size();
  bool finite = true;
  if (message.payload_bits == d * config_.precision) {  // well formed: read the words directly
    const uint64_t* words = message.words.data();
    for (Eigen::Index i = 0; i < d; ++i) {
      const double v = config_.precision == 64
                           ? std::bit_cast<double>(words[i])
                           : std::bit_cast<float>(static_cast<uint32_t>(
                                 words[i / 2] >> (32 * (i & 1))));
      finite &= std::isfinite(v);
      out.Put(i, v);
    }
  } else {  // a stream too short or too long: the reader reports where
    for (Eigen::Index i = 0; i < d; ++i) {
      out.Put(i, config_.precision == 64 ? r.GetDouble() : r.GetFloat());
    }
    r.ExpectEnd();
  }
  if (!finite) throw DecodeError("corrupted message: non-finite value");
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
