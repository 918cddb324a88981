// COMMSIM_TARGET_CLONES: compile a hot loop for AVX-512 (x86-64-v4), AVX2 (x86-64-v3: with BMI2
// and LZCNT, so shifts by a count, leading/trailing-zero counts and 128-bit products are one
// instruction each) and the baseline, the clone picked at load time for the machine (gcc
// target_clones). Only for code whose results do
// not depend on the instruction set: integer arithmetic, or floating-point operations that are
// each exact or correctly rounded, element by element (no sum whose order vectorising would change;
// the whole build is compiled with -ffp-contract=off: no fused multiply-add in one clone and not in
// another). Other compilers (clang in the sanitizer build)
// get the baseline only; the results are the same.
#ifndef COMMSIM_BASE_TARGET_CLONES_H_
#define COMMSIM_BASE_TARGET_CLONES_H_

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define COMMSIM_TARGET_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define COMMSIM_TARGET_CLONES
#endif

#endif  // COMMSIM_BASE_TARGET_CLONES_H_
