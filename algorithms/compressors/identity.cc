#include "algorithms/compressors/identity.h"

#include <bit>
#include <cmath>
#include <cstring>

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

namespace {

// The wire bits of one fp32 value; bit 31 of `bad` collects values that are not finite in fp32.
inline uint64_t F32Bits(double v, uint32_t& bad) {
  const uint32_t bits = std::bit_cast<uint32_t>(static_cast<float>(v));
  bad |= NonFiniteFlag32(bits);
  return bits;
}

}  // namespace

// One pass: converts, writes the words directly (two fp32 values per 64-bit word, the first in
// the low half, as BitWriter would), checks and (with a target) delivers the decoded values. A
// value that is not finite, or not finite in fp32, fails after the pass with the same error as a
// check up front: RequireFinite names the first NaN/Inf, else the first value beyond fp32.
Message Identity::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& /*rng*/,
                             const DecodeTarget* target) const {
  const Eigen::Index d = x.size();
  const double* p = x.data();
  Message m;
  m.payload_bits = d * config_.precision;
  m.words.resize(static_cast<size_t>((m.payload_bits + 63) / 64), boost::container::default_init);
  if (!m.words.empty()) m.words.back() = 0;  // the bits past payload_bits (an odd fp32 count)
  uint64_t* words = m.words.data();
  uint64_t bad = 0;
  if (config_.precision == 64) {
    for (Eigen::Index i = 0; i < d; ++i) {
      words[i] = std::bit_cast<uint64_t>(p[i]);
      bad |= NonFiniteFlag(p[i]);
    }
    if ((bad >> 63) != 0) RequireFinite(Name(), x);
    if (target != nullptr) {
      for (Eigen::Index i = 0; i < d; ++i) target->Put(i, p[i]);
    }
    return m;
  }
  uint32_t bad32 = 0;
  // Two fp32 values per word, the first in the low half: on the little-endian hosts we build for,
  // that is the floats in order in memory (byte copies, which the compiler vectorises).
  static_assert(std::endian::native == std::endian::little);
  auto* bytes = reinterpret_cast<unsigned char*>(words);
  for (Eigen::Index i = 0; i < d; ++i) {
    const uint32_t bits = static_cast<uint32_t>(F32Bits(p[i], bad32));
    std::memcpy(bytes + 4 * i, &bits, sizeof bits);
  }
  if ((bad32 >> 31) != 0) {
    RequireFinite(Name(), x);
    for (Eigen::Index j = 0; j < d; ++j) Fp32Nearest(Name(), x[j]);  // throws at the first
  }
  if (target != nullptr) {
    for (Eigen::Index i = 0; i < d; ++i) target->Put(i, static_cast<float>(p[i]));
  }
  return m;
}

namespace {

// The values of a well-formed message into `out` (precision 64: one per word; 32: two per word,
// the first in the low half); returns false when one is not finite. One loop per kind of target,
// so each vectorises.
template <int kPrecision>
bool DecodeWords(const uint64_t* words, const DecodeTarget& out) {
  const Eigen::Index d = out.size();
  // The floats in order in memory (little-endian, as the encoder writes them): byte copies, which
  // the compiler turns into vector loads.
  const auto* bytes = reinterpret_cast<const unsigned char*>(words);
  auto value = [bytes](Eigen::Index i) {
    if constexpr (kPrecision == 64) {
      double v;
      std::memcpy(&v, bytes + 8 * i, sizeof v);
      return v;
    }
    float f;
    std::memcpy(&f, bytes + 4 * i, sizeof f);
    return static_cast<double>(f);
  };
  uint64_t bad = 0;
  if (out.plain()) {
    double* o = out.out().data();
    for (Eigen::Index i = 0; i < d; ++i) {
      o[i] = value(i);
      bad |= NonFiniteFlag(o[i]);
    }
  } else if (out.accumulates()) {  // the common server case: sum += weight * v
    double* o = out.out().data();
    const double weight = out.weight();
    for (Eigen::Index i = 0; i < d; ++i) {
      const double v = value(i);
      bad |= NonFiniteFlag(v);
      o[i] += weight * v;
    }
  } else {
    for (Eigen::Index i = 0; i < d; ++i) {
      const double v = value(i);
      bad |= NonFiniteFlag(v);
      out.Put(i, v);
    }
  }
  return (bad >> 63) == 0;
}

}  // namespace

void Identity::DecodeInto(const Message& message, const DecodeTarget& out) const {
  BitReader r(message);  // checks that the words hold payload_bits
  const Eigen::Index d = out.size();
  bool finite = true;
  if (message.payload_bits == d * config_.precision) {  // well formed: read the words directly
    finite = config_.precision == 64 ? DecodeWords<64>(message.words.data(), out)
                                     : DecodeWords<32>(message.words.data(), out);
  } else {  // a stream too short or too long: the reader reports where
    for (Eigen::Index i = 0; i < d; ++i) {
      out.Put(i, config_.precision == 64 ? r.GetDouble() : r.GetFloat());
    }
    r.ExpectEnd();
  }
  if (!finite) throw DecodeError("corrupted message: non-finite value");
}

// The fp32 rounding on the wire is left out of ErrorFactor (compressor.h): the identity is exact.
double Identity::ErrorFactor(int64_t) const { return 0.0; }

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
