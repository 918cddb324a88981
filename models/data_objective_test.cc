// DataObjective's sample handling, checked against sums written out in the tests: the loss and
// gradient over more samples than one evaluation chunk (4096 for the linear models), the test
// accuracy over several chunks, and mini-batches drawn without replacement.
#include <gtest/gtest.h>

#include <cmath>

#include "models/linear_models.h"
#include "models/test_util.h"

namespace commsim {
namespace {

using testing::Partitioned;

// A one-feature regression set: a_i = 1 + (i mod 3), b_i = (i mod 7) - 3.
Dataset OneFeatureRegression(int64_t n) {
  Dataset d;
  d.name = "one_feature";
  d.features.resize(1, n);
  d.targets.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    d.features(0, i) = 1.0 + static_cast<double>(i % 3);
    d.targets[i] = static_cast<double>(i % 7) - 3.0;
  }
  return d;
}

// Over 8292 samples (two full chunks of 4096 and one of 100) the gradient is the mean over all
// samples: (1/n) sum a_i (a_i x - b_i), and the loss (1/2n) sum (a_i x - b_i)^2. Catches chunk
// results summed without their weights m_chunk / n.
TEST(DataObjectiveTest, GradientAndLossOverThreeChunksAreMeansOverEverySample) {
  const int64_t n = 2 * 4096 + 100;
  const Dataset train = OneFeatureRegression(n);
  const LinearRegression f(LeastSquaresConfig{}, Partitioned(train, 1));
  const double x = 0.5;
  double grad_sum = 0.0, loss_sum = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double a = 1.0 + static_cast<double>(i % 3), b = static_cast<double>(i % 7) - 3.0;
    grad_sum += a * (a * x - b);
    loss_sum += (a * x - b) * (a * x - b);
  }
  const double expected_grad = grad_sum / static_cast<double>(n);
  const double expected_loss = 0.5 * loss_sum / static_cast<double>(n);
  Eigen::VectorXd g(1);
  Rng unused(1);
  const double loss = f.Gradient(0, Eigen::VectorXd::Constant(1, x), 0, unused, g);
  EXPECT_NEAR(g[0], expected_grad, 1e-12 * std::abs(expected_grad));
  EXPECT_NEAR(loss, expected_loss, 1e-12 * expected_loss);
  EXPECT_NEAR(f.Loss(Eigen::VectorXd::Constant(1, x)), expected_loss, 1e-12 * expected_loss);
}

// 5000 test samples, all with feature 1: at x = 1 every prediction is class 1; the first 4096
// labels are 1, the last 904 are 0, so the accuracy is 4096 / 5000. Catches a chunk compared with
// the labels of the first chunk.
TEST(DataObjectiveTest, TestAccuracyCountsEverySampleOfEveryChunk) {
  Dataset train = testing::RandomDataset(1, 20, 2, 3);
  Dataset test;
  test.name = "test";
  test.num_classes = 2;
  test.features = Eigen::MatrixXd::Ones(1, 5000);
  test.targets.resize(5000);
  for (int64_t i = 0; i < 5000; ++i) test.targets[i] = i < 4096 ? 1.0 : 0.0;
  const LogisticRegression f(LinearModelConfig{}, Partitioned(train, 1, test));
  const std::optional<double> accuracy = f.TestAccuracy(Eigen::VectorXd::Ones(1));
  ASSERT_TRUE(accuracy.has_value());
  EXPECT_EQ(*accuracy, 4096.0 / 5000.0);
}

// Sample i is the unit vector e_i with target 1, so at x = 0 a mini-batch of m samples has the
// gradient -(1/m) sum over the batch of e_i: entry i is -(times i was drawn) / m. Over 200
// batches of 20 out of 40, every entry must be 0 or -1/m, with exactly m of them nonzero.
TEST(DataObjectiveTest, MiniBatchesNeverDrawASampleTwice) {
  const int64_t n = 40, m = 20;
  Dataset train;
  train.name = "unit_vectors";
  train.features = Eigen::MatrixXd::Identity(n, n);
  train.targets = Eigen::VectorXd::Ones(n);
  const LinearRegression f(LeastSquaresConfig{}, Partitioned(train, 1));
  Rng rng(11);
  Eigen::VectorXd g(n);
  for (int draw = 0; draw < 200; ++draw) {
    f.Gradient(0, Eigen::VectorXd::Zero(n), m, rng, g);
    int64_t drawn = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double times = -g[i] * static_cast<double>(m);
      ASSERT_TRUE(std::abs(times) < 1e-12 || std::abs(times - 1.0) < 1e-12)
          << "draw " << draw << ": sample " << i << " drawn " << times << " times";
      drawn += std::abs(times - 1.0) < 1e-12;
    }
    ASSERT_EQ(drawn, m) << "draw " << draw;
  }
}

}  // namespace
}  // namespace commsim
