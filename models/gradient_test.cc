// Every model's gradient against central finite differences of its own loss.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "models/lenet5.h"
#include "models/linear_models.h"
#include "models/mlp.h"
#include "models/synthetic_quadratic.h"
#include "models/test_util.h"

namespace commsim {
namespace {

using testing::Partitioned;
using testing::RandomDataset;

// Relative error ||fd - g|| / ||g|| over `coords` (all coordinates when empty) of worker 0's
// full-shard gradient, with central differences of step h.
double GradientError(const Objective& f, const Eigen::VectorXd& x, std::vector<int64_t> coords,
                     int64_t batch = 0) {
  if (coords.empty()) {
    for (int64_t j = 0; j < f.dim(); ++j) coords.push_back(j);
  }
  Rng rng(5);
  Eigen::VectorXd g(f.dim()), scratch(f.dim());
  Rng batch_rng = rng;
  f.Gradient(0, x, batch, batch_rng, g);
  const double h = 1e-5;
  double err2 = 0.0, norm2 = 0.0;
  for (int64_t j : coords) {
    Eigen::VectorXd xp = x, xm = x;
    xp[j] += h;
    xm[j] -= h;
    Rng rp = rng, rm = rng;  // same mini-batch on both sides
    const double fd =
        (f.Gradient(0, xp, batch, rp, scratch) - f.Gradient(0, xm, batch, rm, scratch)) / (2 * h);
    err2 += (fd - g[j]) * (fd - g[j]);
    norm2 += g[j] * g[j];
  }
  EXPECT_GT(norm2, 0.0);
  return std::sqrt(err2 / norm2);
}

Eigen::VectorXd RandomPoint(int64_t d, double scale, uint64_t seed) {
  Rng rng(seed);
  Eigen::VectorXd x(d);
  for (int64_t j = 0; j < d; ++j) x[j] = scale * rng.Normal();
  return x;
}

TEST(GradientTest, LinearRegression) {
  LeastSquaresConfig c;
  c.l2 = 0.3;
  LinearRegression f(c, Partitioned(RandomDataset(7, 40, 0, 1), 2));
  EXPECT_LT(GradientError(f, RandomPoint(7, 1.0, 2), {}), 1e-6);
  EXPECT_LT(GradientError(f, RandomPoint(7, 1.0, 2), {}, 5), 1e-6);  // a mini-batch
}

TEST(GradientTest, LogisticRegression) {
  LinearModelConfig c;
  c.l2 = 0.1;
  LogisticRegression f(c, Partitioned(RandomDataset(6, 50, 2, 3), 2));
  EXPECT_LT(GradientError(f, RandomPoint(6, 1.0, 4), {}), 1e-6);
}

TEST(GradientTest, SoftmaxRegression) {
  LinearModelConfig c;
  c.l2 = 0.05;
  SoftmaxRegression f(c, Partitioned(RandomDataset(5, 60, 4, 5), 3));
  EXPECT_EQ(f.dim(), 20);
  EXPECT_LT(GradientError(f, RandomPoint(20, 0.5, 6), {}), 1e-6);
}

TEST(GradientTest, MlpWithTwoHiddenLayers) {
  MlpConfig c;
  c.hidden = {8, 6};
  c.l2 = 0.01;
  Mlp f(c, Partitioned(RandomDataset(10, 30, 3, 7), 1));
  EXPECT_EQ(f.dim(), 10 * 8 + 8 + 8 * 6 + 6 + 6 * 3 + 3);
  Eigen::VectorXd x(f.dim());
  Rng init(8);
  f.InitialPoint(init, x);
  x += RandomPoint(f.dim(), 0.05, 9);  // non-zero biases
  EXPECT_LT(GradientError(f, x, {}), 1e-6);
}

LeNet5Config LeNetIn(const char* precision) {
  LeNet5Config c;
  c.precision = precision;
  return c;
}

TEST(GradientTest, LeNet5OnRandomImages) {
  Dataset images = RandomDataset(28 * 28, 3, 10, 10);
  images.image_shape = {1, 28, 28};
  LeNet5 f(LeNetIn("float64"), Partitioned(images, 1));
  EXPECT_EQ(f.dim(), 61706);
  Eigen::VectorXd x(f.dim());
  Rng init(11);
  f.InitialPoint(init, x);
  x += RandomPoint(f.dim(), 0.01, 12);
  // A spread of coordinates in every layer: conv1, conv2, fc1, fc2, fc3 weights and biases.
  std::vector<int64_t> coords;
  Rng pick(13);
  const int64_t bounds[] = {0, 156, 2572, 50692, 60856, 61706};
  for (int l = 0; l < 5; ++l) {
    for (int k = 0; k < 16; ++k) {
      coords.push_back(bounds[l] + static_cast<int64_t>(pick.UniformInt(
                                       static_cast<uint64_t>(bounds[l + 1] - bounds[l]))));
    }
    coords.push_back(bounds[l + 1] - 1);  // a bias
  }
  EXPECT_LT(GradientError(f, x, coords), 1e-6);
}

TEST(GradientTest, SyntheticQuadratic) {
  SyntheticQuadraticConfig c;
  c.dim = 25;
  c.lambda_min = 0.5;
  c.lambda_max = 50;
  SyntheticQuadratic f(c, 3, 14);
  EXPECT_LT(GradientError(f, RandomPoint(25, 1.0, 15), {}), 1e-6);
}

// The single-precision pass (the default) against the double one, which the test above checks
// against finite differences: the same gradient to float's rounding over a few layers.
TEST(GradientTest, LeNet5InFloat32FollowsTheDoublePass) {
  Dataset images = RandomDataset(28 * 28, 4, 10, 14);
  images.image_shape = {1, 28, 28};
  const LeNet5 single(LeNet5Config{}, Partitioned(images, 1));
  const LeNet5 twice(LeNetIn("float64"), Partitioned(images, 1));
  Eigen::VectorXd x(single.dim());
  Rng init(15);
  single.InitialPoint(init, x);
  Eigen::VectorXd g32(single.dim()), g64(single.dim());
  Rng r32(1), r64(1);
  const double f32 = single.Gradient(0, x, 0, r32, g32);
  const double f64 = twice.Gradient(0, x, 0, r64, g64);
  EXPECT_NEAR(f32, f64, 1e-5 * std::abs(f64));
  EXPECT_LT((g32 - g64).norm(), 1e-4 * g64.norm());
  EXPECT_GT((g32 - g64).norm(), 0.0);  // it is a single-precision pass
}

// A case by hand: every weight 0, fc2's biases 1, fc3's biases b_i = 0.1 i. Then every sample's
// logits are b and fc3's input is (1, ..., 1), so d loss / d b_i = softmax(b)_i - (share of the
// samples labelled i) and d loss / d W3(i, j) is the same for every j; the other layers' weights
// get none (the gradient flowing down meets fc3's zero weights).
TEST(GradientTest, LeNet5ByHandWithZeroWeights) {
  Dataset images = RandomDataset(28 * 28, 5, 10, 16);
  images.image_shape = {1, 28, 28};
  for (const char* precision : {"float32", "float64"}) {
    const LeNet5 f(LeNetIn(precision), Partitioned(images, 1));
    Eigen::VectorXd x = Eigen::VectorXd::Zero(f.dim());
    const int64_t fc2_bias = 60856 - 84, fc3_w = 60856, fc3_bias = 61706 - 10;
    for (int64_t j = 0; j < 84; ++j) x[fc2_bias + j] = 1.0;
    Eigen::VectorXd b(10);
    for (int i = 0; i < 10; ++i) b[i] = x[fc3_bias + i] = 0.1 * i;
    const Eigen::VectorXd softmax = b.array().exp() / b.array().exp().sum();
    Eigen::VectorXd share = Eigen::VectorXd::Zero(10);
    for (Eigen::Index s = 0; s < images.targets.size(); ++s) {
      share[static_cast<Eigen::Index>(images.targets[s])] += 1.0 / 5.0;
    }
    Eigen::VectorXd g(f.dim());
    Rng rng(1);
    const double loss = f.Gradient(0, x, 0, rng, g);
    double expected_loss = 0;
    for (Eigen::Index s = 0; s < 5; ++s) {
      expected_loss -= std::log(softmax[static_cast<Eigen::Index>(images.targets[s])]) / 5.0;
    }
    const double tol = std::string(precision) == "float32" ? 1e-6 : 1e-14;
    EXPECT_NEAR(loss, expected_loss, tol) << precision;
    for (int i = 0; i < 10; ++i) {
      EXPECT_NEAR(g[fc3_bias + i], softmax[i] - share[i], tol) << precision << " " << i;
      for (const int64_t j : {0, 41, 83}) {  // W3 is 10 x 84, column-major
        EXPECT_NEAR(g[fc3_w + j * 10 + i], softmax[i] - share[i], tol) << precision;
      }
    }
    EXPECT_EQ(g.head(fc3_w).cwiseAbs().maxCoeff(), 0.0) << precision;
  }
}

}  // namespace
}  // namespace commsim
