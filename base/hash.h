// The one non-cryptographic hash of the project: 64-bit FNV-1a over bytes. Used where a stable
// value must come from text (seed derivation from a stream's purpose, sweep fingerprints, colour
// choice): the result depends only on the bytes, never on the platform, build or run.
// Not for security: collisions are easy to construct on purpose.
#ifndef COMMSIM_BASE_HASH_H_
#define COMMSIM_BASE_HASH_H_

#include <cstdint>
#include <string_view>

namespace commsim {

inline constexpr uint64_t kFnv1a64Offset = 0xcbf29ce484222325ULL;
inline constexpr uint64_t kFnv1a64Prime = 0x100000001b3ULL;

// FNV-1a of `bytes`, continuing from `h` (pass a previous result to hash a concatenation).
constexpr uint64_t Fnv1a64(std::string_view bytes, uint64_t h = kFnv1a64Offset) {
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= kFnv1a64Prime;
  }
  return h;
}

}  // namespace commsim

#endif  // COMMSIM_BASE_HASH_H_
