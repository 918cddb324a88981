#include "scenarios/checksum.h"

#include <zlib.h>

#include <algorithm>

namespace commsim {

uint32_t Crc32(std::string_view text) {
  uLong crc = crc32(0L, Z_NULL, 0);
  while (!text.empty()) {  // zlib takes at most a uInt of bytes at a time
    const uInt chunk = static_cast<uInt>(std::min<size_t>(text.size(), 1u << 30));
    crc = crc32(crc, reinterpret_cast<const Bytef*>(text.data()), chunk);
    text.remove_prefix(chunk);
  }
  return static_cast<uint32_t>(crc);
}

}  // namespace commsim
