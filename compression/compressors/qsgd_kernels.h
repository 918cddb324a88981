// The integer inner loops of qsgd's elias coder (qsgd_elias.h) on one chunk of at most kChunk
// signed levels ms[k] = level << 1 | sign (counter_kernels::QsgdSignedLevels). Compiled for
// several instruction sets (COMMSIM_TARGET_CLONES, base/target_clones.h), and CodePairs has an
// AVX-512 loop used where the CPU has AVX-512 (checked at run time); integer operations only, so
// every version gives the same results.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_QSGD_KERNELS_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_QSGD_KERNELS_H_

#include <cstdint>

namespace commsim::qsgd_kernels {

inline constexpr int64_t kChunk = 256;

// The nonzero levels as bit masks: bit k of masks[w] is [ms[64 w + k] > 1] for 64 w + k < m, and
// 0 above m. Returns the OR of ms[0..m) (below 32 when every level is below 16).
// REQUIRES: 0 <= m <= kChunk (masks holds (m + 63) / 64 words).
uint32_t NonzeroMasks(const uint32_t* ms, int64_t m, uint64_t* masks);

// Table coding of a chunk's nonzeros: entry[ms << 4 | g] = code | bits << 16 (at most 15 bits,
// BitWriter order: first bit lowest) for a nonzero with gap g to the previous nonzero and signed
// level ms; `bits` holds `fill` pending bits (fill < 8 between calls), whose whole bytes go to
// `out` (little-endian, 8-byte stores: out must have 8 bytes of room past the last byte written).
// The table continues with the codes of the parts: entry[kGapCodes + g] = omega(g) | bits << 16
// for 1 <= g < 16, entry[kLevelCodes + ms] = (sign | omega(level) << 1) | bits << 16 for
// 2 <= ms < 32 (kLevelCodes + 32 entries in all).
inline constexpr int kGapCodes = 32 << 4;
inline constexpr int kLevelCodes = kGapCodes + 16;
struct PairCoder {
  const uint32_t* entry;
  uint8_t* out;
  uint64_t bits;
  int fill;
};

// Codes the nonzeros of masks (NonzeroMasks of ms, which returned `levels`) at elements
// [from, m) in order, *prev the previous nonzero's element (negative before the chunk; updated),
// while gap < 16 and ms < 32; returns the first nonzero outside the table (not coded, *prev not
// moved to it), or m. REQUIRES: 0 <= from <= m <= kChunk, *prev < from.
int64_t CodePairs(const uint32_t* ms, const uint64_t* masks, int64_t m, int64_t from,
                  uint32_t levels, int64_t* prev, PairCoder* coder);

// CodePairs(from = 0) of a whole chunk by the AVX-512 loop, with no NonzeroMasks first: returns
// false, *prev and *coder unchanged (bytes from coder->out on may be overwritten), when a nonzero
// is outside the table (gap >= 16 or ms >= 32) or the AVX-512 loop is not in use.
// REQUIRES: 0 < m <= kChunk, *prev < 0.
bool TableChunkAvx512(const uint32_t* ms, int64_t m, int64_t* prev, PairCoder* coder);

// Whether CodePairs may use its AVX-512 loop where the CPU has it (default true; the scalar loop
// gives the same bits). For tests. Not thread-safe.
void EnableAvx512Coder(bool enabled);

// Whether this build has the AVX-512 loop (gcc on x86-64) and the CPU can run it. For tests.
bool HasAvx512Coder();

}  // namespace commsim::qsgd_kernels

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_QSGD_KERNELS_H_
