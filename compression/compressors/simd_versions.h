// The instruction-set versions of the hand-vectorised kernels (ternary_masks.h,
// magnitude_masks.h): each kernel has a portable version and, on x86-64 with gcc or clang, AVX2
// and AVX-512 versions written with intrinsics; every version gives the same bits. A kernel picks
// the widest version the machine runs, once; tests run each version the machine runs.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_SIMD_VERSIONS_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_SIMD_VERSIONS_H_

#if defined(__GNUC__) && defined(__x86_64__)
#define COMMSIM_X86_KERNELS 1
// The instruction sets of the AVX-512 versions (x86-64-v4's) and of the AVX2 versions.
#define COMMSIM_TARGET_AVX512 __attribute__((target("avx512f,avx512vl,avx512dq,avx512bw")))
#define COMMSIM_TARGET_AVX2 __attribute__((target("avx2")))
#endif

#include <initializer_list>

namespace commsim {

enum class SimdVersion { kPortable, kAvx2, kAvx512 };

// True when this build has the version and the machine runs it (always for kPortable).
bool MachineRuns(SimdVersion version);

// One kernel's versions (function pointers), null where this build has none.
template <class Fn>
struct KernelVersions {
  Fn avx512;
  Fn avx2;
  Fn portable;
  // The version `v`, or null when this build has none or the machine does not run it.
  Fn For(SimdVersion v) const {
    if (!MachineRuns(v)) return nullptr;
    return v == SimdVersion::kAvx512 ? avx512 : (v == SimdVersion::kAvx2 ? avx2 : portable);
  }
  // The widest version the machine runs.
  Fn Widest() const {
    for (SimdVersion v : {SimdVersion::kAvx512, SimdVersion::kAvx2}) {
      if (Fn f = For(v)) return f;
    }
    return portable;
  }
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_SIMD_VERSIONS_H_
