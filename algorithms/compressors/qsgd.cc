#include "algorithms/compressors/qsgd.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "algorithms/coding/bit_reader.h"
#include "algorithms/coding/bit_writer.h"
#include "algorithms/coding/elias.h"
#include "algorithms/compressors/wire.h"

namespace commsim {
namespace {

constexpr std::string_view kNorms[] = {"2", "inf"};
constexpr std::string_view kCodings[] = {"elias", "fixed"};

// The elias coding of one nonzero bucket's signed levels: Elias omega of (index of the first
// nonzero level + 1), then for each nonzero level its sign bit, omega(|level|) and omega(the gap
// to the next nonzero level, or to n).
void PutEliasLevels(const int64_t* level, int64_t n, BitWriter& w) {
  int64_t pos = 0;
  while (pos < n && level[pos] == 0) ++pos;
  PutEliasOmega(w, static_cast<uint64_t>(pos) + 1);
  while (pos < n) {
    int64_t next = pos + 1;
    while (next < n && level[next] == 0) ++next;
    w.PutBit(level[pos] < 0);
    PutEliasOmega(w, static_cast<uint64_t>(std::abs(level[pos])));
    PutEliasOmega(w, static_cast<uint64_t>(next - pos));
    pos = next;
  }
}

}  // namespace

void QsgdConfig::Describe(ParamVisitor& v) {
  v.Int("levels", levels, Range::Closed(1, 1 << 20), "number of quantization levels s");
  v.Int("bucket", bucket, Range::Closed(1, 1e12), "bucket size b (elements per norm)");
  v.Text("norm", norm, kNorms, "bucket norm: 2 or inf");
  v.Text("coding", coding, kCodings, "elias (the paper's code) or fixed (sign + level bits)");
}

Qsgd::Qsgd(const QsgdConfig& config)
    : levels_(config.levels),
      bucket_(config.bucket),
      norm_inf_(config.norm == "inf"),
      elias_(config.coding == "elias") {
  COMMSIM_CHECK(levels_ >= 1 && bucket_ >= 1, "bad qsgd config");
}

float Qsgd::BucketNorm(const double* x, int64_t n) const {
  return Fp32Up(Name(), norm_inf_ ? MaxAbs(x, n) : std::sqrt(SumSquares(x, n)));
}

Message Qsgd::Encode(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng) const {
  RequireFinite(Name(), x);
  const int64_t d = x.size();
  const int64_t nb = NumBlocks(d, bucket_);
  const int level_bits = CeilLog2(static_cast<uint64_t>(levels_) + 1);
  const double s = static_cast<double>(levels_);
  BitWriter w;
  w.Reserve(elias_ ? 32 * nb + 4 * d : 32 * nb + d * (1 + level_bits));
  std::vector<int64_t> level(static_cast<size_t>(std::min(bucket_, d)));
  for (int64_t b = 0; b < nb; ++b) {
    const int64_t begin = b * bucket_;
    const int64_t n = std::min(bucket_, d - begin);
    const double* v = x.data() + begin;
    const float norm = BucketNorm(v, n);
    w.PutFloat(norm);
    if (norm == 0.0f) {
      if (!elias_) w.PutZeros(n * (1 + level_bits));
      continue;
    }
    const double scale = s / static_cast<double>(norm);
    Rng local = rng;  // stays in registers (stores to level may alias the state)
    auto draw = [&](double vj) {
      const double a = std::min(std::abs(vj) * scale, s);
      const int64_t fl = static_cast<int64_t>(a);  // floor for a >= 0, without a libm call
      return fl + static_cast<int64_t>(local.Uniform() < a - static_cast<double>(fl));
    };
    if (!elias_) {
      // Fields of 1 + level_bits bits, packed into 64-bit words before writing.
      const int field = 1 + level_bits;
      const int per_word = 64 / field;
      for (int64_t j = 0; j < n; j += per_word) {
        const int m = static_cast<int>(std::min<int64_t>(per_word, n - j));
        uint64_t word = 0;
        for (int k = 0; k < m; ++k) {
          const uint64_t xi = static_cast<uint64_t>(draw(v[j + k]));
          const uint64_t negative = static_cast<uint64_t>(std::signbit(v[j + k])) & (xi != 0);
          word |= ((xi << 1) | negative) << (k * field);
        }
        w.Put(word, m * field);
      }
      rng = local;
      continue;
    }
    for (int64_t j = 0; j < n; ++j) {
      const int64_t xi = draw(v[j]);
      level[j] = v[j] < 0 ? -xi : xi;
    }
    rng = local;
    PutEliasLevels(level.data(), n, w);
  }
  return w.Finish();
}

void Qsgd::Decode(const Message& message, Eigen::Ref<Eigen::VectorXd> out) const {
  BitReader r(message);
  const int64_t d = out.size();
  const int64_t nb = NumBlocks(d, bucket_);
  const int level_bits = CeilLog2(static_cast<uint64_t>(levels_) + 1);
  for (int64_t b = 0; b < nb; ++b) {
    const int64_t begin = b * bucket_;
    const int64_t n = std::min(bucket_, d - begin);
    double* o = out.data() + begin;
    const double unit = static_cast<double>(ReadScale(r)) / static_cast<double>(levels_);
    if (!elias_) {
      // Several fields per read; the stream is the same as one field after another.
      const int field = 1 + level_bits;
      const int per_word = 64 / field;
      const uint64_t mask = (uint64_t{1} << field) - 1;
      uint64_t max_mag = 0;
      const double signed_units[2] = {unit, -unit};  // branch-free sign
      for (int64_t j = 0; j < n; j += per_word) {
        const int m = static_cast<int>(std::min<int64_t>(per_word, n - j));
        const uint64_t word = r.Get(m * field);
        for (int k = 0; k < m; ++k) {
          const uint64_t f = (word >> (k * field)) & mask;
          const uint64_t mag = f >> 1;
          max_mag = std::max(max_mag, mag);
          o[j + k] = signed_units[f & 1] * static_cast<double>(mag);
        }
      }
      if (max_mag > static_cast<uint64_t>(levels_)) {
        throw DecodeError(fmt::format("corrupted message: level {} > {}", max_mag, levels_));
      }
      continue;
    }
    std::fill(o, o + n, 0.0);
    if (unit == 0.0) continue;
    // Compared before the cast: a 64-bit code above 2^63 would become a negative position.
    const uint64_t first = GetEliasOmega(r);
    if (first > static_cast<uint64_t>(n) + 1) {
      throw DecodeError(fmt::format("corrupted message: position {}", first - 1));
    }
    int64_t pos = static_cast<int64_t>(first) - 1;
    while (pos < n) {
      const bool negative = r.GetBit();
      const uint64_t mag = GetEliasOmega(r);
      const uint64_t gap = GetEliasOmega(r);
      if (mag > static_cast<uint64_t>(levels_) || gap > static_cast<uint64_t>(n - pos)) {
        throw DecodeError(fmt::format("corrupted message: level {} gap {}", mag, gap));
      }
      o[pos] = (negative ? -unit : unit) * static_cast<double>(mag);
      pos += static_cast<int64_t>(gap);
    }
  }
  r.ExpectEnd();
}

double Qsgd::ErrorFactor(int64_t dim) const {
  const double b = static_cast<double>(std::min(bucket_, std::max<int64_t>(dim, 1)));
  const double s = static_cast<double>(levels_);
  return std::min(b / (s * s), std::sqrt(b) / s);
}

double Qsgd::EliasBound(int64_t n) const {
  const double s = static_cast<double>(levels_);
  const double b = static_cast<double>(n);
  const double nnz = s * (s + std::sqrt(b));
  return (3.0 + 1.5 * std::log2(2.0 * (s * s + b) / nnz)) * nnz + 32.0;
}

Expectation Qsgd::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  const int64_t d = x.size();
  const int64_t nb = NumBlocks(d, bucket_);
  const double s = static_cast<double>(levels_);
  const int level_bits = CeilLog2(static_cast<uint64_t>(levels_) + 1);
  Expectation e;
  for (int64_t b = 0; b < nb; ++b) {
    const int64_t begin = b * bucket_;
    const int64_t n = std::min(bucket_, d - begin);
    const double* v = x.data() + begin;
    const double norm = BucketNorm(v, n);
    e.payload_bits += elias_ ? EliasBound(n) : 32.0 + static_cast<double>(n * (1 + level_bits));
    if (norm == 0.0) continue;
    const double unit = norm / s;
    for (int64_t j = 0; j < n; ++j) {
      const double a = std::min(std::abs(v[j]) / unit, s);
      const double f = a - std::floor(a);
      e.squared_error += unit * unit * f * (1.0 - f);
      e.nonzeros += a >= 1.0 ? 1.0 : f;
    }
  }
  e.bits_formula = elias_ ? "per bucket (3 + 1.5 log2(2(s^2+b)/(s(s+sqrt b)))) s(s+sqrt b) + 32 "
                            "(paper's upper bound)"
                          : "per bucket 32 + |B|(1 + ceil(log2(s+1))) (exact)";
  return e;
}

}  // namespace commsim
