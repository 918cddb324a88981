// Full-batch gradient descent on every convex model reaches its known optimum.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include "base/error.h"
#include "models/linear_models.h"
#include "models/problem.h"
#include "models/registry.h"
#include "models/synthetic_quadratic.h"
#include "models/test_util.h"

namespace commsim {
namespace {

using testing::FullGradient;

// L = largest eigenvalue of A A^T / N (the least-squares Hessian without l2).
double GramMax(const ProblemData& data, double scale) {
  const Eigen::MatrixXd& a = data.train.features;
  const Eigen::MatrixXd gram = a * a.transpose() / static_cast<double>(a.cols());
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(gram, Eigen::EigenvaluesOnly);
  return scale * eig.eigenvalues().maxCoeff();
}

// Full-batch gradient descent (proximal when `prox`) from x = 0 with a fixed step, until x is
// within 1e-13 (squared distance) of `target` or after `max_steps` steps; returns x.
Eigen::VectorXd DescendTo(const Objective& f, const Eigen::VectorXd& target, double step,
                          int max_steps, bool prox = false) {
  Eigen::VectorXd x = Eigen::VectorXd::Zero(f.dim()), g;
  for (int k = 0; k < max_steps && (x - target).squaredNorm() >= 1e-13; ++k) {
    FullGradient(f, x, g);
    x -= step * g;
    if (prox) f.Prox(step, x);
  }
  return x;
}

std::shared_ptr<const Objective> Build(const std::string& model, const std::string& dataset,
                                       int workers, double l2, double l1 = 0.0) {
  ProblemSpec spec = DefaultProblemSpec();
  spec.model = ModelRegistry().DefaultSpec(kModelKind, model);
  spec.data = DatasetRegistry().DefaultSpec(kDatasetKind, dataset);
  if (model == "linear_regression") {
    static_cast<LeastSquaresConfig&>(*spec.model.config).l2 = l2;
  } else {
    auto& c = static_cast<LinearModelConfig&>(*spec.model.config);
    c.l2 = l2;
    c.l1 = l1;
  }
  try {
    return BuildProblem(spec, workers, 42);
  } catch (const UserError& e) {
    ADD_FAILURE() << e.what();
    return nullptr;
  }
}

TEST(ConvergenceTest, LinearRegressionReachesClosedFormOptimum) {
  // The DORE paper's convex test: 1200 x 500 Gaussian design, split over 4 workers.
  std::shared_ptr<const Objective> f = Build("linear_regression", "synthetic_regression", 4, 0.0);
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->dim(), 500);
  const Optimum* opt = f->optimum();
  ASSERT_NE(opt, nullptr);
  const auto& data = static_cast<const DataObjective&>(*f).data();
  const double step = 1.0 / GramMax(data, 1.0);
  Eigen::VectorXd x = DescendTo(*f, opt->x, step, 3000), g;
  EXPECT_LT((x - opt->x).squaredNorm(), 1e-12);
  EXPECT_NEAR(f->Loss(x), opt->loss, 1e-12);
  FullGradient(*f, opt->x, g);
  EXPECT_LT(g.norm(), 1e-10);  // x* is stationary
}

TEST(ConvergenceTest, LogisticRegressionReachesNewtonOptimum) {
  std::shared_ptr<const Objective> f = Build("logistic_regression", "breast_cancer", 3, 0.1);
  ASSERT_NE(f, nullptr);
  const Optimum* opt = f->optimum();
  ASSERT_NE(opt, nullptr);
  const auto& data = static_cast<const DataObjective&>(*f).data();
  const double step = 1.0 / (GramMax(data, 0.25) + 0.1);
  const Eigen::VectorXd x = DescendTo(*f, opt->x, step, 20000);
  EXPECT_LT((x - opt->x).squaredNorm(), 1e-12);
  EXPECT_NEAR(f->Loss(x), opt->loss, 1e-10);
  EXPECT_GT(f->TestAccuracy(x).value(), 0.9);
}

TEST(ConvergenceTest, L1LogisticRegressionProximalGradientReachesOptimum) {
  std::shared_ptr<const Objective> f = Build("logistic_regression", "breast_cancer", 2, 0.1, 0.02);
  ASSERT_NE(f, nullptr);
  const Optimum* opt = f->optimum();
  ASSERT_NE(opt, nullptr);
  EXPECT_GT((opt->x.array() == 0.0).count(), 0);  // l1 makes x* sparse
  const auto& data = static_cast<const DataObjective&>(*f).data();
  const double step = 1.0 / (GramMax(data, 0.25) + 0.1);
  const Eigen::VectorXd x = DescendTo(*f, opt->x, step, 20000, /*prox=*/true);
  EXPECT_LT((x - opt->x).squaredNorm(), 1e-12);
  EXPECT_NEAR(f->Loss(x), opt->loss, 1e-10);
}

TEST(ConvergenceTest, SoftmaxRegressionBecomesStationary) {
  // No closed-form x*; strongly convex with l2 > 0, so a vanishing gradient means the optimum.
  std::shared_ptr<const Objective> f = Build("softmax_regression", "iris", 2, 0.1);
  ASSERT_NE(f, nullptr);
  const auto& data = static_cast<const DataObjective&>(*f).data();
  const double step = 1.0 / (GramMax(data, 1.0) + 0.1);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(f->dim()), g;
  double previous = f->Loss(x);
  for (int k = 0; k < 5000; ++k) {
    FullGradient(*f, x, g);
    x -= step * g;
  }
  FullGradient(*f, x, g);
  EXPECT_LT(g.norm(), 1e-9);
  EXPECT_LT(f->Loss(x), previous);
  EXPECT_GT(f->TestAccuracy(x).value(), 0.8);
}

TEST(ConvergenceTest, SyntheticQuadraticReachesMeanOfCentres) {
  SyntheticQuadraticConfig c;
  c.dim = 300;
  c.lambda_min = 1.0;
  c.lambda_max = 10.0;
  c.heterogeneity = 2.0;
  const int workers = 5;
  SyntheticQuadratic f(c, workers, 3);
  const Optimum* opt = f.optimum();
  ASSERT_NE(opt, nullptr);
  // x* is the mean of the workers' centres, and F(x*) matches the definition summed directly.
  double f_star = 0.0;
  for (int64_t j = 0; j < c.dim; ++j) {
    double mean = 0.0;
    for (int i = 0; i < workers; ++i) mean += f.center(i, j) / workers;
    EXPECT_NEAR(opt->x[j], mean, 1e-12);
    for (int i = 0; i < workers; ++i) {
      f_star += 0.5 * f.lambda()[j] * (mean - f.center(i, j)) * (mean - f.center(i, j)) / workers;
    }
  }
  EXPECT_NEAR(opt->loss, f_star, 1e-9 * f_star);
  EXPECT_NEAR(f.lambda()[0], 1.0, 1e-15);
  EXPECT_NEAR(f.lambda()[c.dim - 1], 10.0, 1e-12);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(c.dim), g;
  for (int k = 0; k < 400; ++k) {
    FullGradient(f, x, g);
    x -= (1.0 / c.lambda_max) * g;
  }
  EXPECT_LT((x - opt->x).squaredNorm(), 1e-12);
  EXPECT_NEAR(f.Loss(x), opt->loss, 1e-10);
}

}  // namespace
}  // namespace commsim
