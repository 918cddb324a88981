#include "algorithms/compressors/wire.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "sim/error.h"

namespace commsim {

void RequireFinite(std::string_view compressor, const Eigen::Ref<const Eigen::VectorXd>& x) {
  const double* p = x.data();
  const Eigen::Index n = x.size();
  // Cheap vectorisable test first: a value is non-finite when its exponent bits are all ones.
  uint64_t bad = 0;
  for (Eigen::Index i = 0; i < n; ++i) bad |= NonFiniteFlag(p[i]);
  if ((bad >> 63) == 0) return;
  for (Eigen::Index i = 0; i < n; ++i) {
    if (!std::isfinite(p[i])) {
      throw NonFiniteError(
          fmt::format("{}: input has a non-finite value ({}) at index {}", compressor, p[i], i));
    }
  }
}

float Fp32Up(std::string_view compressor, double v) {
  float f = Fp32Nearest(compressor, v);
  if (static_cast<double>(f) < v) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  if (!std::isfinite(f)) {
    throw NonFiniteError(fmt::format("{}: a scale of {} exceeds the fp32 range", compressor, v));
  }
  return f;
}

float CheckedFp32Up(std::string_view compressor, double raw, bool finite,
                    const Eigen::Ref<const Eigen::VectorXd>& x) {
  // Fp32Up throws only above the largest float; every such case checks the input first.
  if (!finite || !(raw <= static_cast<double>(std::numeric_limits<float>::max()))) [[unlikely]] {
    RequireFinite(compressor, x);
  }
  return Fp32Up(compressor, raw);
}

float CheckedBlockNorm(std::string_view compressor, bool inf_norm, const double* v, int64_t n,
                       const Eigen::Ref<const Eigen::VectorXd>& x) {
  bool finite = true;
  double raw = 0.0;
  if (inf_norm) {
    raw = MaxAbsChecked(v, n, &finite);
  } else {
    raw = SumSquares(v, n);
    finite = std::isfinite(raw);  // NaN and Inf propagate into the sum (so may a finite overflow)
    raw = std::sqrt(raw);
  }
  return CheckedFp32Up(compressor, raw, finite, x);
}

void ThrowOutsideFp32(std::string_view compressor, double v) {
  throw NonFiniteError(fmt::format("{}: value {} exceeds the fp32 range", compressor, v));
}

float ReadScale(BitReader& r) {
  const float f = r.GetFloat();
  if (!(f >= 0.0f) || !std::isfinite(f)) {
    throw DecodeError(
        fmt::format("corrupted message: invalid scale {} before bit {}", f, r.position()));
  }
  return f;
}

namespace {

template <class Op>
double Reduce4(const double* x, int64_t n, Op op) {
  double a[4] = {0.0, 0.0, 0.0, 0.0};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    for (int k = 0; k < 4; ++k) a[k] = op(a[k], x[i + k]);
  }
  for (; i < n; ++i) a[0] = op(a[0], x[i]);
  return op.Combine(op.Combine(a[0], a[1]), op.Combine(a[2], a[3]));
}

struct AbsSum {
  double operator()(double acc, double v) const { return acc + std::abs(v); }
  double Combine(double a, double b) const { return a + b; }
};
struct SquareSum {
  double operator()(double acc, double v) const { return acc + v * v; }
  double Combine(double a, double b) const { return a + b; }
};
struct AbsMax {
  double operator()(double acc, double v) const { return std::max(acc, std::abs(v)); }
  double Combine(double a, double b) const { return std::max(a, b); }
};

}  // namespace

double SumAbs(const double* x, int64_t n) { return Reduce4(x, n, AbsSum{}); }
double SumSquares(const double* x, int64_t n) { return Reduce4(x, n, SquareSum{}); }
double MaxAbs(const double* x, int64_t n) { return Reduce4(x, n, AbsMax{}); }

double MaxAbsChecked(const double* x, int64_t n, bool* finite) {
  uint64_t bad = 0;
  for (int64_t i = 0; i < n; ++i) bad |= NonFiniteFlag(x[i]);
  *finite = (bad >> 63) == 0;
  return MaxAbs(x, n);
}

int64_t ResolveK(int64_t k, double fraction, int64_t d) {
  if (k > 0) return std::min(k, d);
  return std::clamp<int64_t>(std::llround(fraction * static_cast<double>(d)), 1, d);
}

double EntropyBits(const double* counts, int size) {
  double n = 0.0;
  for (int i = 0; i < size; ++i) n += counts[i];
  double bits = 0.0;
  for (int i = 0; i < size; ++i) {
    if (counts[i] > 0.0) bits += counts[i] * std::log2(n / counts[i]);
  }
  return bits;
}

}  // namespace commsim
