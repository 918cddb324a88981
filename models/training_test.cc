// Mini-batch SGD on MNIST: the MLP learns (> 90% test accuracy), LeNet-5's loss falls.
// Needs the MNIST cache that ./test.sh builds (`commsim data build`); without it the tests fail
// with the message naming that command.
#include <gtest/gtest.h>

#include "base/error.h"
#include "models/mlp.h"
#include "models/problem.h"
#include "models/registry.h"
#include "models/test_util.h"

namespace commsim {
namespace {

using testing::SetField;

std::shared_ptr<const Objective> MnistProblem(const std::string& model, int64_t samples,
                                              int workers) {
  ProblemSpec spec = DefaultProblemSpec();
  spec.model = ModelRegistry().DefaultSpec(kModelKind, model);
  spec.data = DatasetRegistry().DefaultSpec(kDatasetKind, "mnist");
  SetField::Apply(*spec.data.config, "max_samples", static_cast<double>(samples));
  try {
    return BuildProblem(spec, workers, 7);
  } catch (const UserError& e) {
    ADD_FAILURE() << e.what();
    return nullptr;
  }
}

struct Trained {
  Eigen::VectorXd x;  // the point reached
  double loss0 = 0;   // Loss at the initial point
  double loss = 0;    // Loss at x
};

// Synchronous mini-batch SGD from the seeded initial point: every step averages one mini-batch
// gradient per worker.
Trained TrainSgd(const Objective& f, int steps, int64_t batch, double lr) {
  Trained t{.x = Eigen::VectorXd(f.dim())};
  Rng init(DeriveSeed(7, 0, "init"));
  f.InitialPoint(init, t.x);
  t.loss0 = f.Loss(t.x);
  std::vector<Rng> rngs;
  for (int w = 0; w < f.num_workers(); ++w) rngs.emplace_back(DeriveSeed(3, w, "batch"));
  Eigen::VectorXd g(f.dim()), mean(f.dim());
  for (int k = 0; k < steps; ++k) {
    mean.setZero();
    for (int w = 0; w < f.num_workers(); ++w) {
      f.Gradient(w, t.x, batch, rngs[static_cast<size_t>(w)], g);
      mean += g / f.num_workers();
    }
    t.x -= lr * mean;
  }
  t.loss = f.Loss(t.x);
  return t;
}

TEST(TrainingTest, MlpReachesNinetyPercentOnMnist) {
  // 784-64-10 on 5,000 digits (4,000 train / 1,000 test), 4 workers.
  std::shared_ptr<const Objective> f = MnistProblem("mlp", 5000, 4);
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->dim(), 784 * 64 + 64 + 64 * 10 + 10);
  const Trained t = TrainSgd(*f, 400, 32, 0.3);
  EXPECT_LT(t.loss, 0.5 * t.loss0);
  const std::optional<double> accuracy = f->TestAccuracy(t.x);
  ASSERT_TRUE(accuracy.has_value());
  EXPECT_GT(*accuracy, 0.90);
}

TEST(TrainingTest, LeNet5LossDecreasesOnMnist) {
  std::shared_ptr<const Objective> f = MnistProblem("lenet5", 600, 2);
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->dim(), 61706);
  const Trained t = TrainSgd(*f, 40, 16, 0.05);
  EXPECT_LT(t.loss, 0.7 * t.loss0);
  EXPECT_GT(f->TestAccuracy(t.x).value(), 0.3);  // chance is 0.1
}

}  // namespace
}  // namespace commsim
