// The checksum of commsim's own files that it reads back (sweep point files, traces): zlib's
// crc32 (the CRC-32 of ISO 3309 / ITU-T V.42, as gzip and PNG use) of the bytes given.
#ifndef COMMSIM_SCENARIOS_CHECKSUM_H_
#define COMMSIM_SCENARIOS_CHECKSUM_H_

#include <cstdint>
#include <string_view>

namespace commsim {

// The crc32 of `text` (0 for no bytes). Any length.
uint32_t Crc32(std::string_view text);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_CHECKSUM_H_
