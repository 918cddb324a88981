#include "algorithms/compressors/dithered.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "algorithms/coding/bit_reader.h"
#include "algorithms/coding/bit_writer.h"
#include "algorithms/coding/vector_source_code.h"
#include "algorithms/compressors/wire.h"

namespace commsim {
namespace {

Rng DitherStream(int64_t dither_seed, uint64_t nonce) {
  return Rng(DeriveSeed(static_cast<uint64_t>(dither_seed), nonce, "dither"));
}

}  // namespace

void DitheredConfig::Describe(ParamVisitor& v) {
  v.Int("levels", levels, Range::Closed(1, 1 << 20), "number of quantization levels s");
  v.Bool("subtractive", subtractive, "subtractive dither shared through dither_seed");
  v.Int("dither_seed", dither_seed, Range::NonNegative(),
        "shared seed of the subtractive dither (mixed with a per-message nonce)");
}

Message Dithered::Encode(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng) const {
  RequireFinite(Name(), x);
  const int64_t d = x.size();
  const float norm = Fp32Up(Name(), x.norm());
  BitWriter w;
  w.PutFloat(norm);
  if (norm == 0.0f) return w.Finish();
  const double s = static_cast<double>(config_.levels);
  const double scale = s / static_cast<double>(norm);
  std::vector<int32_t> z(static_cast<size_t>(d));
  if (config_.subtractive) {
    const uint64_t nonce = rng.NextU64();
    w.Put(nonce, 64);
    Rng dither = DitherStream(config_.dither_seed, nonce);
    for (int64_t j = 0; j < d; ++j) {
      const double a = std::clamp(x[j] * scale, -s, s);
      z[j] = static_cast<int32_t>(std::floor(a + dither.Uniform()));
    }
  } else {
    Rng local = rng;
    for (int64_t j = 0; j < d; ++j) {
      const double a = std::min(std::abs(x[j]) * scale, s);
      const int32_t m = static_cast<int32_t>(a + local.Uniform());  // truncation = floor here
      z[j] = x[j] < 0 ? -m : m;
    }
    rng = local;
  }
  PutVectorSourceCode(w, z);
  return w.Finish();
}

void Dithered::Decode(const Message& message, Eigen::Ref<Eigen::VectorXd> out) const {
  BitReader r(message);
  const int64_t d = out.size();
  const double unit = static_cast<double>(ReadScale(r)) / static_cast<double>(config_.levels);
  if (unit == 0.0) {
    out.setZero();
    r.ExpectEnd();
    return;
  }
  uint64_t nonce = 0;
  if (config_.subtractive) nonce = r.Get(64);
  std::vector<int32_t> z(static_cast<size_t>(d));
  GetVectorSourceCode(r, z);
  r.ExpectEnd();
  const int64_t limit = config_.levels + 1;
  for (int64_t j = 0; j < d; ++j) {
    if (z[j] > limit || z[j] < -limit) throw DecodeError("corrupted message: level out of range");
  }
  if (config_.subtractive) {
    Rng dither = DitherStream(config_.dither_seed, nonce);
    for (int64_t j = 0; j < d; ++j) out[j] = unit * (z[j] - dither.Uniform() + 0.5);
  } else {
    for (int64_t j = 0; j < d; ++j) out[j] = unit * z[j];
  }
}

double Dithered::ErrorFactor(int64_t dim) const {
  const double d = static_cast<double>(std::max<int64_t>(dim, 1));
  const double s = static_cast<double>(config_.levels);
  if (config_.subtractive) return d / (12.0 * s * s);
  return std::min(d / (s * s), std::sqrt(d) / s);
}

Expectation Dithered::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const int64_t d = x.size();
  Expectation e;
  const double norm = Fp32Up(Name(), x.norm());
  if (norm == 0.0) {
    e.payload_bits = 32.0;
    e.bits_formula = "32 (zero vector)";
    return e;
  }
  const double s = static_cast<double>(config_.levels);
  const double unit = norm / s;
  std::map<int64_t, double> hist;  // expected count of each symbol
  for (int64_t j = 0; j < d; ++j) {
    const double a = config_.subtractive ? std::clamp(x[j] * s / norm, -s, s)
                                         : std::min(std::abs(x[j]) * s / norm, s);
    const double fl = std::floor(a);
    const double f = a - fl;
    const int64_t sign = (!config_.subtractive && x[j] < 0) ? -1 : 1;
    hist[sign * static_cast<int64_t>(fl)] += 1.0 - f;
    if (f > 0.0) hist[sign * (static_cast<int64_t>(fl) + 1)] += f;
    if (!config_.subtractive) {
      e.squared_error += unit * unit * f * (1.0 - f);
      e.nonzeros += fl >= 1.0 ? 1.0 : f;
    }
  }
  if (config_.subtractive) {
    e.squared_error = static_cast<double>(d) * unit * unit / 12.0;
    e.nonzeros = static_cast<double>(d);
  }
  std::vector<double> counts;
  for (const auto& [v, c] : hist) counts.push_back(c);
  e.payload_bits = (config_.subtractive ? 96.0 : 32.0) +
                   EntropyBits(counts.data(), static_cast<int>(counts.size()));
  e.bits_formula =
      config_.subtractive ? "96 + d*H(expected z) (approx.)" : "32 + d*H(expected z) (approx.)";
  return e;
}

}  // namespace commsim
