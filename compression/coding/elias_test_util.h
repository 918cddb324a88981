// Test helpers for the Elias-coded streams (codes_test.cc, qsgd_test.cc): the stream's bits as
// text, from the code's definition and from a Message. Header-only; tests only.
#ifndef COMMSIM_COMPRESSION_CODING_ELIAS_TEST_UTIL_H_
#define COMMSIM_COMPRESSION_CODING_ELIAS_TEST_UTIL_H_

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "compression/compressors/compressor.h"

namespace commsim::elias_test {

// The Elias-omega code of x from its definition, as the stream's bits in order: the groups
// x_k = x, x_{i-1} = (bit length of x_i) - 1, down to 1, innermost first; each group its leading
// one, then its lower bits in BitWriter's field order (least significant first); then a zero.
inline std::string OmegaStreamBits(uint64_t x) {
  std::vector<uint64_t> groups;
  for (; x > 1; x = static_cast<uint64_t>(std::bit_width(x) - 1)) groups.push_back(x);
  std::string bits;
  for (auto g = groups.rbegin(); g != groups.rend(); ++g) {
    bits += '1';
    const int below = static_cast<int>(std::bit_width(*g)) - 1;
    for (int b = 0; b < below; ++b) bits += static_cast<char>('0' + ((*g >> b) & 1));
  }
  return bits + '0';
}

// The message's payload bits in stream order.
inline std::string StreamBits(const Message& m) {
  std::string bits;
  for (int64_t i = 0; i < m.payload_bits; ++i) {
    bits += static_cast<char>('0' + ((m.words[static_cast<size_t>(i / 64)] >> (i % 64)) & 1));
  }
  return bits;
}

}  // namespace commsim::elias_test

#endif  // COMMSIM_COMPRESSION_CODING_ELIAS_TEST_UTIL_H_
