// BitReader: reads the fields a BitWriter wrote, with bounds checks on every read.
//
// A read that would go past Message::payload_bits throws DecodeError; the reader never touches
// memory outside Message::words. GetPadded() is the one exception to the bounds rule: it returns
// zeros past the end (arithmetic decoders read ahead of the encoder's last bit), still without
// touching memory outside the words.
#ifndef COMMSIM_COMPRESSION_CODING_BIT_READER_H_
#define COMMSIM_COMPRESSION_CODING_BIT_READER_H_

#include <bit>
#include <cstdint>
#include <string>

#include "base/error.h"
#include "compression/message.h"

namespace commsim {

class BitReader {
 public:
  // Throws DecodeError when message.words holds fewer than payload_bits bits.
  explicit BitReader(const Message& message);

  int64_t position() const { return pos_; }
  int64_t size() const { return size_; }
  int64_t remaining() const { return size_ - pos_; }

  // Reads an n-bit field. REQUIRES: 0 <= n <= 64. Throws DecodeError past the end.
  uint64_t Get(int n) {
    if (n > remaining()) ThrowTruncated(n);
    const uint64_t v = Peek(n);
    pos_ += n;
    return v;
  }
  bool GetBit() { return Get(1) != 0; }
  float GetFloat() { return std::bit_cast<float>(static_cast<uint32_t>(Get(32))); }
  double GetDouble() { return std::bit_cast<double>(Get(64)); }
  // Like Get but reads zeros past the end (and may move position() past size()).
  uint64_t GetPadded(int n);
  // Number of zero bits before the next one bit, at most `limit` (the one bit is not consumed).
  // Throws DecodeError when the stream ends before a one bit within the limit.
  int64_t CountZeros(int64_t limit);
  void Skip(int64_t n) {
    if (n > remaining()) ThrowTruncated(n);
    pos_ += n;
  }
  // The next 64 bits without consuming them. REQUIRES: remaining() >= 64.
  uint64_t PeekWindow() const { return Peek(64); }
  // Moves to an absolute bit position. Throws DecodeError past the end.
  void Seek(int64_t bit) {
    if (bit < 0 || bit > size_) ThrowTruncated(bit - pos_);
    pos_ = bit;
  }
  // Throws DecodeError unless every bit has been read.
  void ExpectEnd() const;

 private:
  // REQUIRES: pos_ + n <= size_ (so the words read exist).
  uint64_t Peek(int n) const {
    if (n == 0) return 0;
    const int64_t w = pos_ >> 6;
    const int off = static_cast<int>(pos_ & 63);
    uint64_t v = words_[w] >> off;
    if (off + n > 64) v |= words_[w + 1] << (64 - off);
    return n == 64 ? v : v & ((uint64_t{1} << n) - 1);
  }
  [[noreturn]] void ThrowTruncated(int64_t n) const;

  const uint64_t* words_;
  int64_t size_;
  int64_t pos_ = 0;
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_CODING_BIT_READER_H_
