// BitWriter: appends bit fields to a buffer of 64-bit words (the wire format of every Message).
//
// Bits are packed least-significant first: the first bit written is bit 0 of word 0. A field of n
// bits written with Put(value, n) is read back by BitReader::Get(n) as the same integer. Bits past
// the last written bit are zero. Writing is branch-light and amortised O(1) per call (one word
// buffered in a register, the vector grows geometrically); Reserve() avoids regrowth when the size
// is known.
#ifndef COMMSIM_COMPRESSION_CODING_BIT_WRITER_H_
#define COMMSIM_COMPRESSION_CODING_BIT_WRITER_H_

#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "base/check.h"
#include "compression/message.h"

namespace commsim {

class BitWriter {
 public:
  BitWriter() = default;
  BitWriter(const BitWriter&) = delete;
  BitWriter& operator=(const BitWriter&) = delete;

  void Reserve(int64_t bits) { words_.reserve(static_cast<size_t>((bits + 63) / 64)); }

  // Appends the low n bits of value. REQUIRES: 0 <= n <= 64 and value < 2^n.
  // (n = 0 needs no special case: value is 0 and fill_ stays below 64.)
  void Put(uint64_t value, int n) {
    acc_ |= value << fill_;
    const int total = fill_ + n;
    if (total >= 64) {
      words_.push_back(acc_);
      acc_ = fill_ == 0 ? 0 : value >> (64 - fill_);
      fill_ = total - 64;
    } else {
      fill_ = total;
    }
  }
  // Put(word, 64) for each of the `count` words at src (8 little-endian bytes each), in one
  // resize of the buffer. REQUIRES: count >= 0; a little-endian machine.
  void PutWords(const uint8_t* src, int64_t count) {
    const size_t at = words_.size();
    words_.resize(at + static_cast<size_t>(count), boost::container::default_init);
    uint64_t* dst = words_.data() + at;
    for (int64_t i = 0; i < count; ++i) {
      uint64_t word;
      std::memcpy(&word, src + 8 * i, sizeof(word));
      dst[i] = acc_ | word << fill_;
      acc_ = fill_ == 0 ? 0 : word >> (64 - fill_);
    }
  }
  void PutBit(bool bit) { Put(bit ? 1 : 0, 1); }
  // n zero bits, any n >= 0.
  void PutZeros(int64_t n) {
    for (; n >= 64; n -= 64) Put(0, 64);
    Put(0, static_cast<int>(n));
  }
  // The IEEE-754 binary32 pattern of f (32 bits).
  void PutFloat(float f) { Put(std::bit_cast<uint32_t>(f), 32); }
  void PutDouble(double f) { Put(std::bit_cast<uint64_t>(f), 64); }

  int64_t bits() const { return static_cast<int64_t>(words_.size()) * 64 + fill_; }

  // Moves the bitstream out as a Message; the writer is empty afterwards.
  Message Finish() {
    Message m;
    m.payload_bits = bits();
    if (fill_ > 0) words_.push_back(acc_);
    m.words = std::move(words_);
    words_.clear();
    acc_ = 0;
    fill_ = 0;
    return m;
  }

 private:
  MessageWords words_;
  uint64_t acc_ = 0;  // pending bits [0, fill_)
  int fill_ = 0;      // 0..63
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_CODING_BIT_WRITER_H_
