#include "models/quadratic_kernels.h"

#include <bit>

#include "base/finite.h"
#include "base/target_clones.h"

namespace commsim::quadratic_kernels {
namespace {

template <class Point>
inline uint64_t GradientLoop(const Point* x, const double* c, const double* r, const double* lam,
                             double h, int64_t n, double* out) {
  uint64_t bad = 0;
  for (int64_t k = 0; k < n; ++k) {
    const double g = lam[k] * (static_cast<double>(x[k]) - c[k] - h * r[k]);
    out[k] = g;
    bad |= NonFiniteFlag(g);
  }
  return bad;
}

}  // namespace

COMMSIM_TARGET_CLONES
uint64_t Gradient(const double* x, const double* c, const double* r, const double* lam, double h,
                  int64_t n, double* out) {
  return GradientLoop(x, c, r, lam, h, n, out);
}

COMMSIM_TARGET_CLONES
uint64_t Gradient(const float* x, const double* c, const double* r, const double* lam, double h,
                  int64_t n, double* out) {
  return GradientLoop(x, c, r, lam, h, n, out);
}

COMMSIM_TARGET_CLONES
void AnchoredValues(double a, const double* factor, const int8_t* fix, int64_t n, double* out) {
  for (int64_t k = 0; k < n; ++k) {
    out[k] = std::bit_cast<double>(std::bit_cast<int64_t>(a * factor[k]) + fix[k]);
  }
}

}  // namespace commsim::quadratic_kernels
