// block_ternary's packed and sparse messages against plain reference encoders written out here
// (one element at a time, the draws taken straight from the Rng or the CounterRng), and the mask
// kernel's and the sparse writer's versions against per-element loops.
#include "compression/compressors/ternary_masks.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "base/counter_rng.h"
#include "compression/coding/elias.h"
#include "compression/compressors/block_ternary.h"
#include "compression/compressors/compressor_test_util.h"

namespace commsim {
namespace {

using compressor_test::Gaussian;
using compressor_test::NormUp;

// The message written out: per block the fp32 norm, then the symbols drawn one by one
// (stream: rng.NextU64() >> 11 against |x| 2^53 / norm; counter: the CounterRng keyed by one
// NextU64 draw of element j against |x| 2^32 / norm) and coded as block_ternary.h describes.
Message ReferenceEncode(const Eigen::VectorXd& x, bool p_inf, int64_t b, bool packed, bool counter,
                        Rng& rng) {
  BitWriter w;
  std::optional<CounterRng> gen;
  if (counter) gen.emplace(rng.NextU64());
  for (int64_t begin = 0; begin < x.size(); begin += b) {
    const int64_t n = std::min<int64_t>(b, x.size() - begin);
    const Eigen::VectorXd xb = x.segment(begin, n);
    const float norm = NormUp(xb, p_inf);
    w.PutFloat(norm);
    std::vector<int> sym(static_cast<size_t>(n), 0);
    for (int64_t j = 0; j < n && norm > 0.0f; ++j) {
      const double one = counter ? 0x1p32 : 0x1p53;
      const double draw = counter ? static_cast<double>(gen->Draw(static_cast<uint64_t>(begin + j)))
                                  : static_cast<double>(rng.NextU64() >> 11);
      if (draw < std::abs(xb[j]) * (one / norm)) sym[static_cast<size_t>(j)] = xb[j] < 0 ? -1 : 1;
    }
    if (packed) {
      for (int64_t g = 0; 5 * g < n; ++g) {
        uint64_t byte = 0, power = 1;
        for (int64_t j = 5 * g; j < std::min<int64_t>(n, 5 * g + 5); ++j, power *= 3) {
          const int s = sym[static_cast<size_t>(j)];
          byte += power * static_cast<uint64_t>(s == 0 ? 0 : (s == 1 ? 1 : 2));
        }
        w.Put(byte, 8);
      }
    } else if (norm > 0.0f) {
      int64_t nnz = 0;
      for (int s : sym) nnz += s != 0;
      w.Put(static_cast<uint64_t>(nnz), CeilLog2(static_cast<uint64_t>(n) + 1));
      for (int64_t j = 0; j < n; ++j) {
        if (sym[static_cast<size_t>(j)] == 0) continue;
        w.Put(sym[static_cast<size_t>(j)] < 0 ? 1 : 0, 1);
        w.Put(static_cast<uint64_t>(j), CeilLog2(static_cast<uint64_t>(n)));
      }
    }
  }
  return w.Finish();
}

// Sizes around the 256-element chunk, a long message (draws in lanes from 2^18 elements on), and
// all-zero stretches (whole blocks among them).
std::vector<Eigen::VectorXd> Inputs() {
  std::vector<Eigen::VectorXd> inputs;
  for (int64_t d : {0, 1, 255, 256, 257, 100000, 300000}) {
    Eigen::VectorXd x = Gaussian(d, static_cast<uint64_t>(d) + 7);
    if (d >= 100000) {
      x.segment(256 * 7, 256).setZero();
      x.segment(5000, 3000).setZero();
    }
    inputs.push_back(x);
  }
  return inputs;
}

TEST(TernaryMasksTest, PackedAndSparseMessagesEqualTheReferenceEncoder) {
  for (const Eigen::VectorXd& x : Inputs()) {
    for (int64_t b : {256, 100, 1000}) {
      for (const char* p : {"inf", "2"}) {
        for (const char* coding : {"packed", "sparse"}) {
          for (const char* rng_kind : {"stream", "counter"}) {
            BlockTernaryConfig config;
            config.p = p;
            config.block = b;
            config.coding = coding;
            config.rng = rng_kind;
            Rng rng(11), ref_rng(11);
            const Message m = BlockTernary(config).Encode(x, rng);
            const Message ref =
                ReferenceEncode(x, std::string(p) == "inf", b, std::string(coding) == "packed",
                                std::string(rng_kind) == "counter", ref_rng);
            const std::string what =
                fmt::format("d {} b {} p {} {} {}", x.size(), b, p, coding, rng_kind);
            EXPECT_EQ(m.payload_bits, ref.payload_bits) << what;
            EXPECT_EQ(m.words, ref.words) << what;
            EXPECT_EQ(rng.NextU64(), ref_rng.NextU64()) << what;
          }
        }
      }
    }
  }
}

// Every version of the kernel against the comparison written per element, on draws at and next
// to the threshold (equal never keeps) and uint32 draws above 2^31; lengths 0 to 256.
TEST(TernaryMasksTest, EveryKernelVersionGivesThePerElementMasks) {
  Rng rng(3);
  std::vector<double> x(256), u64(256);
  std::vector<uint32_t> u32(256);
  const double scale = 0x1p32 / 3.0;
  for (int k = 0; k < 256; ++k) {
    x[k] = (k % 7 == 0) ? 0.0 : (k % 11 == 0 ? -0.0 : 3.0 * (rng.Uniform() * 2.0 - 1.0));
    const double limit = std::abs(x[k]) * scale;
    const double near = k % 3 == 0 ? std::floor(limit) : (k % 3 == 1 ? std::ceil(limit) : limit);
    u32[k] = static_cast<uint32_t>(std::min(near, 0x1p32 - 1));
    u64[k] = k % 5 == 0 ? limit : std::floor(rng.Uniform() * 0x1p32);
  }
  for (int64_t n : {0, 1, 3, 4, 63, 64, 65, 100, 255, 256}) {
    for (bool counter : {false, true}) {
      std::vector<uint64_t> keep(4, 0), neg(4, 0);
      for (int64_t k = 0; k < n; ++k) {
        const double draw = counter ? static_cast<double>(u32[k]) : u64[k];
        const bool kept = draw < std::abs(x[k]) * scale;
        keep[k / 64] |= static_cast<uint64_t>(kept) << (k % 64);
        neg[k / 64] |= static_cast<uint64_t>(kept && x[k] < 0) << (k % 64);
      }
      for (auto version : {SimdVersion::kPortable, SimdVersion::kAvx2, SimdVersion::kAvx512}) {
        std::vector<uint64_t> k_out(4, 0), n_out(4, 0);
        const counter_kernels::ChunkDraws u = counter ? counter_kernels::ChunkDraws(u32.data())
                                                      : counter_kernels::ChunkDraws(u64.data());
        if (!ternary_masks::DrawMasksWith(version, x.data(), u, n, scale, k_out.data(),
                                          n_out.data())) {
          continue;  // not on this machine
        }
        EXPECT_EQ(k_out, keep) << n << " " << counter << " " << static_cast<int>(version);
        EXPECT_EQ(n_out, neg) << n << " " << counter << " " << static_cast<int>(version);
      }
    }
  }
}

// Every version of the sparse writer against the coding written per element (the count, then
// sign and index of each nonzero), after 3 pending bits: fields of 1 to 18 bits (9: the default
// block of 256), blocks around the writer's 4096-element pieces, densities from none to all, the
// masks zero past n.
TEST(TernaryMasksTest, EverySparseWriterVersionWritesTheCountThenSignAndIndexPerNonzero) {
  Rng rng(5);
  for (int64_t n : {1, 2, 3, 63, 64, 65, 255, 256, 257, 4095, 4096, 4097, 9000, 70000}) {
    for (int density : {0, 1, 30, 97, 100}) {  // percent
      std::vector<uint64_t> keep(static_cast<size_t>(ternary_masks::MaskWords(n)), 0);
      std::vector<uint64_t> neg(keep.size(), 0);
      BitWriter ref;
      ref.Put(5, 3);
      std::vector<int64_t> kept;
      for (int64_t j = 0; j < n; ++j) {
        if (rng.Uniform() * 100 >= density) continue;
        kept.push_back(j);
        keep[static_cast<size_t>(j / 64)] |= uint64_t{1} << (j % 64);
        if (rng.Uniform() < 0.5) neg[static_cast<size_t>(j / 64)] |= uint64_t{1} << (j % 64);
      }
      ref.Put(kept.size(), CeilLog2(static_cast<uint64_t>(n) + 1));
      for (int64_t j : kept) {
        ref.Put((neg[static_cast<size_t>(j / 64)] >> (j % 64)) & 1, 1);
        ref.Put(static_cast<uint64_t>(j), CeilLog2(static_cast<uint64_t>(n)));
      }
      const Message expected = ref.Finish();
      for (auto version : {SimdVersion::kPortable, SimdVersion::kAvx2, SimdVersion::kAvx512}) {
        BitWriter w;
        w.Put(5, 3);
        if (!ternary_masks::PutSparseWith(version, keep.data(), neg.data(), n, w)) continue;
        const Message m = w.Finish();
        const std::string what =
            fmt::format("n {} density {}% version {}", n, density, static_cast<int>(version));
        EXPECT_EQ(m.payload_bits, expected.payload_bits) << what;
        EXPECT_EQ(m.words, expected.words) << what;
      }
    }
  }
}

}  // namespace
}  // namespace commsim
