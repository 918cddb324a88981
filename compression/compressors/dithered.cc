#include "compression/compressors/dithered.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <type_traits>
#include <vector>

#include "base/target_clones.h"
#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/coding/vector_source_code.h"
#include "compression/compressors/counter_kernels.h"
#include "compression/compressors/uniform_draws.h"
#include "compression/compressors/wire.h"

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
  DescribeRngKey(v, rng);
}

namespace {

// Exact floor of v for |v| < 2^31 (no libm call, vectorisable).
inline int32_t FloorToInt(double v) {
  const int32_t t = static_cast<int32_t>(v);
  return t - static_cast<int32_t>(v < static_cast<double>(t));
}

// The nonzero levels z_j of one message, with their positions (increasing). The buffers hold d
// entries but only the first `count` are written, so the untouched tail costs no memory traffic.
struct Levels {
  explicit Levels(int64_t d)
      : positions(std::make_unique_for_overwrite<uint32_t[]>(static_cast<size_t>(d))),
        values(std::make_unique_for_overwrite<int32_t[]>(static_cast<size_t>(d))) {}
  // Appends (j, z) when z != 0, without a branch on the unpredictable outcome.
  void Add(int64_t j, int32_t z) {
    positions[count] = static_cast<uint32_t>(j);
    values[count] = z;
    count += z != 0;
  }
  std::unique_ptr<uint32_t[]> positions;
  std::unique_ptr<int32_t[]> values;
  int64_t count = 0;
};

// True when z[0, n) are all zero (a vectorised or-reduction in the clones).
template <int n>
[[gnu::always_inline]] inline bool AllZero(const int32_t* z) {
  int32_t any = 0;
  for (int i = 0; i < n; ++i) any |= z[i];
  return any == 0;
}

// Levels::Add of z[0, 8) at positions first + i, nothing when they are all zero.
[[gnu::always_inline]] inline void AddEight(int64_t first, const int32_t* z, Levels& levels) {
  if (AllZero<8>(z)) return;
  for (int i = 0; i < 8; ++i) levels.Add(first + i, z[i]);
}

// Levels::Add of z[0, m) at positions first + k, passing over each group of 32 zeros, then of
// eight, at once (most groups of a message are zeros).
COMMSIM_TARGET_CLONES
void AddNonzeroLevels(int64_t first, const int32_t* z, int64_t m, Levels& levels) {
  int64_t k = 0;
  for (; k + 32 <= m; k += 32) {
    if (AllZero<32>(z + k)) continue;
    for (int g = 0; g < 32; g += 8) AddEight(first + k + g, z + k + g, levels);
  }
  for (; k + 8 <= m; k += 8) AddEight(first + k, z + k, levels);
  for (; k < m; ++k) levels.Add(first + k, z[k]);
}

// Draws the levels of x (scale = s / n) and, with a target, delivers the decoded values as
// Decode computes them: unit * z_j, or unit * (z_j - u_j + 1/2) with the subtractive dither.
// u_j = draw / Src::kOne (stream: exactly Rng::Uniform()).
template <bool kSubtractive, bool kDecoded, class Src>
void DrawLevels(const double* x, int64_t d, double s, double scale, double unit, Src& src,
                Levels& levels, const DecodeTarget* target) {
  decltype(auto) local = LocalDraws(src);
  int32_t kernel_z[kDrawChunk];  // draws in memory: the chunk's levels from the kernel
  for (int64_t c = 0; c < d; c += kDrawChunk) {
    const int64_t m = std::min(kDrawChunk, d - c);
    PrefetchBlockAfterNext(x, d, c, kDrawChunk);
    local.Prepare(c, m);
    if constexpr (KernelDraws<Src>) {
      counter_kernels::DitheredLevels(x + c, local.data(), m, scale, s, kSubtractive, kernel_z);
      if constexpr (!kDecoded) {  // levels only: skip the groups of zeros (most of a message)
        AddNonzeroLevels(c, kernel_z, m, levels);
        continue;
      }
    }
    for (int64_t k = 0; k < m; ++k) {
      const int64_t j = c + k;
      int32_t z = 0;
      double u = 0.0;
      if constexpr (KernelDraws<Src>) {
        z = kernel_z[k];
        if constexpr (kSubtractive && kDecoded) u = local.Next(k) * (1.0 / Src::kOne);
      } else if constexpr (kSubtractive) {
        u = static_cast<double>(local.Next(k)) * (1.0 / Src::kOne);
        z = FloorToInt(std::clamp(x[j] * scale, -s, s) + u);
      } else {
        u = static_cast<double>(local.Next(k)) * (1.0 / Src::kOne);
        const int32_t mag = static_cast<int32_t>(std::min(std::abs(x[j]) * scale, s) + u);
        z = x[j] < 0 ? -mag : mag;
      }
      if constexpr (kDecoded) target->Put(j, kSubtractive ? unit * (z - u + 0.5) : unit * z);
      levels.Add(j, z);
    }
  }
  Commit(src, local);
}

// The receiver's side of the subtractive dither: unit * (z_j - u_j + 1/2).
template <class Src>
void PutSubtractive(const std::vector<int32_t>& z, double unit, Src& src, const DecodeTarget& out) {
  const int64_t d = static_cast<int64_t>(z.size());
  decltype(auto) local = LocalDraws(src);
  for (int64_t c = 0; c < d; c += kDrawChunk) {
    const int64_t m = std::min(kDrawChunk, d - c);
    local.Prepare(c, m);
    for (int64_t k = 0; k < m; ++k) {
      const double u = static_cast<double>(local.Next(k)) * (1.0 / Src::kOne);
      out.Put(c + k, unit * (z[c + k] - u + 0.5));
    }
  }
  Commit(src, local);
}

}  // namespace

