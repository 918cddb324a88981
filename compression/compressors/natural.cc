#include "compression/compressors/natural.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "base/check.h"
#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/compressors/wire.h"

namespace commsim {

void NaturalConfig::Describe(ParamVisitor& v) { DescribeRngKey(v, rng); }

namespace {

constexpr double kMinNormal = 0x1p-126;  // fp32's smallest normal: exponent code 1
constexpr double kFp32Max = std::numeric_limits<float>::max();
constexpr int kPerWord = 7;  // 9-bit symbols per 64-bit field

// 2^e for e in double's normal exponent range.
constexpr double Pow2(int e) {
  return std::bit_cast<double>(static_cast<uint64_t>(e + 1023) << 52);
}

// The magnitude of each exponent code: 0 for code 0, else 2^(code - 127).
struct CodeValues {
  double value[256];
};
constexpr CodeValues MakeCodeValues() {
  CodeValues v{};
  for (int e = 1; e < 256; ++e) v.value[e] = Pow2(e - 127);
  return v;
}
constexpr CodeValues kCodeValues = MakeCodeValues();

// The value of a 9-bit symbol: sign bit (lowest), then the exponent code.
inline double SymbolValue(uint64_t symbol) {
  const double magnitude = kCodeValues.value[(symbol >> 1) & 255];
  // the sign bit moved into the double's (branch-free: signs are unpredictable)
  return std::bit_cast<double>(std::bit_cast<uint64_t>(magnitude) | ((symbol & 1) << 63));
}

// The code of the lower power bracketing a (0 for zero, below 2^-126) and the probability of the
// code above: (a - 2^e) / 2^e, the fraction bits of a, or a / 2^-126 below the normal range (both
// exact). REQUIRES: 0 <= a <= kFp32Max.
struct Bracket {
  unsigned code;
  double p;
};
inline Bracket BracketOf(double a) {
  if (a < kMinNormal) return {0, a * 0x1p126};
  const uint64_t bits = std::bit_cast<uint64_t>(a);
  const int e = static_cast<int>(bits >> 52) - 1023;
  const double fraction = static_cast<double>(bits & ((uint64_t{1} << 52) - 1)) * 0x1p-52;
  return {static_cast<unsigned>(e + 127), fraction};
}

// The symbols of x[0, d), 7 per field, one draw each from src; with a target, also the decoded
// values. Sets *bad (and writes a zero code) for a value not within fp32.
template <bool kDecoded, class Src>
void PutSymbols(const double* x, int64_t d, Src& src, BitWriter& w, const DecodeTarget* target,
                bool* bad) {
  decltype(auto) local = LocalDraws(src);
  for (int64_t c = 0; c < d; c += kDrawChunk) {
    const int64_t cm = std::min(kDrawChunk, d - c);
    local.Prepare(c, cm);
    for (int64_t j = 0; j < cm; j += kPerWord) {
      const int fields = static_cast<int>(std::min<int64_t>(kPerWord, cm - j));
      uint64_t word = 0;
      for (int k = 0; k < fields; ++k) {
        const double v = x[c + j + k];
        const double a = std::abs(v);
        const auto draw = static_cast<double>(local.Next(j + k));
        uint64_t code = 0;
        if (a <= kFp32Max) [[likely]] {
          const Bracket br = BracketOf(a);
          code = br.code + (draw < br.p * Src::kOne ? 1 : 0);
        } else {
          *bad = true;  // NaN fails the comparison too
        }
        const uint64_t symbol = (code << 1) | (std::signbit(v) ? 1 : 0);
        word |= symbol << (9 * k);
        if constexpr (kDecoded) target->Put(c + j + k, SymbolValue(symbol));
      }
      w.Put(word, 9 * fields);
    }
  }
  Commit(src, local);
}

}  // namespace

void Natural::ThrowOutOfRange(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  RequireFinite(Name(), x);
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    if (!(std::abs(x[j]) <= kFp32Max)) {
      throw NonFiniteError(
          fmt::format("{}: value {} at index {} exceeds the fp32 range", Name(), x[j], j));
    }
  }
  COMMSIM_CHECK(false, "ThrowOutOfRange on an input within the fp32 range");
}

template <class Src>
Message Natural::EncodeWith(const Eigen::Ref<const Eigen::VectorXd>& x, Src& src,
                            const DecodeTarget* target) const {
  const int64_t d = x.size();
  BitWriter w;
  w.Reserve(9 * d);
  bool bad = false;
  if (target != nullptr) {
    PutSymbols<true>(x.data(), d, src, w, target, &bad);
  } else {
    PutSymbols<false>(x.data(), d, src, w, nullptr, &bad);
  }
  if (bad) ThrowOutOfRange(x);
  return w.Finish();
}

void Natural::DecodeInto(const Message& message, const DecodeTarget& out) const {
  BitReader r(message);
  const int64_t d = out.size();
  double* plain = out.plain() ? out.out().data() : nullptr;  // direct stores: no Put per value
  for (int64_t j = 0; j < d; j += kPerWord) {
    const int fields = static_cast<int>(std::min<int64_t>(kPerWord, d - j));
    const uint64_t word = r.Get(9 * fields);
    if (plain != nullptr) {
      for (int k = 0; k < fields; ++k) plain[j + k] = SymbolValue(word >> (9 * k));
    } else {
      for (int k = 0; k < fields; ++k) out.Put(j + k, SymbolValue(word >> (9 * k)));
    }
  }
  r.ExpectEnd();
}

// omega (header): the worst ratio (2^(a+1) - t)(t - 2^a) / t^2, at t = (4/3) 2^a.
double Natural::ErrorFactor(int64_t /*dim*/) const { return 0.125; }

Expectation Natural::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  Expectation e;
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    const double a = std::abs(x[j]);
    if (!(a <= kFp32Max)) ThrowOutOfRange(x);
    const Bracket br = BracketOf(a);
    const double lo = kCodeValues.value[br.code], hi = kCodeValues.value[br.code + 1];
    e.squared_error += (hi - a) * (a - lo);  // the variance of a two-point unbiased rounding
    e.nonzeros += br.code == 0 ? br.p : 1.0;
  }
  e.payload_bits = 9.0 * static_cast<double>(x.size());
  e.bits_formula = "9d (exact)";
  return e;
}

template class DrawingCompressor<Natural>;  // EncodeImpl, with EncodeWith above

}  // namespace commsim
