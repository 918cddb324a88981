#include "compression/compressors/wire.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "base/error.h"
#include "compression/compressors/counter_kernels.h"

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
  // The next float up from f >= +0 is the next bit pattern (std::nextafter's value, without its
  // call: this runs once per block of every block-scaled encoder).
  if (static_cast<double>(f) < v) f = std::bit_cast<float>(std::bit_cast<uint32_t>(f) + 1);
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
  PrefetchBlockAfterNext(x.data(), x.size(), v - x.data(), n);
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

void PrefetchBlockAfterNext(const double* x, int64_t d, int64_t begin, int64_t n) {
  const int64_t first = begin + 2 * n;
  const int64_t end = std::min(first + n, d);
  for (int64_t i = first; i < end; i += 8) __builtin_prefetch(x + i, /*rw=*/0, /*locality=*/3);
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

double SumAbs(const double* x, int64_t n) { return counter_kernels::SumAbs4(x, n); }
double SumSquares(const double* x, int64_t n) { return counter_kernels::SumSquares4(x, n); }

double MaxAbsChecked(const double* x, int64_t n, bool* finite) {
  const uint64_t bits = counter_kernels::MaxAbsBits(x, n);
  *finite = bits < 0x7FF0000000000000ULL;  // below the pattern of +Inf
  return std::bit_cast<double>(bits);
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
