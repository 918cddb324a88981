// The block-norm kernels behind wire.h's SumAbs, SumSquares and MaxAbsChecked: the documented
// summation order (four accumulators, the tail into the first), and the finiteness flag of the
// integer max pass wherever the NaN or Inf sits (vector body or scalar tail); the rounding up of a
// norm to fp32.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "base/error.h"
#include "compression/compressors/wire.h"

namespace commsim {
namespace {

// 2^53 + 1 rounds to 2^53 (a tie, to even): a serial sum of {2^53, 1, 1, ...} never moves, while
// the four accumulators collect the ones apart and add them to 2^53 at the end.
TEST(NormKernelsTest, SumAbsAddsInFourAccumulatorsThenPairs) {
  const double big = 0x1p53;
  // a = {2^53 + 1 -> 2^53, 2, 2, 2}: (2^53 + 2) + 4.
  EXPECT_EQ(SumAbs(std::vector<double>{big, 1, 1, 1, -1, 1, -1, 1}.data(), 8), big + 6);
  // The ninth element goes to a[0] after the loop: 2^53 + 1 rounds away again.
  EXPECT_EQ(SumAbs(std::vector<double>{big, 1, 1, 1, 1, 1, 1, 1, 1}.data(), 9), big + 6);
  // Fewer than four elements: all in a[0], in order.
  EXPECT_EQ(SumAbs(std::vector<double>{big, 1, 1}.data(), 3), big);
}

TEST(NormKernelsTest, SumSquaresAddsInFourAccumulatorsThenPairs) {
  const double root = 0x1p27;  // square 2^54, where the spacing of doubles is 4
  // a = {2^54 + 1 -> 2^54, 2, 2, 2}: 2^54 + 2 is a tie (to 2^54), then + 4.
  EXPECT_EQ(SumSquares(std::vector<double>{root, 1, 1, 1, 1, -1, 1, 1}.data(), 8), 0x1p54 + 4);
  EXPECT_EQ(SumSquares(std::vector<double>{3, 4}.data(), 2), 25.0);
}

TEST(NormKernelsTest, MaxAbsIsTheLargestMagnitudeAndFlagsNonFiniteAnywhere) {
  std::vector<double> x = {0.5, -0.0, -7.25, 3.0, 1e-300, -1e-310, 7.0, 2.0, -6.0, 0.25, 1.0};
  bool finite = false;
  EXPECT_EQ(MaxAbsChecked(x.data(), static_cast<int64_t>(x.size()), &finite), 7.25);
  EXPECT_TRUE(finite);
  const std::vector<double> zeros = {-0.0, 0.0};
  const double zero = MaxAbsChecked(zeros.data(), 2, &finite);
  EXPECT_EQ(zero, 0.0);
  EXPECT_FALSE(std::signbit(zero));
  EXPECT_TRUE(finite);
  const double bad[] = {
      std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN(),
      std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (const double v : bad) {
    for (size_t at : {size_t{0}, size_t{5}, x.size() - 1}) {  // body and tail of the pass
      std::vector<double> y = x;
      y[at] = v;
      MaxAbsChecked(y.data(), static_cast<int64_t>(y.size()), &finite);
      EXPECT_FALSE(finite) << v << " at " << at;
    }
  }
  // The largest finite double is finite.
  x[3] = -std::numeric_limits<double>::max();
  EXPECT_EQ(MaxAbsChecked(x.data(), static_cast<int64_t>(x.size()), &finite),
            std::numeric_limits<double>::max());
  EXPECT_TRUE(finite);
}

// Fp32Up against its definition, with std::nextafter as the oracle: the float at or above v whose
// float below is under v; exact floats stay; the subnormal and the top of the range.
TEST(NormKernelsTest, Fp32UpIsTheSmallestFloatAtOrAboveTheValue) {
  const float inf = std::numeric_limits<float>::infinity();
  const float max = std::numeric_limits<float>::max();
  EXPECT_EQ(Fp32Up("t", 0.0), 0.0f);
  EXPECT_EQ(Fp32Up("t", 1.0), 1.0f);
  EXPECT_EQ(Fp32Up("t", 1.0 + 0x1p-30), 1.0f + 0x1p-23f);
  EXPECT_EQ(Fp32Up("t", 0x1p-160), std::numeric_limits<float>::denorm_min());
  EXPECT_EQ(Fp32Up("t", static_cast<double>(max)), max);
  EXPECT_THROW(Fp32Up("t", static_cast<double>(max) * (1 + 0x1p-40)), NonFiniteError);
  for (double v : {0.1, 3.0e-39, 1.17549e-38, 123456.789, 7.0e37, 0x1p-126 * 0.75}) {
    const float f = Fp32Up("t", v);
    EXPECT_GE(static_cast<double>(f), v) << v;
    EXPECT_LT(static_cast<double>(std::nextafter(f, -inf)), v) << v;
  }
}

}  // namespace
}  // namespace commsim
