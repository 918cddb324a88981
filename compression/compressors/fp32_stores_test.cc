// PutFp32 / PutFp32Decoded against the fp32 conversion written out element by element, with
// ordinary and with streaming stores, at every alignment of the output and around the vector
// loop's edges; the flag against std::isfinite of each float.
#include "compression/compressors/fp32_stores.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <vector>

namespace commsim {
namespace {

// n values with signs, zeros, subnormals and roundings of every kind.
std::vector<double> Values(int64_t n) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    v[static_cast<size_t>(i)] =
        std::ldexp(static_cast<double>((i * 2654435761LL) % 1000003) - 500001.0,
                   static_cast<int>(i % 200) - 140) /
        3.0;
  }
  if (n > 3) v[3] = -0.0;
  if (n > 5) v[5] = 1e-310;
  return v;
}

struct Out {
  std::vector<unsigned char> bytes;
  std::vector<double> decoded;
  uint32_t flag;
};

// Writes at byte offset `shift` of a 16-byte-aligned buffer and decoded offset `dshift` doubles.
Out Convert(const std::vector<double>& x, bool stream, bool with_decoded, int shift, int dshift) {
  const auto n = static_cast<int64_t>(x.size());
  std::vector<uint64_t> words(static_cast<size_t>(n) + 8, 0xAAAAAAAAAAAAAAAAULL);
  std::vector<double> decoded(static_cast<size_t>(n) + 4, 7.0);
  auto* bytes = reinterpret_cast<unsigned char*>(words.data()) + shift;
  const uint32_t flag = with_decoded
                            ? PutFp32Decoded(x.data(), n, bytes, decoded.data() + dshift, stream)
                            : PutFp32(x.data(), n, bytes, stream);
  Out out{std::vector<unsigned char>(bytes, bytes + 4 * n), {}, flag};
  if (with_decoded) out.decoded.assign(decoded.begin() + dshift, decoded.begin() + dshift + n);
  return out;
}

TEST(Fp32StoresTest, BytesDecodedAndFlagAreTheScalarConversion) {
  for (const int64_t n : {0, 1, 3, 4, 5, 8, 13, 37, 1000}) {
    const std::vector<double> x = Values(n);
    std::vector<unsigned char> want(static_cast<size_t>(4 * n));
    for (int64_t i = 0; i < n; ++i) {
      const uint32_t bits = std::bit_cast<uint32_t>(static_cast<float>(x[i]));
      std::memcpy(want.data() + 4 * i, &bits, 4);
    }
    for (const bool stream : {false, true}) {
      for (const int shift : {0, 4, 8, 12}) {
        for (const int dshift : {0, 1}) {
          const Out got = Convert(x, stream, true, shift, dshift);
          EXPECT_EQ(got.bytes, want) << n << " " << stream << " " << shift;
          for (int64_t i = 0; i < n; ++i) {
            const double expected = static_cast<double>(static_cast<float>(x[i]));
            EXPECT_EQ(std::bit_cast<uint64_t>(got.decoded[i]), std::bit_cast<uint64_t>(expected))
                << i;
          }
          EXPECT_EQ(got.flag >> 31, 0U);
          EXPECT_EQ(Convert(x, stream, false, shift, 0).bytes, want);
        }
      }
    }
  }
}

// A NaN, an infinity or a value beyond fp32 anywhere (scalar head, vector body, scalar tail) sets
// bit 31; the other values are still written.
TEST(Fp32StoresTest, FlagsEveryValueNotFiniteInFp32) {
  for (const double bad :
       {std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::infinity(), 1e39}) {
    for (const int64_t at : {0, 2, 9, 20}) {
      std::vector<double> x = Values(23);
      x[static_cast<size_t>(at)] = bad;
      for (const bool stream : {false, true}) {
        for (const int shift : {0, 4}) {
          const Out got = Convert(x, stream, at % 2 == 0, shift, 0);
          EXPECT_EQ(got.flag >> 31, 1U) << bad << " at " << at << " stream " << stream;
          uint32_t bits;
          std::memcpy(&bits, got.bytes.data() + 4 * ((at + 1) % 23), 4);
          EXPECT_EQ(bits, std::bit_cast<uint32_t>(static_cast<float>(x[(at + 1) % 23])));
        }
      }
    }
  }
}

TEST(Fp32StoresTest, StreamsOnlyFarBeyondTheCaches) {
  EXPECT_FALSE(StreamStores(1 << 20));
  EXPECT_TRUE(StreamStores(int64_t{8} << 20));
}

// Each streaming version the machine runs (SSE2, AVX2, AVX-512: 4, 8 and 16 values a turn, the
// output aligned to 16, 32 and 64 bytes), at every 4-byte offset of a 64-byte line and lengths
// around each width, with and without decoded values (aligned and not): the bytes, the decoded
// values and the flag of the scalar conversion, and nothing written outside the n values.
TEST(Fp32StoresTest, EveryStreamingVersionWritesTheScalarConversion) {
  int versions_run = 0;
  for (const SimdVersion version :
       {SimdVersion::kPortable, SimdVersion::kAvx2, SimdVersion::kAvx512}) {
    for (const int64_t n : {0, 1, 15, 16, 17, 31, 33, 47, 64, 100}) {
      std::vector<double> x = Values(n);
      if (n > 20) x[20] = 1e39;  // beyond fp32: the flag
      for (int shift = 0; shift < 64; shift += 4) {
        for (const int dshift : {-1, 0, 1}) {  // -1: no decoded values
          alignas(64) unsigned char bytes[4 * 100 + 128];
          alignas(64) double decoded[100 + 16];
          std::memset(bytes, 0xAA, sizeof bytes);
          std::fill(std::begin(decoded), std::end(decoded), 7.0);
          uint32_t flag = 0;
          double* d = dshift < 0 ? nullptr : decoded + dshift;
          if (!PutFp32With(version, x.data(), n, bytes + shift, d, &flag)) continue;
          ++versions_run;
          for (int64_t i = 0; i < n; ++i) {
            const float f = static_cast<float>(x[i]);
            uint32_t got;
            std::memcpy(&got, bytes + shift + 4 * i, 4);
            ASSERT_EQ(got, std::bit_cast<uint32_t>(f)) << n << " " << shift << " " << i;
            if (d != nullptr) {
              ASSERT_EQ(std::bit_cast<uint64_t>(d[i]),
                        std::bit_cast<uint64_t>(static_cast<double>(f)));
            }
          }
          for (int b = 0; b < shift; ++b) ASSERT_EQ(bytes[b], 0xAA) << "before, shift " << shift;
          ASSERT_EQ(bytes[shift + 4 * n], 0xAA) << "after, n " << n;
          if (d != nullptr) {
            ASSERT_EQ(d[n], 7.0);
            if (dshift > 0) {
              ASSERT_EQ(decoded[0], 7.0);
            }
          }
          EXPECT_EQ(flag >> 31, n > 20 ? 1U : 0U) << n;
        }
      }
    }
  }
#if defined(__x86_64__)
  EXPECT_GT(versions_run, 0) << "SSE2 streaming is the x86-64 baseline";
#endif
}

}  // namespace
}  // namespace commsim
