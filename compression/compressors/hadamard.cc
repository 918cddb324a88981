#include "compression/compressors/hadamard.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>

#include "compression/coding/bit_reader.h"
#include "compression/coding/hadamard.h"
#include "compression/compressors/onebit.h"
#include "compression/compressors/wire.h"
#include "compression/registry.h"

namespace commsim {
namespace {
// The stream of Expected's Monte Carlo encodings (fixed, so Expected is deterministic).
constexpr uint64_t kExpectedSeed = 0x68616461'6D617264;  // "hadamard"
}  // namespace

HadamardConfig::HadamardConfig()
    : inner(std::string(kCompressorKind), "onebit", std::make_unique<OneBitConfig>()) {}

void HadamardConfig::Describe(ParamVisitor& v) {
  v.Component("inner", inner, "compressor applied to the rotated vector (padded to 2^k)");
}

Hadamard::Hadamard(const HadamardConfig& config)
    : Hadamard(CompressorRegistry().Make(config.inner)) {}

Hadamard::Hadamard(std::unique_ptr<Compressor> inner)
    : Compressor("hadamard", inner->unbiased()), inner_(std::move(inner)) {}

void Hadamard::Rotate(const Eigen::Ref<const Eigen::VectorXd>& x, uint64_t seed,
                      Eigen::Ref<Eigen::VectorXd> y) {
  const int64_t d = x.size();
  y.head(d) = x;
  y.tail(y.size() - d).setZero();
  ApplyRademacherSigns(seed, y.data(), d);  // the padding is zero: its signs do not matter
  NormalizedFwht(y.data(), y.size());
}

void Hadamard::Unrotate(Eigen::Ref<Eigen::VectorXd> y, uint64_t seed, const DecodeTarget& target) {
  const int64_t d = target.size();
  NormalizedFwht(y.data(), y.size());
  ApplyRademacherSigns(seed, y.data(), d);
  target.PutAll(y.head(d));
}

Message Hadamard::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                             const DecodeTarget* target) const {
  RequireFinite(Name(), x);
  const int64_t d = x.size();
  COMMSIM_CHECK(d <= kMaxDim, "hadamard supports d <= 2^40, got {}", d);
  const int64_t n = PaddedPowerOfTwo(d);
  const uint64_t seed = rng.NextU64();
  Eigen::VectorXd y(n);
  Rotate(x, seed, y);
  Eigen::VectorXd y_decoded;
  Message inner;
  try {
    if (target == nullptr) {
      inner = inner_->Encode(y, rng);
    } else {
      y_decoded.resize(n);
      inner = inner_->EncodeWithDecoded(y, rng, DecodeTarget(y_decoded));
    }
  } catch (const NonFiniteError& e) {
    throw NonFiniteError(fmt::format("hadamard: {}", e.what()));
  }
  // The seed is one whole word, so the inner message's words follow it unshifted.
  Message m;
  m.payload_bits = 64 + inner.payload_bits;
  m.words.reserve(inner.words.size() + 1);
  m.words.push_back(seed);
  m.words.insert(m.words.end(), inner.words.begin(), inner.words.end());
  m.nonzeros = inner.nonzeros >= 0 ? inner.nonzeros : n;
  if (target != nullptr) Unrotate(y_decoded, seed, *target);
  return m;
}

void Hadamard::DecodeInto(const Message& message, const DecodeTarget& out) const {
  BitReader r(message);  // checks that the words hold payload_bits bits
  const uint64_t seed = r.Get(64);
  const int64_t d = out.size();
  COMMSIM_CHECK(d <= kMaxDim, "hadamard supports d <= 2^40, got {}", d);
  Message inner;
  inner.payload_bits = message.payload_bits - 64;
  const auto first = message.words.begin() + 1;
  inner.words.assign(first, first + (inner.payload_bits + 63) / 64);
  Eigen::VectorXd y(PaddedPowerOfTwo(d));
  inner_->Decode(inner, y);
  Unrotate(y, seed, out);
}

double Hadamard::ErrorFactor(int64_t dim) const {
  return inner_->ErrorFactor(PaddedPowerOfTwo(dim));
}

Expectation Hadamard::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const int64_t d = x.size();
  const int64_t n = PaddedPowerOfTwo(d);
  const int64_t trials = std::clamp<int64_t>((int64_t{1} << 24) / n, 16, 16384);
  Rng rng(kExpectedSeed);
  Eigen::VectorXd y(n), y_decoded(n), decoded(d);
  Expectation e;
  std::string inner_formula;
  double inner_bits = 0.0;
  bool same_bits = true;
  for (int64_t t = 0; t < trials; ++t) {
    const uint64_t seed = rng.NextU64();
    Rotate(x, seed, y);
    const Expectation ie = inner_->Expected(y);
    if (t == 0) {
      inner_formula = ie.bits_formula;
      inner_bits = ie.payload_bits;
    }
    same_bits = same_bits && ie.payload_bits == inner_bits;
    e.payload_bits += ie.payload_bits;
    inner_->EncodeWithDecoded(y, rng, DecodeTarget(y_decoded));
    Unrotate(y_decoded, seed, DecodeTarget(decoded));
    e.squared_error += (decoded - x).squaredNorm();
    e.nonzeros += static_cast<double>((decoded.array() != 0.0).count());
  }
  const double k = static_cast<double>(trials);
  e.payload_bits = 64.0 + e.payload_bits / k;
  e.squared_error /= k;
  e.nonzeros /= k;
  e.bits_formula =
      same_bits ? fmt::format("64 + [{} at n = {}]", inner_formula, n)
                : fmt::format("64 + the inner's closed form at n = {}, mean over {} rotations", n,
                              trials);
  return e;
}

}  // namespace commsim
