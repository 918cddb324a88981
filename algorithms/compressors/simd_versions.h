// The instruction-set versions of the hand-vectorised kernels (ternary_masks.h,
// magnitude_masks.h): each kernel has a portable version and, on x86-64 with gcc or clang, AVX2
// and AVX-512 versions written with intrinsics; every version gives the same bits. A kernel picks
// the widest version the machine runs, once; tests run each version the machine runs.
#ifndef COMMSIM_ALGORITHMS_COMPRESSORS_SIMD_VERSIONS_H_
#define COMMSIM_ALGORITHMS_COMPRESSORS_SIMD_VERSIONS_H_

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

// The widest version `f` gives a kernel for on this machine: f(version) returns the version's
// kernel or null (not built), tried from the widest down; the portable one last.
template <class F>
auto WidestKernel(F&& f) {
  for (SimdVersion v : {SimdVersion::kAvx512, SimdVersion::kAvx2, SimdVersion::kPortable}) {
    if (MachineRuns(v)) {
      if (auto kernel = f(v)) return kernel;
    }
  }
  return f(SimdVersion::kPortable);
}

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COMPRESSORS_SIMD_VERSIONS_H_
