#include "compression/coding/bit_reader.h"

#include <fmt/format.h>

#include <algorithm>

namespace commsim {

BitReader::BitReader(const Message& message)
    : words_(message.words.data()), size_(message.payload_bits) {
  if (message.payload_bits < 0 ||
      static_cast<uint64_t>(message.payload_bits) > 64 * uint64_t{message.words.size()}) {
    throw DecodeError(fmt::format("corrupted message: {} payload bits but only {} words",
                                  message.payload_bits, message.words.size()));
  }
}

uint64_t BitReader::GetPadded(int n) {
  uint64_t v = 0;
  if (pos_ < size_) {
    const int avail = static_cast<int>(std::min<int64_t>(n, size_ - pos_));
    v = Peek(avail);
  }
  pos_ += n;
  return v;
}

int64_t BitReader::CountZeros(int64_t limit) {
  int64_t zeros = 0;
  while (true) {
    const int chunk = static_cast<int>(std::min<int64_t>(64, remaining()));
    if (chunk == 0) break;
    const uint64_t v = Peek(chunk);
    if (v != 0) {
      zeros += std::countr_zero(v);
      pos_ += std::countr_zero(v);
      if (zeros > limit) break;
      return zeros;
    }
    zeros += chunk;
    pos_ += chunk;
    if (zeros > limit) break;
  }
  if (zeros > limit) {
    throw DecodeError(
        fmt::format("corrupted message: run of more than {} zero bits before bit {}", limit, pos_));
  }
  throw DecodeError(
      fmt::format("truncated message: stream ended inside a unary code at bit {}", pos_));
}

void BitReader::ExpectEnd() const {
  if (pos_ != size_) {
    throw DecodeError(
        fmt::format("corrupted message: decoding ended at bit {} of {}", pos_, size_));
  }
}

void BitReader::ThrowTruncated(int64_t n) const {
  throw DecodeError(
      fmt::format("truncated message: need {} bits at bit {}, only {} left", n, pos_, remaining()));
}

}  // namespace commsim
