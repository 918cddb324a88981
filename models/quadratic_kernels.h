// The synthetic quadratic's per-element loops (synthetic_quadratic.cc), each compiled for AVX-512,
// AVX2 and the baseline instruction set (COMMSIM_TARGET_CLONES, base/target_clones.h) and picked
// for the machine at load time. Every operation in them is exact or correctly rounded and the build
// contracts no multiply-add (-ffp-contract=off), so every clone gives the same bits; only the
// speed differs. Loops that sum in index order (the loss) are not here: they stay scalar.
#ifndef COMMSIM_MODELS_QUADRATIC_KERNELS_H_
#define COMMSIM_MODELS_QUADRATIC_KERNELS_H_

#include <cstdint>

namespace commsim::quadratic_kernels {

// out[k] = lam[k] * ((x[k] - c[k]) - h * r[k]) for k < n, x[k] widened to double first where the
// point is fp32. Returns the OR of NonFiniteFlag(out[k]) (base/finite.h: bit 63 set exactly when
// one of them is NaN or Inf). The arrays may not overlap out.
uint64_t Gradient(const double* x, const double* c, const double* r, const double* lam, double h,
                  int64_t n, double* out);
uint64_t Gradient(const float* x, const double* c, const double* r, const double* lam, double h,
                  int64_t n, double* out);

// out[k] = the double whose bits are those of (a * factor[k]) plus fix[k], as integers, for k < n
// (QuadraticCurvatures::Fill's anchored curvatures).
void AnchoredValues(double a, const double* factor, const int8_t* fix, int64_t n, double* out);

}  // namespace commsim::quadratic_kernels

#endif  // COMMSIM_MODELS_QUADRATIC_KERNELS_H_
