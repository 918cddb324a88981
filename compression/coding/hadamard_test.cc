#include "compression/coding/hadamard.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "base/rng.h"
#include "compression/coding/sylvester_test_util.h"

namespace commsim {
namespace hadamard_transform_test {

// n standard normal draws from Rng(seed).
std::vector<double> Normals(int64_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) x = rng.Normal();
  return v;
}

double Norm(const std::vector<double>& v) {
  double s = 0.0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

TEST(HadamardTransformTest, EqualsTheDenseSylvesterProductForEveryPowerOfTwoUpTo64) {
  for (int64_t n = 1; n <= 64; n *= 2) {
    const std::vector<int> h = test_hadamard::Sylvester(n);
    const std::vector<double> x = Normals(n, 100 + static_cast<uint64_t>(n));
    std::vector<double> got = x;
    NormalizedFwht(got.data(), n);
    for (int64_t i = 0; i < n; ++i) {
      double dense = 0.0;
      for (int64_t j = 0; j < n; ++j) dense += h[static_cast<size_t>(i * n + j)] * x[j];
      dense /= std::sqrt(static_cast<double>(n));
      EXPECT_NEAR(got[i], dense, 1e-14 * Norm(x)) << "n = " << n << ", row " << i;
    }
  }
}

// (1, 2, 3, 4) times H_4 / 2 by hand: rows (1 1 1 1), (1 -1 1 -1), (1 1 -1 -1), (1 -1 -1 1)
// give (10, -2, -4, 0) / 2; 1/sqrt(4) is exact, so are the sums.
TEST(HadamardTransformTest, HandComputedFourElements) {
  std::vector<double> v = {1.0, 2.0, 3.0, 4.0};
  NormalizedFwht(v.data(), 4);
  EXPECT_EQ(v, (std::vector<double>{5.0, -1.0, -2.0, 0.0}));
  NormalizedFwht(v.data(), 4);
  EXPECT_EQ(v, (std::vector<double>{1.0, 2.0, 3.0, 4.0}));
  std::vector<double> two = {3.0, 1.0};  // (3 + 1, 3 - 1) / sqrt 2
  NormalizedFwht(two.data(), 2);
  EXPECT_DOUBLE_EQ(two[0], 4.0 / std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(two[1], 2.0 / std::sqrt(2.0));
}

TEST(HadamardTransformTest, KeepsTheNormAndIsItsOwnInverseUpTo2To20) {
  for (int k = 0; k <= 20; ++k) {
    const int64_t n = int64_t{1} << k;
    const std::vector<double> x = Normals(n, 200 + static_cast<uint64_t>(k));
    std::vector<double> y = x;
    NormalizedFwht(y.data(), n);
    const double norm = Norm(x);
    EXPECT_NEAR(Norm(y), norm, 1e-12 * norm) << "n = 2^" << k;
    NormalizedFwht(y.data(), n);
    double diff = 0.0;
    for (int64_t j = 0; j < n; ++j) diff += (y[j] - x[j]) * (y[j] - x[j]);
    EXPECT_LE(std::sqrt(diff), 1e-12 * norm) << "n = 2^" << k;
  }
}

// A constant vector goes to (sqrt(n) c, 0, ..., 0). With c = 1e306 and n = 1024 the unscaled sum
// 1024 c would overflow; the normalised result 32 c does not (the scaling comes first).
TEST(HadamardTransformTest, ConstantVectorAndNoOverflowBelowTheNorm) {
  const int64_t n = 1024;
  std::vector<double> v(n, 1e306);
  NormalizedFwht(v.data(), n);
  EXPECT_EQ(v[0], 32.0 * 1e306);
  for (int64_t j = 1; j < n; ++j) ASSERT_EQ(v[j], 0.0) << j;
}

TEST(HadamardTransformTest, PaddedPowerOfTwo) {
  EXPECT_EQ(PaddedPowerOfTwo(0), 1);
  EXPECT_EQ(PaddedPowerOfTwo(1), 1);
  EXPECT_EQ(PaddedPowerOfTwo(2), 2);
  EXPECT_EQ(PaddedPowerOfTwo(3), 4);
  EXPECT_EQ(PaddedPowerOfTwo(5), 8);
  EXPECT_EQ(PaddedPowerOfTwo(1024), 1024);
  EXPECT_EQ(PaddedPowerOfTwo(1025), 2048);
  EXPECT_EQ(PaddedPowerOfTwo((int64_t{1} << 40) - 1), int64_t{1} << 40);
  EXPECT_TRUE(IsPowerOfTwo(1));
  EXPECT_TRUE(IsPowerOfTwo(64));
  EXPECT_FALSE(IsPowerOfTwo(0));
  EXPECT_FALSE(IsPowerOfTwo(12));
}

// Element 64w + b is flipped exactly when bit b of the w-th NextU64 of Rng(seed) is set.
TEST(HadamardTransformTest, RademacherSignsAreTheSeedsBits) {
  const int64_t n = 200;  // four words, the last one partly used
  std::vector<double> v(n, 1.0);
  ApplyRademacherSigns(42, v.data(), n);
  Rng rng(42);
  uint64_t word = 0;
  for (int64_t j = 0; j < n; ++j) {
    if (j % 64 == 0) word = rng.NextU64();
    EXPECT_EQ(v[j], ((word >> (j % 64)) & 1) != 0 ? -1.0 : 1.0) << j;
  }
  // A second application undoes the first, bit for bit (a zero comes back as +0).
  std::vector<double> x = Normals(n, 5);
  x[7] = 0.0;
  std::vector<double> y = x;
  ApplyRademacherSigns(9, y.data(), n);
  ApplyRademacherSigns(9, y.data(), n);
  for (int64_t j = 0; j < n; ++j) {
    EXPECT_EQ(std::bit_cast<uint64_t>(y[j]), std::bit_cast<uint64_t>(x[j])) << j;
  }
}

// Balanced signs: over 2^16 of them the sum has standard deviation 256; allow 5 of those. Two
// seeds give different sign vectors.
TEST(HadamardTransformTest, RademacherSignsAreBalancedAndDependOnTheSeed) {
  const int64_t n = int64_t{1} << 16;
  std::vector<double> a(n, 1.0), b(n, 1.0);
  ApplyRademacherSigns(1, a.data(), n);
  ApplyRademacherSigns(2, b.data(), n);
  double sum = 0.0;
  int64_t agree = 0;
  for (int64_t j = 0; j < n; ++j) {
    sum += a[j];
    agree += a[j] == b[j];
  }
  EXPECT_LT(std::abs(sum), 5 * 256.0);
  EXPECT_LT(std::abs(static_cast<double>(agree) - n / 2.0), 5 * 128.0);
}

}  // namespace hadamard_transform_test
}  // namespace commsim
