// ternary_masks::PutSparse (ternary_masks.h): block_ternary's sparse coding written from the
// masks in two steps per piece of kPieceWords mask words -- the nonzeros' short codes (position
// in the piece << 1 | sign) gathered into a buffer, then whole groups of 64 / F fields (F = 1 +
// ceil(log2 n) bits each) assembled into one append -- instead of one field at a time. The
// gathering has a portable version (a loop over the set bits) and an AVX-512 one (sixteen elements
// per compress); both give the same codes, so the same bits.
#include <algorithm>
#include <bit>
#include <cstdint>

#include "base/check.h"
#include "base/target_clones.h"
#include "compression/coding/bit_append.h"
#include "compression/coding/elias.h"
#include "compression/compressors/simd_versions.h"
#include "compression/compressors/ternary_masks.h"

#ifdef COMMSIM_X86_KERNELS
#include <immintrin.h>
#endif

namespace commsim::ternary_masks {
namespace {

// A piece: 64 mask words, 4096 elements, so a short code (< 2^13) fits 16 bits.
constexpr int64_t kPieceWords = 64;
// The gatherers may write 16 codes past the last one.
constexpr int64_t kCodeRoom = 64 * kPieceWords + 16;

// The codes (element in the piece << 1 | sign) of the nonzeros of mask words [0, words), in
// element order, to codes; returns how many. REQUIRES: 0 <= words <= kPieceWords.
using GatherKernel = int64_t (*)(const uint64_t* keep, const uint64_t* neg, int64_t words,
                                 uint16_t* codes);

int64_t PortableGather(const uint64_t* keep, const uint64_t* neg, int64_t words, uint16_t* codes) {
  int64_t c = 0;
  for (int64_t i = 0; i < words; ++i) {
    const auto base = static_cast<uint32_t>(64 * i);
    for (uint64_t bits = keep[i]; bits != 0; bits &= bits - 1) {
      const int k = std::countr_zero(bits);
      codes[c++] = static_cast<uint16_t>((base + static_cast<uint32_t>(k)) << 1 |
                                         static_cast<uint32_t>((neg[i] >> k) & 1));
    }
  }
  return c;
}

#ifdef COMMSIM_X86_KERNELS
// Sixteen elements at a time: their codes in the lanes, the kept ones compressed to the front
// and stored as 16-bit values (all sixteen stores; the count moves on by the kept ones only).
COMMSIM_TARGET_AVX512 int64_t Avx512Gather(const uint64_t* keep, const uint64_t* neg, int64_t words,
                                           uint16_t* codes) {
  const __m512i iota2 =
      _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i one = _mm512_set1_epi32(1);
  int64_t c = 0;
  for (int64_t i = 0; i < words; ++i) {
    for (int h = 0; h < 4; ++h) {
      const auto kept = static_cast<__mmask16>(keep[i] >> (16 * h));
      const auto negative = static_cast<__mmask16>(neg[i] >> (16 * h));
      const __m512i code =
          _mm512_add_epi32(iota2, _mm512_set1_epi32(static_cast<int32_t>(2 * (64 * i + 16 * h))));
      const __m512i signed_code = _mm512_mask_or_epi32(code, negative, code, one);
      const __m256i packed = _mm512_cvtepi32_epi16(_mm512_maskz_compress_epi32(kept, signed_code));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(codes + c), packed);
      c += std::popcount(static_cast<unsigned>(kept));
    }
  }
  return c;
}

constexpr KernelVersions<GatherKernel> kGatherVersions = {Avx512Gather, nullptr, PortableGather};
#else
constexpr KernelVersions<GatherKernel> kGatherVersions = {nullptr, nullptr, PortableGather};
#endif

// Fields of F = `bits` bits back to back, 64 / F of them to one AppendBits (bit_append.h), into
// a local buffer that goes to the writer a piece at a time; the bits of its last, partial word
// wait in acc_ (fill_ of them).
class FieldPacker {
 public:
  FieldPacker(int bits, BitWriter& w) : bits_(bits), w_(w) {
    COMMSIM_CHECK(bits >= 1 && bits <= kMaxBits, "sparse fields of {} bits", bits);
  }

  // The fields (base << 1) + codes[j], j < c, in order. REQUIRES: base even, c <= 64 kPieceWords.
  void Add(uint64_t base, const uint16_t* codes, int64_t c) {
    if (bits_ == 9) return AddAll<9>(base, codes, c);  // blocks of 256 (the default)
    AddAll<0>(base, codes, c);
  }
  // The bits still held.
  void Finish() { w_.Put(acc_, fill_); }

 private:
  // Add with F = kBits known to the compiler (0: bits_).
  template <int kBits>
  void AddAll(uint64_t base, const uint16_t* codes, int64_t c) {
    const int bits = kBits != 0 ? kBits : bits_;
    const int per = 64 / bits;
    uint8_t* o = bytes_;
    for (int64_t j = 0; j < c; j += per) {
      const int m = static_cast<int>(std::min<int64_t>(per, c - j));
      uint64_t word = 0;
      for (int t = 0; t < m; ++t) word |= (base + codes[j + t]) << (t * bits);
      AppendBits(word, m * bits, o, acc_, fill_);
    }
    w_.PutWords(bytes_, (o - bytes_) / 8);
  }

  int bits_;
  BitWriter& w_;
  uint64_t acc_ = 0;
  int fill_ = 0;
  static constexpr int kMaxBits = 41;  // blocks below 2^40 elements (the config allows 10^12)
  alignas(8) uint8_t bytes_[(64 * kPieceWords * kMaxBits + 63) / 64 * 8 + 8];
};

COMMSIM_TARGET_CLONES
void PutSparseWithKernel(GatherKernel gather, const uint64_t* keep, const uint64_t* neg, int64_t n,
                         BitWriter& w) {
  const int64_t words = (n + 63) / 64;
  int64_t nnz = 0;
  for (int64_t i = 0; i < words; ++i) nnz += std::popcount(keep[i]);
  w.Put(static_cast<uint64_t>(nnz), CeilLog2(static_cast<uint64_t>(n) + 1));
  FieldPacker packer(1 + CeilLog2(static_cast<uint64_t>(n)), w);
  uint16_t codes[kCodeRoom];
  for (int64_t i = 0; i < words; i += kPieceWords) {
    const int64_t c = gather(keep + i, neg + i, std::min(kPieceWords, words - i), codes);
    packer.Add(static_cast<uint64_t>(i) << 7, codes, c);  // element 64 i, shifted past the sign
  }
  packer.Finish();
}

}  // namespace

void PutSparse(const uint64_t* keep, const uint64_t* neg, int64_t n, BitWriter& w) {
  static const GatherKernel gather = kGatherVersions.Widest();
  PutSparseWithKernel(gather, keep, neg, n, w);
}

bool PutSparseWith(SimdVersion version, const uint64_t* keep, const uint64_t* neg, int64_t n,
                   BitWriter& w) {
  const GatherKernel gather = kGatherVersions.For(version);
  if (gather != nullptr) PutSparseWithKernel(gather, keep, neg, n, w);
  return gather != nullptr;
}

}  // namespace commsim::ternary_masks
