// The synthetic quadratic's cloned kernels (quadratic_kernels.h), as the machine runs them (the
// widest clone it has), against their expressions written out here element by element: the same
// bits for random values (a fused multiply-add in a clone would differ from the unfused
// expression in the last bit for many of them), every length around the vector widths, unaligned
// starts, nothing written past n, and the non-finite flag set exactly when a value is NaN or Inf.
#include "models/quadratic_kernels.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "base/rng.h"

namespace commsim {
namespace {

constexpr int64_t kLengths[] = {0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 255, 256, 257, 1000};

struct Inputs {
  std::vector<double> x, c, r, lam;
  std::vector<float> x32;
};

Inputs RandomInputs(int64_t n, uint64_t seed) {
  Rng rng(seed);
  Inputs in;
  for (int64_t k = 0; k < n; ++k) {
    in.x.push_back(rng.Normal() * 3.0);
    in.x32.push_back(static_cast<float>(rng.Normal() * 3.0));
    in.c.push_back(rng.Normal());
    in.r.push_back(rng.Normal());
    in.lam.push_back(1.0 + 99.0 * rng.Uniform());
  }
  return in;
}

// lam_k ((x_k - c_k) - h r_k), unfused: this file is compiled without contraction too, and the
// baseline has no fused multiply-add.
double Expected(double x, const Inputs& in, double h, int64_t k) {
  const double diff = x - in.c[k] - h * in.r[k];
  return in.lam[k] * diff;
}

uint64_t Bits(double v) { return std::bit_cast<uint64_t>(v); }

TEST(QuadraticKernelsTest, GradientEqualsTheExpressionBitForBitAtEveryLengthAndOffset) {
  const double h = 1.5;
  for (const int64_t n : kLengths) {
    for (const int64_t o : {0, 1, 3}) {  // unaligned starts
      const Inputs in = RandomInputs(n + o, 7 + static_cast<uint64_t>(n));
      std::vector<double> out(static_cast<size_t>(n) + 1, -7.0), out32(out);
      const uint64_t flags = quadratic_kernels::Gradient(
          in.x.data() + o, in.c.data() + o, in.r.data() + o, in.lam.data() + o, h, n, out.data());
      const uint64_t flags32 =
          quadratic_kernels::Gradient(in.x32.data() + o, in.c.data() + o, in.r.data() + o,
                                      in.lam.data() + o, h, n, out32.data());
      for (int64_t k = 0; k < n; ++k) {
        ASSERT_EQ(Bits(out[k]), Bits(Expected(in.x[k + o], in, h, k + o)))
            << "n " << n << " offset " << o << " k " << k;
        ASSERT_EQ(Bits(out32[k]), Bits(Expected(static_cast<double>(in.x32[k + o]), in, h, k + o)))
            << "fp32 point, n " << n << " offset " << o << " k " << k;
      }
      EXPECT_EQ(out[n], -7.0) << "wrote past n = " << n;
      EXPECT_EQ(out32[n], -7.0) << "wrote past n = " << n;
      EXPECT_EQ(flags >> 63, 0U) << n;
      EXPECT_EQ(flags32 >> 63, 0U) << n;
    }
  }
}

// One NaN or Inf anywhere (each position of a 33-value run, so every lane and the scalar tail)
// sets bit 63; an overflow to Inf in the product does too.
TEST(QuadraticKernelsTest, GradientFlagsANonFiniteValueInAnyLane) {
  const int64_t n = 33;
  const double inf = std::numeric_limits<double>::infinity();
  for (int64_t bad = 0; bad < n; ++bad) {
    for (const double value : {inf, -inf, std::numeric_limits<double>::quiet_NaN(), 1e300}) {
      Inputs in = RandomInputs(n, 3);
      in.x[static_cast<size_t>(bad)] = value;
      in.lam[static_cast<size_t>(bad)] = value == 1e300 ? 1e300 : in.lam[static_cast<size_t>(bad)];
      std::vector<double> out(n);
      const uint64_t flags = quadratic_kernels::Gradient(in.x.data(), in.c.data(), in.r.data(),
                                                         in.lam.data(), 1.0, n, out.data());
      EXPECT_EQ(flags >> 63, 1U) << "value " << value << " at " << bad;
    }
  }
}

TEST(QuadraticKernelsTest, AnchoredValuesAddTheFixToTheProductsBits) {
  Rng rng(11);
  for (const int64_t n : kLengths) {
    std::vector<double> factor;
    std::vector<int8_t> fix;
    for (int64_t k = 0; k < n; ++k) {
      factor.push_back(1.0 + rng.Uniform());
      fix.push_back(static_cast<int8_t>(static_cast<int>(rng.NextU64() % 256) - 128));
    }
    const double a = 3.7;
    std::vector<double> out(static_cast<size_t>(n) + 1, -7.0);
    quadratic_kernels::AnchoredValues(a, factor.data(), fix.data(), n, out.data());
    for (int64_t k = 0; k < n; ++k) {
      const int64_t expected = std::bit_cast<int64_t>(a * factor[static_cast<size_t>(k)]) +
                               static_cast<int64_t>(fix[static_cast<size_t>(k)]);
      ASSERT_EQ(std::bit_cast<int64_t>(out[k]), expected) << "n " << n << " k " << k;
    }
    EXPECT_EQ(out[n], -7.0) << "wrote past n = " << n;
  }
}

}  // namespace
}  // namespace commsim
