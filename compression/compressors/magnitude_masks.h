// top_k's candidate test (top_k_select.h) for 64 elements at a time, in versions for several
// instruction sets (simd_versions.h) that give the same bits: comparisons and bit tests only.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_MAGNITUDE_MASKS_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_MAGNITUDE_MASKS_H_

#include <cstdint>

#include "compression/compressors/simd_versions.h"

namespace commsim {

// Bit k of the result: |p[k]| >= guess, for k in [0, 64) (a NaN never is); *flags gets bits OR-ed
// in whose bit 63 ends up set exactly when some p[k] is NaN or Inf (base/finite.h's
// NonFiniteFlag; the other bits are unspecified).
uint64_t AtLeastMask64(const double* p, double guess, uint64_t* flags);

// AtLeastMask64 in one given version, for tests: false, with nothing written, when the machine
// does not run it.
bool AtLeastMask64With(SimdVersion version, const double* p, double guess, uint64_t* flags,
                       uint64_t* hits);

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_MAGNITUDE_MASKS_H_
