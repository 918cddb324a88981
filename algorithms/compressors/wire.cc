#include "algorithms/compressors/wire.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/error.h"

namespace commsim {

void RequireFinite(std::string_view compressor, const Eigen::Ref<const Eigen::VectorXd>& x) {
  const double* p = x.data();
  const Eigen::Index n = x.size();
  // Cheap test first: the sum is finite when every element is (and not too large).
  double sum = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) sum += p[i] * 0.0;
  if (sum == 0.0) return;
  for (Eigen::Index i = 0; i < n; ++i) {
    if (!std::isfinite(p[i])) {
      throw UserError(fmt::format("{}: input has a non-finite value ({}) at index {}", compressor,
                                  p[i], i));
    }
  }
}

float Fp32Up(std::string_view compressor, double v) {
  float f = Fp32Nearest(compressor, v);
  if (static_cast<double>(f) < v) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  if (!std::isfinite(f)) {
    throw UserError(fmt::format("{}: a scale of {} exceeds the fp32 range", compressor, v));
  }
  return f;
}

float Fp32Nearest(std::string_view compressor, double v) {
  const float f = static_cast<float>(v);
  if (!std::isfinite(f)) {
    throw UserError(fmt::format("{}: value {} exceeds the fp32 range", compressor, v));
  }
  return f;
}

float ReadScale(BitReader& r) {
  const float f = r.GetFloat();
  if (!(f >= 0.0f) || !std::isfinite(f)) {
    throw DecodeError(fmt::format("corrupted message: invalid scale {} before bit {}", f,
                                  r.position()));
  }
  return f;
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
