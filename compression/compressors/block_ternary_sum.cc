#include "compression/compressors/block_ternary_sum.h"

#include <algorithm>
#include <array>
#include <vector>

#include "base/error.h"
#include "compression/compressors/block_ternary_coding.h"
#include "compression/compressors/wire.h"

#ifdef COMMSIM_X86_KERNELS
#include <immintrin.h>
#endif

namespace commsim::ternary_sum {
namespace {

using Fixed2Kernel = void (*)(BitReader& r, int64_t n, const double* table, double* out);

// The next field of m fixed2 codes; code 10 (high bit set, low bit clear) is invalid.
inline uint64_t Fixed2Field(BitReader& r, int m) {
  const uint64_t word = r.Get(2 * m);
  if ((word >> 1) & ~word & 0x5555555555555555ULL) {
    throw DecodeError("corrupted message: invalid ternary code 10");
  }
  return word;
}

void AddFixed2Portable(BitReader& r, int64_t n, const double* table, double* out) {
  for (int64_t j = 0; j < n; j += 32) {
    const int m = static_cast<int>(std::min<int64_t>(32, n - j));
    const uint64_t word = Fixed2Field(r, m);
    double* o = out + j;
    for (int k = 0; k < m; ++k) o[k] = o[k] + table[(word >> (2 * k)) & 3];
  }
}

#ifdef COMMSIM_X86_KERNELS
// AVX-512: the field broadcast to eight lanes, lane k shifted right by 2k (then by 16 more per
// group of eight codes), picks its value with one permute (its low three bits index a table of
// the four values twice over, so the next code's bit does not matter); the short last group
// through masked loads and stores. One correctly rounded addition per element, as above.
COMMSIM_TARGET_AVX512 void AddFixed2Avx512(BitReader& r, int64_t n, const double* table,
                                           double* out) {
  const __m512d values = _mm512_setr_pd(table[0], table[1], table[2], table[3], table[0], table[1],
                                        table[2], table[3]);
  const __m512i shifts = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
  for (int64_t j = 0; j < n; j += 32) {
    const int m = static_cast<int>(std::min<int64_t>(32, n - j));
    __m512i codes =
        _mm512_srlv_epi64(_mm512_set1_epi64(static_cast<long long>(Fixed2Field(r, m))), shifts);
    double* o = out + j;
    if (m == 32) {
      for (int g = 0; g < 32; g += 8, codes = _mm512_srli_epi64(codes, 16)) {
        const __m512d v = _mm512_permutexvar_pd(codes, values);
        _mm512_storeu_pd(o + g, _mm512_add_pd(_mm512_loadu_pd(o + g), v));
      }
      continue;
    }
    for (int g = 0; g < m; g += 8, codes = _mm512_srli_epi64(codes, 16)) {
      const auto lanes = static_cast<__mmask8>(m - g >= 8 ? 0xFF : (1u << (m - g)) - 1);
      const __m512d v = _mm512_permutexvar_pd(codes, values);
      _mm512_mask_storeu_pd(o + g, lanes, _mm512_add_pd(_mm512_maskz_loadu_pd(lanes, o + g), v));
    }
  }
}

constexpr KernelVersions<Fixed2Kernel> kFixed2Versions = {AddFixed2Avx512, nullptr,
                                                          AddFixed2Portable};
#else
constexpr KernelVersions<Fixed2Kernel> kFixed2Versions = {nullptr, nullptr, AddFixed2Portable};
#endif

// Adds one block of one message (its norm, then its n codes) to out[0, n).
void AddBlock(BitReader& r, BlockTernary::Coding coding, int64_t n, double weight, double* out) {
  static const Fixed2Kernel fixed2 = kFixed2Versions.Widest();
  const float norm_f = ReadScale(r);
  const double norm = norm_f;
  if (coding == BlockTernary::Coding::kFixed2) {
    // weight * v for v = 0, norm, 0, -norm: the products DecodeTarget::Put computes.
    const double table[4] = {weight * 0.0, weight * norm, weight * 0.0, weight * -norm};
    fixed2(r, n, table, out);
    return;
  }
  const Eigen::Map<Eigen::VectorXd> segment(out, n);
  const DecodeTarget target(segment, segment, weight);
  if (coding == BlockTernary::Coding::kPacked) {
    ternary_coding::GetPacked(r, n, norm, target);
  } else if (norm_f != 0.0f) {
    ternary_coding::GetSparse(r, n, norm, target);
  } else {
    target.PutZeros(0, n);  // a zero block sends only its norm
  }
}

// One reader per message, all at the same block.
class Readers {
 public:
  Readers(std::span<const Message* const> messages, Layout layout, int64_t d)
      : layout_(layout), d_(d) {
    readers_.reserve(messages.size());
    for (const Message* m : messages) readers_.emplace_back(*m);  // checks the words
  }
  // Every message's values of the blocks of [begin, end) added to out[0, end - begin), message
  // after message within each block. REQUIRES: begin and end on block boundaries (or end = d).
  void AddBlocks(int64_t begin, int64_t end, double weight, double* out) {
    for (int64_t b = begin; b < end; b += layout_.block) {
      const int64_t n = std::min(layout_.block, d_ - b);
      for (BitReader& r : readers_) AddBlock(r, layout_.coding, n, weight, out + (b - begin));
    }
  }
  void ExpectEnd() const {
    for (const BitReader& r : readers_) r.ExpectEnd();
  }

 private:
  Layout layout_;
  int64_t d_;
  std::vector<BitReader> readers_;
};

// Elements per chunk of SumFromZero's own buffer (16 KiB: it and the messages' codes of the chunk
// stay in the L1 cache).
constexpr int64_t kChunk = 2048;

}  // namespace

void AddInto(std::span<const Message* const> messages, Layout layout, double weight, double* out,
             int64_t d) {
  Readers readers(messages, layout, d);
  readers.AddBlocks(0, d, weight, out);
  readers.ExpectEnd();
}

void SumFromZero(std::span<const Message* const> messages, Layout layout,
                 Eigen::Ref<Eigen::VectorXd> scratch, const Compressor::SumChunkDone& done) {
  const int64_t d = scratch.size();
  Readers readers(messages, layout, d);
  const int64_t per = std::max<int64_t>(1, kChunk / layout.block) * layout.block;
  std::array<double, kChunk> own;
  for (int64_t c = 0; c < d; c += per) {
    const int64_t end = std::min(d, c + per);
    double* sum = per <= kChunk ? own.data() : scratch.data() + c;
    std::fill(sum, sum + (end - c), 0.0);
    readers.AddBlocks(c, end, 1.0, sum);
    if (end == d) readers.ExpectEnd();
    done(c, end, sum);
  }
  if (d == 0) readers.ExpectEnd();
}

bool AddFixed2With(SimdVersion version, BitReader& r, int64_t n, const double table[4],
                   double* out) {
  const Fixed2Kernel kernel = kFixed2Versions.For(version);
  if (kernel == nullptr) return false;
  kernel(r, n, table, out);
  return true;
}

}  // namespace commsim::ternary_sum
