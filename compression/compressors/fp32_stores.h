// Doubles to the fp32 wire format (identity's), optionally with non-temporal stores.
//
// A message far larger than the caches (a worker's uplink, the model broadcast at ResNet-18 size)
// is written once and read much later, after it has left the caches anyway; ordinary stores first
// read every line they write into the cache (a read pass nobody needs). Non-temporal ("streaming")
// stores write whole lines straight to memory. The bytes written are the same either way; only
// the traffic differs. Small vectors take ordinary stores, so their reader finds them in cache.
// Streaming is used where the target is suitably aligned (the runs before and after take ordinary
// stores) and on x86-64, in the widest of SSE2 (the baseline), AVX2 and AVX-512 the machine runs
// (simd_versions.h; every version writes the same bytes); elsewhere ordinary stores throughout.
// Each call ends with a store fence, so another thread that later synchronises with this one (a
// thread pool's join) sees the bytes.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_FP32_STORES_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_FP32_STORES_H_

#include <cstdint>

#include "compression/compressors/simd_versions.h"

namespace commsim {

// Whether a vector written with `bytes` bytes should take streaming stores (far beyond the
// caches: at least 8 MiB).
inline bool StreamStores(int64_t bytes) { return bytes >= (int64_t{8} << 20); }

// bytes[4i, 4i + 4) = the bits of static_cast<float>(p[i]) (little-endian, as identity's wire
// format holds them) for i < n. Bit 31 of the result is set exactly when one of them is not finite
// in fp32 (as in the OR of their NonFiniteFlag32, base/finite.h; its other bits mean nothing).
// `stream`: streaming stores where aligned.
// REQUIRES: bytes is 4-byte aligned.
uint32_t PutFp32(const double* p, int64_t n, unsigned char* bytes, bool stream);
// PutFp32, also writing decoded[i] = static_cast<double>(static_cast<float>(p[i])) (the value the
// receiver decodes) in the same pass. REQUIRES: decoded is 8-byte aligned.
uint32_t PutFp32Decoded(const double* p, int64_t n, unsigned char* bytes, double* decoded,
                        bool stream);

// For tests: PutFp32 (decoded null) or PutFp32Decoded with streaming stores in the given version,
// the result in *flag; false, with nothing written, when this build or machine has no streaming
// version `version`.
bool PutFp32With(SimdVersion version, const double* p, int64_t n, unsigned char* bytes,
                 double* decoded, uint32_t* flag);

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_FP32_STORES_H_
