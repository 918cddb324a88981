// QsgdEliasWriter: qsgd's elias coding (qsgd.h) of one bucket, written chunk by chunk as the
// levels are drawn.
//
// The bucket's code -- omega(first nonzero position + 1), then per nonzero its sign bit,
// omega(level) and omega(gap to the next nonzero position, or to n) -- is the same bit string as:
// per nonzero at position p, with p' the position of the nonzero before it (-1 for the first),
// omega(p - p'), the sign bit, omega(level); then omega(n - p_last) (omega(n + 1) without a
// nonzero). The writer emits it in this order, so each chunk's nonzeros are coded as soon as
// their levels are known.
//
// How: a chunk's nonzeros are visited through bit masks (qsgd_kernels.h); when gap < 16 and
// level < 16 (nearly every nonzero for s = 15) the nonzero's bits are one table entry of at most
// 15 bits, added to a 64-bit register whose whole bytes go to a byte buffer by one unaligned
// store (on AVX-512, 16 elements at a time), and the buffer to the BitWriter as 64-bit words.
// Other nonzeros take PutEliasOmega (elias.h) on the BitWriter.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_QSGD_ELIAS_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_QSGD_ELIAS_H_

#include <cstdint>

#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/compressors/qsgd_kernels.h"

namespace commsim {

class QsgdEliasWriter {
 public:
  static constexpr int64_t kChunk = qsgd_kernels::kChunk;

  explicit QsgdEliasWriter(BitWriter& w);
  QsgdEliasWriter(const QsgdEliasWriter&) = delete;
  QsgdEliasWriter& operator=(const QsgdEliasWriter&) = delete;

  // Starts a bucket (after the previous one's End).
  void Begin() { prev_ = -1; }
  // The bucket's elements [first, first + m), right after the previous chunk's: ms[k] =
  // level << 1 | sign, sign 1 for a negative value of nonzero level, else 0.
  // REQUIRES: 0 < m <= kChunk, level < 2^31, first + m < 2^31 (the bucket's positions).
  void PutChunk(int64_t first, const uint32_t* ms, int64_t m);
  // Ends the bucket, of n elements.
  void End(int64_t n);

 private:
  // omega(gap), the sign bit, omega(level) on the BitWriter.
  void PutGeneral(uint64_t gap, uint32_t ms);

  BitWriter& w_;
  const uint32_t* pairs_;  // the table of the common case (qsgd_elias.cc)
  int64_t prev_ = -1;      // the position of the last nonzero written, -1 before the first
};

// The decoder's table of short nonzeros: a nonzero's bits in the writer's order -- the sign bit,
// omega(level), omega(gap to the next nonzero) -- when they take at most kShortPairBits bits
// (level and gap below 16) and level <= max_level. entry[the stream's next kShortPairBits bits]
// is 0 unless the stream starts with such a code; else its length | (level | sign << 4) << 4 |
// gap << 9, and when a second such code follows within the kShortPairBits bits, also the length
// of both << 13 | (its level | sign << 4) << 17 | its gap << 22 (else those bits are 0).
inline constexpr int kShortPairBits = 12;
inline constexpr int64_t kShortPairEntries = int64_t{1} << kShortPairBits;
void MakeShortPairTable(uint64_t max_level, uint32_t* entry);

// Reads the nonzeros of a bucket of n elements, the first at element pos, while each is in
// `table` (MakeShortPairTable), lies in the stream's next 64 bits and has gap <= n - pos: for
// each, put(pos, values[level | sign << 4], gap, true) and pos += gap. Where an entry holds a
// second nonzero, put(pos, its value, its gap, taken) whether it is taken or not (not taken:
// put must have no effect, and pos may be n), so that a plain decode needs no branch on it.
// Returns the new pos: n or above once the bucket's last nonzero is read (the bits after it are
// left unread), else the position of a nonzero left unread for the general decoder
// (GetEliasOmega), which also rejects what is invalid.
template <class Put>
int64_t GetShortPairs(BitReader& r, const uint32_t* table, const double* values, int64_t pos,
                      int64_t n, Put&& put) {
  constexpr uint64_t kMask = kShortPairEntries - 1;
  while (pos < n && r.remaining() >= 64) {
    const uint64_t window = r.PeekWindow();
    int used = 0;
    bool general = false;
    do {  // while a whole short code lies in the window
      const uint32_t e = table[(window >> used) & kMask];
      const auto gap = static_cast<int64_t>((e >> 9) & 15);
      if (e == 0 || gap > n - pos) {
        general = true;
        break;
      }
      put(pos, values[(e >> 4) & 31], gap, true);
      pos += gap;
      const auto gap2 = static_cast<int64_t>(e >> 22);  // 0 without a second code
      const bool second = (gap2 != 0) & (gap2 <= n - pos);
      put(pos, values[(e >> 17) & 31], gap2, second);
      pos += second ? gap2 : 0;
      used += static_cast<int>(second ? (e >> 13) & 15 : e & 15);
    } while (used <= 64 - kShortPairBits && pos < n);
    r.Skip(used);
    if (general) break;
  }
  return pos;
}

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_QSGD_ELIAS_H_