// The norm's pass doubles as the input check: a NaN or Inf makes the norm non-finite, and
// RequireFinite then names the first one (as a check up front would).
Message Dithered::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                             const DecodeTarget* target) const {
  const int64_t d = x.size();
  const double raw_norm = x.norm();
  if (!std::isfinite(raw_norm)) RequireFinite(Name(), x);
  const float norm = Fp32Up(Name(), raw_norm);
  BitWriter w;
  w.PutFloat(norm);
  if (norm == 0.0f) {
    if (target != nullptr) target->PutZeros(0, d);
    return w.Finish();
  }
  const double s = static_cast<double>(config_.levels);
  const double scale = s / static_cast<double>(norm);
  const double unit = static_cast<double>(norm) / s;
  const bool counter = UsesCounterRng(config_.rng);
  Levels levels(d);
  if (config_.subtractive) {
    const uint64_t nonce = rng.NextU64();
    w.Put(nonce, 64);
    Rng dither = DitherStream(config_.dither_seed, nonce);
    WithDraws(counter, d, dither, [&](auto& src) {
      if (target != nullptr) {
        DrawLevels<true, true>(x.data(), d, s, scale, unit, src, levels, target);
      } else {
        DrawLevels<true, false>(x.data(), d, s, scale, unit, src, levels, nullptr);
      }
    });
  } else {
    WithDraws(counter, d, rng, [&](auto& src) {
      if (target != nullptr) {
        DrawLevels<false, true>(x.data(), d, s, scale, unit, src, levels, target);
      } else {
        DrawLevels<false, false>(x.data(), d, s, scale, unit, src, levels, nullptr);
      }
    });
  }
  const auto n = static_cast<size_t>(levels.count);
  PutSparseVectorSourceCode(w, d, {levels.positions.get(), n}, {levels.values.get(), n});
  return w.Finish();
}

void Dithered::DecodeInto(const Message& message, const DecodeTarget& out) const {
  BitReader r(message);
  const int64_t d = out.size();
  const double unit = static_cast<double>(ReadScale(r)) / static_cast<double>(config_.levels);
  if (unit == 0.0) {
    r.ExpectEnd();
    out.PutZeros(0, d);
    return;
  }
  uint64_t nonce = 0;
  if (config_.subtractive) nonce = r.Get(64);
  std::vector<int32_t> z(static_cast<size_t>(d));
  GetVectorSourceCode(r, z);
  r.ExpectEnd();
  const int32_t limit = static_cast<int32_t>(config_.levels + 1);
  int bad = 0;
  for (int64_t j = 0; j < d; ++j) {
    bad |= static_cast<int>(z[j] > limit) | static_cast<int>(z[j] < -limit);  // branch-free
  }
  if (bad) throw DecodeError("corrupted message: level out of range");
  if (config_.subtractive) {
    Rng dither = DitherStream(config_.dither_seed, nonce);
    WithDraws(UsesCounterRng(config_.rng), d, dither,
              [&](auto& src) { PutSubtractive(z, unit, src, out); });
  } else {
    for (int64_t j = 0; j < d; ++j) out.Put(j, unit * z[j]);
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
