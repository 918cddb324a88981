// AppendBits: a bitstream built in a local byte buffer by the hand-vectorised coders (the qsgd
// elias coder, the ternary sparse writer), in BitWriter's order (the first bit lowest, words
// little-endian), branch-free so that field lengths that vary do not cost mispredictions. The
// caller hands the buffer's whole words to BitWriter::PutWords and the pending bits to Put.
#ifndef COMMSIM_COMPRESSION_CODING_BIT_APPEND_H_
#define COMMSIM_COMPRESSION_CODING_BIT_APPEND_H_

#include <cstdint>
#include <cstring>

namespace commsim {

// Appends the n bits of `field` to the f pending bits of acc, which belong at byte o: the word
// is stored at o each time, and o moves on by 8 bytes when it is full (the bits past it then
// pending in acc). REQUIRES: 0 <= n <= 64, field < 2^n, 0 <= f < 64, 8 bytes of room at o.
inline void AppendBits(uint64_t field, int n, uint8_t*& o, uint64_t& acc, int& f) {
  acc |= field << f;
  std::memcpy(o, &acc, sizeof(acc));
  const int total = f + n;
  const uint64_t high = (field >> 1) >> (63 - f);  // the bits past the word (0 without a spill)
  const auto spill = static_cast<uint64_t>(total >> 6);  // 0 or 1, in arithmetic: no branch
  o += spill << 3;
  acc = high | (acc & (spill - 1));
  f = total & 63;
}

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_CODING_BIT_APPEND_H_
