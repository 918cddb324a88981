// identity's cloned sum kernels (identity_kernels.h), as the machine runs them (the widest clone
// it has), against the sum written out here element by element: the same bits for random values
// and weights (a fused multiply-add in a clone would differ from the unfused o + w * v in the last
// bit for many of them), every length around the vector widths, unaligned wire bytes, nothing
// written past n, and the flag set exactly when a value on the wire is NaN or Inf.
#include "compression/compressors/identity_kernels.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "base/rng.h"

namespace commsim {
namespace {

constexpr int64_t kLengths[] = {0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 255, 256, 257, 1000};

// n values of type Value written as bytes from byte `offset` on.
template <class Value>
std::vector<unsigned char> Wire(const std::vector<Value>& values, int64_t offset) {
  std::vector<unsigned char> bytes(static_cast<size_t>(offset) + sizeof(Value) * values.size());
  if (!values.empty()) {
    std::memcpy(bytes.data() + offset, values.data(), sizeof(Value) * values.size());
  }
  return bytes;
}

template <class Value>
void CheckAddsLikeTheExpression(uint64_t (*add)(const unsigned char*, int64_t, double, double*)) {
  Rng rng(5);
  for (const int64_t n : kLengths) {
    for (const int64_t offset : {0, 1, 4}) {
      std::vector<Value> values;
      std::vector<double> o;
      for (int64_t k = 0; k < n; ++k) {
        values.push_back(static_cast<Value>(rng.Normal() * 10.0));
        o.push_back(rng.Normal());
      }
      o.push_back(-7.0);  // past n: must stay
      const double weight = 0.1 + rng.Uniform();
      std::vector<double> expected = o;
      for (int64_t k = 0; k < n; ++k) {
        const auto i = static_cast<size_t>(k);
        const double product = weight * static_cast<double>(values[i]);
        expected[i] = o[i] + product;
      }
      const std::vector<unsigned char> bytes = Wire(values, offset);
      const uint64_t flags = add(bytes.data() + offset, n, weight, o.data());
      for (size_t i = 0; i < o.size(); ++i) {
        ASSERT_EQ(std::bit_cast<uint64_t>(o[i]), std::bit_cast<uint64_t>(expected[i]))
            << "n " << n << " offset " << offset << " i " << i;
      }
      EXPECT_EQ(flags >> 63, 0U) << n;
    }
  }
}

TEST(IdentityKernelsTest, AddWeighted32AddsEachWidenedFloatLikeTheExpression) {
  CheckAddsLikeTheExpression<float>(identity_kernels::AddWeighted32);
}

TEST(IdentityKernelsTest, AddWeighted64AddsEachDoubleLikeTheExpression) {
  CheckAddsLikeTheExpression<double>(identity_kernels::AddWeighted64);
}

// A NaN or Inf at any position of a 33-value run (every lane and the scalar tail) sets bit 63.
TEST(IdentityKernelsTest, ANonFiniteValueInAnyLaneSetsTheFlag) {
  const int64_t n = 33;
  for (int64_t bad = 0; bad < n; ++bad) {
    for (const float value :
         {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
          std::numeric_limits<float>::quiet_NaN()}) {
      std::vector<float> f(n, 1.0F);
      std::vector<double> d(n, 1.0);
      f[static_cast<size_t>(bad)] = value;
      d[static_cast<size_t>(bad)] = value;
      std::vector<double> o(n, 0.0);
      EXPECT_EQ(identity_kernels::AddWeighted32(Wire(f, 0).data(), n, 1.0, o.data()) >> 63, 1U)
          << "fp32 " << value << " at " << bad;
      EXPECT_EQ(identity_kernels::AddWeighted64(Wire(d, 0).data(), n, 1.0, o.data()) >> 63, 1U)
          << "fp64 " << value << " at " << bad;
    }
  }
}

}  // namespace
}  // namespace commsim
