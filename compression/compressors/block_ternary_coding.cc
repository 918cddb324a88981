#include "compression/compressors/block_ternary_coding.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "base/error.h"
#include "compression/coding/arithmetic.h"
#include "compression/coding/elias.h"

namespace commsim::ternary_coding {

// entropy: after all norms, the symbols of the nonzero blocks through one adaptive model; each
// stretch of consecutive nonzero blocks in one EncodeRun (the same bits as block by block).
void PutEntropy(const int8_t* sym, int64_t d, const std::vector<float>& norms, int64_t block,
                BitWriter& w) {
  AdaptiveModel model(3);
  ArithmeticEncoder enc(w);
  for (size_t b = 0; b < norms.size();) {
    size_t e = b;
    while (e < norms.size() && norms[e] != 0.0f) ++e;
    const int64_t begin = static_cast<int64_t>(b) * block;
    const int64_t end = std::min(static_cast<int64_t>(e) * block, d);
    if (end > begin) enc.EncodeRun(model, sym + begin, end - begin, 1);
    b = e + 1;  // past the zero block that ended the stretch
  }
  enc.Finish();
}

// The decoders write block values through `o`, the block's segment of the decode target.
void GetFixed2(BitReader& r, int64_t n, double norm, const DecodeTarget& o) {
  const double value[4] = {0.0, norm, 0.0, -norm};  // branch-free lookup
  for (int64_t j = 0; j < n; j += 32) {
    const int m = static_cast<int>(std::min<int64_t>(32, n - j));
    const uint64_t word = r.Get(2 * m);
    // Code 10 (high bit set, low bit clear) is invalid.
    if ((word >> 1) & ~word & 0x5555555555555555ULL) {
      throw DecodeError("corrupted message: invalid ternary code 10");
    }
    for (int k = 0; k < m; ++k) o.Put(j + k, value[(word >> (2 * k)) & 3]);
  }
}

namespace {

// The five trits of every packed byte 0..242, first symbol first.
struct TritTable {
  uint8_t trit[243][5];
};
constexpr TritTable MakeTritTable() {
  TritTable t{};
  for (unsigned byte = 0; byte < 243; ++byte) {
    unsigned v = byte;
    for (int k = 0; k < 5; ++k, v /= 3) t.trit[byte][k] = static_cast<uint8_t>(v % 3);
  }
  return t;
}
constexpr TritTable kTrits = MakeTritTable();

}  // namespace

void GetPacked(BitReader& r, int64_t n, double norm, const DecodeTarget& o) {
  const double value[3] = {0.0, norm, -norm};  // trits 0, 1, 2
  for (int64_t j = 0; j < n; j += 5) {
    const unsigned byte = static_cast<unsigned>(r.Get(8));
    if (byte > 242) throw DecodeError(fmt::format("corrupted message: packed byte {}", byte));
    const int m = static_cast<int>(std::min<int64_t>(5, n - j));
    for (int k = 0; k < m; ++k) o.Put(j + k, value[kTrits.trit[byte][k]]);
  }
}

// REQUIRES: norm > 0 (a zero block has no sparse part). A window of the block at a time: its
// symbols (0, +1 -> 1, -1 -> 2) set from the nonzeros' fields (sign bit first, then the index:
// one field of 1 + index_bits bits), then every element put from them, in order -- no branch and
// no call per zero run. A nonzero past the window waits for the next one.
void GetSparse(BitReader& r, int64_t n, double norm, const DecodeTarget& o) {
  const int index_bits = CeilLog2(static_cast<uint64_t>(n));
  const int64_t nnz = static_cast<int64_t>(r.Get(CeilLog2(static_cast<uint64_t>(n) + 1)));
  if (nnz > n) throw DecodeError(fmt::format("corrupted message: block count {}", nnz));
  const double value[3] = {0.0, norm, -norm};
  constexpr int64_t kWindow = 4096;
  uint8_t sym[kWindow];
  int64_t read = 0;   // nonzeros read
  int64_t prev = -1;  // the index of the last one read
  uint64_t held = 0;  // its field when it lies past the window (then prev >= the window's end)
  for (int64_t begin = 0; begin < n; begin += kWindow) {
    const int64_t end = std::min(n, begin + kWindow);
    std::fill(sym, sym + (end - begin), uint8_t{0});
    if (prev >= begin && prev < end) sym[prev - begin] = static_cast<uint8_t>(1 + (held & 1));
    while (prev < end && read < nnz) {
      const uint64_t field = r.Get(1 + index_bits);
      const auto j = static_cast<int64_t>(field >> 1);
      if (j <= prev || j >= n) throw DecodeError("corrupted message: bad sparse index");
      ++read;
      prev = j;
      held = field;
      if (j < end) sym[j - begin] = static_cast<uint8_t>(1 + (field & 1));
    }
    for (int64_t k = begin; k < end; ++k) o.Put(k, value[sym[k - begin]]);
  }
}

void GetEntropy(BitReader& r, const std::vector<float>& norms, int64_t block,
                const DecodeTarget& out) {
  const int64_t d = out.size();
  AdaptiveModel model(3);
  ArithmeticDecoder dec(r);
  for (size_t b = 0; b < norms.size(); ++b) {
    const int64_t begin = static_cast<int64_t>(b) * block;
    const int64_t n = std::min(block, d - begin);
    const double norm = norms[b];
    if (norm == 0.0) {
      for (int64_t j = begin; j < begin + n; ++j) out.Put(j, 0.0);
      continue;
    }
    constexpr int64_t kChunk = 1024;
    int8_t sym[kChunk];
    for (int64_t c = begin; c < begin + n; c += kChunk) {
      const int64_t m = std::min(kChunk, begin + n - c);
      dec.DecodeRun(model, sym, m, 1);
      for (int64_t j = 0; j < m; ++j) out.Put(c + j, sym[j] * norm);
    }
  }
  dec.Finish(r.size());
}

}  // namespace commsim::ternary_coding
