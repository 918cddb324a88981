#include "compression/compressors/fp16.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "base/check.h"
#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/compressors/wire.h"

namespace commsim {

void Fp16Config::Describe(ParamVisitor& /*v*/) {}

namespace {

// 2^e for e in double's normal exponent range.
constexpr double Pow2(int e) {
  return std::bit_cast<double>(static_cast<uint64_t>(e + 1023) << 52);
}

// Per exponent code: the weight of one unit of the 11-bit significand (code 0: subnormals, whose
// significand has no leading one).
struct HalfScales {
  double unit[32];
};
constexpr HalfScales MakeHalfScales() {
  HalfScales s{};
  s.unit[0] = Pow2(-24);
  for (int e = 1; e < 32; ++e) s.unit[e] = Pow2(e - 25);
  return s;
}
constexpr HalfScales kHalfScales = MakeHalfScales();

constexpr int kPerWord = 4;  // 16-bit values per 64-bit field

}  // namespace

// On the double's bits, in integers (exact, and no call to floor): a = m 2^(e - 52) with the
// 53-bit significand m. A normal half (e >= -14) keeps m's top 11 bits; a subnormal one counts
// units of 2^-24, m >> (28 - e). The bits shifted out round the kept ones to nearest, ties to
// even; a carry out of the kept bits moves into the exponent field (or, from the largest
// subnormal, to the smallest normal), as the pattern's layout makes it.
uint16_t HalfBits(double v) {
  const uint64_t bits = std::bit_cast<uint64_t>(v);
  const auto sign = static_cast<uint16_t>((bits >> 48) & 0x8000);
  const int e = static_cast<int>((bits >> 52) & 0x7FF) - 1023;
  if (e < -25) return sign;  // |v| < 2^-25: rounds to zero (2^-25 itself ties to zero, below)
  const uint64_t m = (bits & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
  const int shift = e >= -14 ? 42 : 28 - e;  // in [42, 53]
  uint64_t kept = m >> shift;
  const uint64_t rest = m & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  kept += static_cast<uint64_t>(rest > half) | (static_cast<uint64_t>(rest == half) & kept & 1);
  // normal: exponent code e + 15, of which kept's leading one (kept >= 1024) adds the last 1
  const uint64_t exponent = e >= -14 ? static_cast<uint64_t>(e + 14) << 10 : 0;
  return static_cast<uint16_t>(sign | (exponent + kept));
}

double HalfValue(uint16_t bits) {
  const unsigned code = (bits >> 10) & 31;
  const double significand = static_cast<double>((bits & 1023u) | (code != 0 ? 1024u : 0u));
  const double magnitude = significand * kHalfScales.unit[code];
  // the sign bit moved into the double's (branch-free: signs are unpredictable)
  return std::bit_cast<double>(std::bit_cast<uint64_t>(magnitude) |
                               (static_cast<uint64_t>(bits & 0x8000u) << 48));
}

void Fp16::ThrowOutOfRange(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  RequireFinite(Name(), x);
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    if (!(std::abs(x[j]) <= kMax)) {
      throw NonFiniteError(fmt::format(
          "{}: value {} at index {} exceeds the fp16 range (|x| <= {})", Name(), x[j], j, kMax));
    }
  }
  COMMSIM_CHECK(false, "ThrowOutOfRange on an input within the fp16 range");
}

// One pass: converts, writes and (with a target) delivers; a value out of range is noted and
// reported after the pass, as a check up front would report it (ThrowOutOfRange).
Message Fp16::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& /*rng*/,
                         const DecodeTarget* target) const {
  const int64_t d = x.size();
  const double* p = x.data();
  BitWriter w;
  w.Reserve(16 * d);
  bool bad = false;
  for (int64_t j = 0; j < d; j += kPerWord) {
    const int m = static_cast<int>(std::min<int64_t>(kPerWord, d - j));
    uint64_t word = 0;
    for (int k = 0; k < m; ++k) {
      uint64_t h = 0;
      if (std::abs(p[j + k]) <= kMax) [[likely]] {
        h = HalfBits(p[j + k]);
      } else {
        bad = true;  // NaN fails the comparison too
      }
      word |= h << (16 * k);
    }
    w.Put(word, 16 * m);
    if (target != nullptr) {
      for (int k = 0; k < m; ++k) {
        target->Put(j + k, HalfValue(static_cast<uint16_t>(word >> (16 * k))));
      }
    }
  }
  if (bad) ThrowOutOfRange(x);
  return w.Finish();
}

void Fp16::DecodeInto(const Message& message, const DecodeTarget& out) const {
  BitReader r(message);
  const int64_t d = out.size();
  double* plain = out.plain() ? out.out().data() : nullptr;  // direct stores: no Put per value
  for (int64_t j = 0; j < d; j += kPerWord) {
    const int m = static_cast<int>(std::min<int64_t>(kPerWord, d - j));
    const uint64_t word = r.Get(16 * m);
    for (int k = 0; k < m; ++k) {
      const auto h = static_cast<uint16_t>(word >> (16 * k));
      if ((h & 0x7C00u) == 0x7C00u) {
        throw DecodeError(
            fmt::format("corrupted message: fp16 pattern {:#06x} (Inf/NaN) at value {}", h, j + k));
      }
      if (plain != nullptr) {
        plain[j + k] = HalfValue(h);
      } else {
        out.Put(j + k, HalfValue(h));
      }
    }
  }
  r.ExpectEnd();
}

// Half's unit roundoff, squared (header: normal range; the subnormal caveat is stated there).
double Fp16::ErrorFactor(int64_t /*dim*/) const { return 0x1p-22; }

Expectation Fp16::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  Expectation e;
  e.payload_bits = 16.0 * static_cast<double>(x.size());
  e.bits_formula = "16d (exact)";
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    if (!(std::abs(x[j]) <= kMax)) ThrowOutOfRange(x);
    const double q = HalfValue(HalfBits(x[j]));
    e.squared_error += (q - x[j]) * (q - x[j]);
    if (q != 0.0) e.nonzeros += 1.0;
  }
  return e;
}

}  // namespace commsim
