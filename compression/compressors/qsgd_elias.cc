#include "compression/compressors/qsgd_elias.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "compression/coding/elias.h"

namespace commsim {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the coder's bytes are BitWriter's words only on a little-endian machine");

// The common case: a nonzero whose gap to the previous nonzero is g (1 <= g < 16) and whose
// signed level is ms (1 <= level < 16, so 2 <= ms < 32) is coded as omega(g), the sign bit,
// omega(level): at most 15 bits. entry[ms << 4 | g] = code | bits << 16 (BitWriter order: the
// first bit lowest).
struct PairTable {
  uint32_t entry[qsgd_kernels::kLevelCodes + 32] = {};
};

PairTable MakePairTable() {
  PairTable t;
  for (uint32_t gap = 1; gap < 16; ++gap) {
    for (uint32_t ms = 2; ms < 32; ++ms) {
      const int gap_bits = SmallEliasOmegaBits(gap);
      const uint64_t code = SmallEliasOmegaCode(gap) | uint64_t{ms & 1} << gap_bits |
                            SmallEliasOmegaCode(ms >> 1) << (gap_bits + 1);
      const int bits = gap_bits + 1 + SmallEliasOmegaBits(ms >> 1);
      t.entry[ms << 4 | gap] = static_cast<uint32_t>(code | static_cast<uint64_t>(bits) << 16);
    }
  }
  for (uint32_t gap = 1; gap < 16; ++gap) {
    t.entry[qsgd_kernels::kGapCodes + gap] = static_cast<uint32_t>(
        SmallEliasOmegaCode(gap) | static_cast<uint64_t>(SmallEliasOmegaBits(gap)) << 16);
  }
  for (uint32_t ms = 2; ms < 32; ++ms) {
    const uint64_t code = uint64_t{ms & 1} | SmallEliasOmegaCode(ms >> 1) << 1;
    const auto bits = static_cast<uint64_t>(1 + SmallEliasOmegaBits(ms >> 1));
    t.entry[qsgd_kernels::kLevelCodes + ms] = static_cast<uint32_t>(code | bits << 16);
  }
  return t;
}

const uint32_t* Pairs() {
  static const PairTable table = MakePairTable();
  return table.entry;
}

// The byte buffer of one chunk's table entries (at most 15 bits each), and the last store's 8
// bytes.
constexpr int64_t kBufferBytes = QsgdEliasWriter::kChunk * 15 / 8 + 16;

// Appends the buffer's bytes [0, bytes) and then the low `fill` bits of `bits` to w.
void MoveBytes(const uint8_t* buf, int64_t bytes, uint64_t bits, int fill, BitWriter& w) {
  const int64_t i = bytes / 8 * 8;
  w.PutWords(buf, bytes / 8);
  uint64_t rest = 0;
  std::memcpy(&rest, buf + i, static_cast<size_t>(bytes - i));
  w.Put(rest, static_cast<int>(8 * (bytes - i)));
  w.Put(bits, fill);
}

}  // namespace

QsgdEliasWriter::QsgdEliasWriter(BitWriter& w) : w_(w), pairs_(Pairs()) {}

void QsgdEliasWriter::PutGeneral(uint64_t gap, uint32_t ms) {
  PutEliasOmega(w_, gap);
  w_.Put(ms & 1, 1);
  PutEliasOmega(w_, ms >> 1);
}

void QsgdEliasWriter::PutChunk(int64_t first, const uint32_t* ms, int64_t m) {
  alignas(8) uint8_t buf[kBufferBytes];
  qsgd_kernels::PairCoder coder{pairs_, buf, 0, 0};
  int64_t prev = prev_ - first;  // the previous nonzero, relative to the chunk
  if (qsgd_kernels::TableChunkAvx512(ms, m, &prev, &coder)) {  // the common case, where it runs
    MoveBytes(buf, coder.out - buf, coder.bits, coder.fill, w_);
    prev_ = prev + first;
    return;
  }
  uint64_t masks[kChunk / 64];
  const uint32_t levels = qsgd_kernels::NonzeroMasks(ms, m, masks);
  for (int64_t from = 0;;) {
    const int64_t p = qsgd_kernels::CodePairs(ms, masks, m, from, levels, &prev, &coder);
    MoveBytes(buf, coder.out - buf, coder.bits, coder.fill, w_);
    coder = {pairs_, buf, 0, 0};
    if (p == m) break;
    PutGeneral(static_cast<uint64_t>(p - prev), ms[p]);
    prev = p;
    from = p + 1;
  }
  prev_ = prev + first;
}

void MakeShortPairTable(uint64_t max_level, uint32_t* entry) {
  std::fill(entry, entry + kShortPairEntries, uint32_t{0});
  for (uint32_t sign = 0; sign < 2;
       ++sign) {  // one code: length | (level | sign << 4) << 4 | gap << 9
    for (uint32_t level = 1; level < 16 && level <= max_level; ++level) {
      for (uint32_t gap = 1; gap < 16; ++gap) {
        const int level_bits = SmallEliasOmegaBits(level);
        const int bits = 1 + level_bits + SmallEliasOmegaBits(gap);
        if (bits > kShortPairBits) continue;
        const uint64_t code =
            sign | SmallEliasOmegaCode(level) << 1 | SmallEliasOmegaCode(gap) << (1 + level_bits);
        const uint32_t e = static_cast<uint32_t>(bits) | (level | sign << 4) << 4 | gap << 9;
        for (uint64_t high = 0; high < (uint64_t{1} << (kShortPairBits - bits)); ++high) {
          entry[code | high << bits] = e;
        }
      }
    }
  }
  // A second code whose bits are all among the rest (a code is known from its own bits, so the
  // entry of the rest with zeros above tells it).
  for (int64_t i = 0; i < kShortPairEntries; ++i) {
    const uint32_t first = entry[i] & 0x1FFF;
    const int length = static_cast<int>(first & 15);
    if (first == 0) continue;
    const uint32_t second = entry[static_cast<uint64_t>(i) >> length] & 0x1FFF;
    const int total = length + static_cast<int>(second & 15);
    if (second == 0 || total > kShortPairBits) continue;
    entry[i] = first | static_cast<uint32_t>(total) << 13 | (second >> 4) << 17;
  }
}

void QsgdEliasWriter::End(int64_t n) { PutEliasOmega(w_, static_cast<uint64_t>(n - prev_)); }

}  // namespace commsim
