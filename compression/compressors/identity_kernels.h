// identity's hot sum loop (the server adding the workers' uplinks, identity.cc), compiled for
// AVX-512, AVX2 and the baseline instruction set (COMMSIM_TARGET_CLONES, base/target_clones.h) and
// picked for the machine at load time. Element by element, each operation correctly rounded (the
// build contracts no multiply-add), so every clone gives the same bits.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_IDENTITY_KERNELS_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_IDENTITY_KERNELS_H_

#include <cstdint>

namespace commsim::identity_kernels {

// o[k] += weight * v_k for k < n, v_k the k-th value on the wire at `bytes`: fp32
// (AddWeighted32: 4 bytes each, little-endian, widened to double) or fp64 (AddWeighted64: 8
// bytes each). Returns the OR of NonFiniteFlag(v_k) (base/finite.h: bit 63 set exactly when one
// of them is NaN or Inf). `bytes` need not be aligned; o must not overlap it.
uint64_t AddWeighted32(const unsigned char* bytes, int64_t n, double weight, double* o);
uint64_t AddWeighted64(const unsigned char* bytes, int64_t n, double weight, double* o);

}  // namespace commsim::identity_kernels

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_IDENTITY_KERNELS_H_
