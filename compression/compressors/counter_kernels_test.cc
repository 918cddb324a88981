// The quantizers' block-norm kernels (counter_kernels.h), as the machine runs them (the widest
// clone it has), against their contract's order written out here with unfused operations: the
// same bits for random values at every length around the vector widths. A clone that fused
// a[k % 4] += x[k] * x[k] into a multiply-add (as the AVX2 and AVX-512 clones did while the
// per-file -ffp-contract=off was overridden by the precompiled header) fails here.
#include "compression/compressors/counter_kernels.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "base/rng.h"

namespace commsim {
namespace {

// The contract: a[k % 4] += f(x[k]) for k below n rounded down to a multiple of 4, the rest into
// a[0]; then (a[0] + a[1]) + (a[2] + a[3]).
template <class F>
double FourAccumulators(const std::vector<double>& x, F f) {
  double a[4] = {0.0, 0.0, 0.0, 0.0};
  const size_t whole = x.size() / 4 * 4;
  for (size_t k = 0; k < x.size(); ++k) {
    const double term = f(x[k]);  // rounded on its own: no multiply-add
    a[k < whole ? k % 4 : 0] += term;
  }
  return (a[0] + a[1]) + (a[2] + a[3]);
}

TEST(CounterKernelsTest, SumSquaresAndSumAbsFollowTheirContractsOrderBitForBit) {
  Rng rng(17);
  for (const int64_t n : {0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 255, 256, 257, 1000}) {
    std::vector<double> x;
    for (int64_t k = 0; k < n; ++k) x.push_back(rng.Normal() * 1e3);
    const double squares = FourAccumulators(x, [](double v) { return v * v; });
    const double abs = FourAccumulators(x, [](double v) { return std::abs(v); });
    EXPECT_EQ(std::bit_cast<uint64_t>(counter_kernels::SumSquares4(x.data(), n)),
              std::bit_cast<uint64_t>(squares))
        << "n " << n;
    EXPECT_EQ(std::bit_cast<uint64_t>(counter_kernels::SumAbs4(x.data(), n)),
              std::bit_cast<uint64_t>(abs))
        << "n " << n;
  }
}

}  // namespace
}  // namespace commsim
