// The "counter" draws' chunks (base/counter_rng.h: CounterRng::FillChunk, the same bits) with the
// Philox4x32-10 state kept in registers through the ten rounds: each 32-bit word sits in a 64-bit
// vector lane, so one unsigned 32 x 32 -> 64 multiply instruction (vpmuludq) gives a product's
// high and low halves; the upper halves of the other words carry junk that no step reads (the
// multiplies read low halves, the result keeps low halves). Versions (simd_versions.h) with AVX2
// and AVX-512 intrinsics and a portable loop; all give CounterRng's bits.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_PHILOX_LANES_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_PHILOX_LANES_H_

#include <cstdint>

#include "base/counter_rng.h"
#include "compression/compressors/simd_versions.h"

namespace commsim::philox_lanes {

// out[k] = CounterRng(key).Draw(CounterRng::kChunk * chunk + k) for k < CounterRng::kChunk.
using ChunkFn = void (*)(uint64_t key, uint64_t chunk, uint32_t* out);
const KernelVersions<ChunkFn>& Chunk();

// CounterRng(key).Fill(first, n, out) through the widest Chunk version; out[n, kChunk) may be
// overwritten. REQUIRES: 0 <= n <= CounterRng::kChunk; out holds CounterRng::kChunk words.
void FillWindow(uint64_t key, uint64_t first, int64_t n, uint32_t* out);

}  // namespace commsim::philox_lanes

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_PHILOX_LANES_H_
