#include "compression/compressors/simd_versions.h"

namespace commsim {

bool MachineRuns(SimdVersion version) {
  switch (version) {
    case SimdVersion::kPortable:
      return true;
#ifdef COMMSIM_X86_KERNELS
    case SimdVersion::kAvx2:
      __builtin_cpu_init();
      return __builtin_cpu_supports("avx2");
    case SimdVersion::kAvx512:
      __builtin_cpu_init();
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
#endif
    default:
      return false;
  }
}

}  // namespace commsim
