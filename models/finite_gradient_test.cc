// Objective::FiniteGradient: the same gradient as Gradient (bit for bit, same Rng use) and a flag
// that is false exactly when an element of the gradient is NaN or Inf — for the synthetic
// quadratic's fused check and for the default (Gradient, then a pass over grad).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "models/linear_models.h"
#include "models/synthetic_quadratic.h"
#include "models/test_util.h"

namespace commsim {
namespace {

// FiniteGradient at x equals Gradient at x bit for bit and leaves the Rng where Gradient does;
// returns its flag.
bool FiniteGradientMatchesGradient(const Objective& f, const Eigen::VectorXd& x, int64_t batch) {
  Rng a(21), b(21);
  Eigen::VectorXd expected(f.dim()), got(f.dim());
  f.Gradient(1, x, batch, a, expected);
  const bool finite = f.FiniteGradient(1, x, batch, b, got);
  for (int64_t j = 0; j < f.dim(); ++j) {
    // Compare bits, so that NaN == NaN and -0 != +0.
    EXPECT_EQ(std::bit_cast<uint64_t>(got[j]), std::bit_cast<uint64_t>(expected[j])) << "j=" << j;
  }
  EXPECT_EQ(a.NextU64(), b.NextU64()) << "the Rng advanced differently";
  return finite;
}

SyntheticQuadratic QuadraticForFiniteCheck(double noise, double lambda_max = 50.0) {
  SyntheticQuadraticConfig c;
  c.dim = 37;  // odd, and not a multiple of any vector width
  c.lambda_max = lambda_max;
  c.noise = noise;
  c.samples_per_worker = 100;
  return SyntheticQuadratic(c, 3, 14);
}

TEST(FiniteGradientTest, SyntheticQuadraticFlagsEveryNonFiniteElement) {
  for (const double noise : {0.0, 0.7}) {
    SCOPED_TRACE(noise);
    const SyntheticQuadratic f = QuadraticForFiniteCheck(noise);
    Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(37, -2.0, 2.0);
    EXPECT_TRUE(FiniteGradientMatchesGradient(f, x, 10));
    for (const int64_t j : {0, 17, 36}) {  // first, middle (past the shift's wrap), last
      for (const double bad : {std::numeric_limits<double>::infinity(), std::nan("")}) {
        Eigen::VectorXd y = x;
        y[j] = bad;
        EXPECT_FALSE(FiniteGradientMatchesGradient(f, y, 10)) << "j=" << j << " x_j=" << bad;
      }
    }
  }
}

TEST(FiniteGradientTest, SyntheticQuadraticFlagsAnOverflowOfFiniteInputs) {
  // lambda_j (x_j - c_j) overflows to Inf for the largest curvature although x is finite.
  const SyntheticQuadratic f = QuadraticForFiniteCheck(0.0, 1e300);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(37);
  x[36] = 1e10;
  EXPECT_FALSE(FiniteGradientMatchesGradient(f, x, 0));
}

TEST(FiniteGradientTest, DefaultChecksTheGradientOfAnyObjective) {
  LeastSquaresConfig c;
  const LinearRegression f(c, testing::Partitioned(testing::RandomDataset(7, 40, 0, 1), 2));
  Eigen::VectorXd x = Eigen::VectorXd::Constant(7, 0.5);
  EXPECT_TRUE(FiniteGradientMatchesGradient(f, x, 5));
  x[3] = std::nan("");
  EXPECT_FALSE(FiniteGradientMatchesGradient(f, x, 5));
}

}  // namespace
}  // namespace commsim
