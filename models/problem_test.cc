#include "models/problem.h"

#include <gtest/gtest.h>

#include "base/error.h"
#include "base/error_test_util.h"
#include "models/data_objective.h"
#include "models/registry.h"
#include "models/synthetic_quadratic.h"
#include "models/test_util.h"

namespace commsim {
namespace {

using testing::SetField;

ProblemSpec Spec(const std::string& model, const std::string& dataset,
                 const std::string& partition = "iid") {
  return ProblemSpec{ModelRegistry().DefaultSpec(kModelKind, model),
                     DatasetRegistry().DefaultSpec(kDatasetKind, dataset),
                     PartitionRegistry().DefaultSpec(kPartitionKind, partition)};
}

std::string ErrorOf(const ProblemSpec& spec, int workers) {
  return test_errors::ErrorOf([&] { BuildProblem(spec, workers, 1); });
}

TEST(RegistryTest, EveryNameTheScenarioLayerUsesIsRegistered) {
  EXPECT_EQ(DatasetRegistry().names(),
            (std::vector<std::string>{"synthetic_regression", "synthetic_classification", "mnist",
                                      "breast_cancer", "digits", "wine", "iris", "diabetes",
                                      "libsvm", "csv"}));
  EXPECT_EQ(PartitionRegistry().names(),
            (std::vector<std::string>{"iid", "by_label", "dirichlet"}));
  EXPECT_EQ(
      ModelRegistry().names(),
      (std::vector<std::string>{"linear_regression", "logistic_regression", "softmax_regression",
                                "mlp", "lenet5", "synthetic_quadratic", "consensus"}));
}

TEST(ProblemTest, DefaultIsTheDoreConvexTest) {
  const ProblemSpec spec = DefaultProblemSpec();
  const std::shared_ptr<const Objective> f = BuildProblem(spec, 4, 9);
  EXPECT_EQ(f->Name(), "linear_regression");
  EXPECT_EQ(f->dim(), 500);
  EXPECT_EQ(f->num_workers(), 4);
  for (int w = 0; w < 4; ++w) EXPECT_EQ(f->shard_size(w), 300);
  EXPECT_NE(f->optimum(), nullptr);
  EXPECT_DOUBLE_EQ(f->flops_per_sample(), 2000.0);
  // Same seed -> same problem; another seed -> another draw.
  EXPECT_EQ(BuildProblem(spec, 4, 9)->optimum()->x, f->optimum()->x);
  EXPECT_NE(BuildProblem(spec, 4, 10)->optimum()->x, f->optimum()->x);
}

TEST(ProblemTest, SplitStandardiseAndSubsetRealData) {
  ProblemSpec spec = Spec("logistic_regression", "breast_cancer", "dirichlet");
  const auto f = BuildProblem(spec, 3, 2);
  const ProblemData& data = static_cast<const DataObjective&>(*f).data();
  EXPECT_EQ(data.train.num_samples() + data.test.num_samples(), 569);
  EXPECT_NEAR(static_cast<double>(data.test.num_samples()), 0.2 * 569, 1.0);
  // Standardised with training statistics: zero mean, unit variance per feature.
  const Eigen::VectorXd mean = data.train.features.rowwise().mean();
  EXPECT_LT(mean.cwiseAbs().maxCoeff(), 1e-12);
  const double var0 = data.train.features.row(0).squaredNorm() / data.train.num_samples();
  EXPECT_NEAR(var0, 1.0, 1e-12);
  int64_t total = 0;
  for (int w = 0; w < 3; ++w) total += f->shard_size(w);
  EXPECT_EQ(total, data.train.num_samples());

  SetField::Apply(*spec.data.config, "max_samples", 100);
  SetField::Apply(*spec.data.config, "test_fraction", 0.0);
  const auto small = BuildProblem(spec, 3, 2);
  EXPECT_EQ(static_cast<const DataObjective&>(*small).data().train.num_samples(), 100);
  EXPECT_FALSE(small->TestAccuracy(Eigen::VectorXd::Zero(30)).has_value());
}

TEST(ProblemTest, ModelDataMismatchesAreUserErrors) {
  EXPECT_EQ(ErrorOf(Spec("logistic_regression", "digits"), 2),
            "model logistic_regression: needs 2 classes, data set 'digits' has 10");
  EXPECT_EQ(ErrorOf(Spec("lenet5", "breast_cancer"), 2),
            "model lenet5: needs image data (e.g. mnist), data set 'breast_cancer' has no image "
            "shape");
  EXPECT_EQ(ErrorOf(Spec("lenet5", "digits"), 2),
            "model lenet5: image size 8x8 of 'digits' does not fit the architecture, expected e.g. "
            "28x28 (H/2 - 4 even and >= 2)");
  EXPECT_EQ(ErrorOf(Spec("mlp", "diabetes"), 2),
            "model mlp: needs a classification data set, 'diabetes' is a regression set");
  EXPECT_EQ(ErrorOf(Spec("softmax_regression", "iris", "by_label"), 1),
            "partition by_label: 1 workers x 2 classes_per_worker cover only 2 of the 3 classes of "
            "'iris'; every sample must be assigned (raise classes_per_worker to at least 3)");
  EXPECT_EQ(ErrorOf(Spec("softmax_regression", "iris"), 500),
            "dataset iris: 120 training samples cannot be shared by 500 workers");
  ProblemSpec csv = Spec("softmax_regression", "csv");
  SetField::ApplyText(*csv.data.config, "path", "/nonexistent/data.csv");
  EXPECT_EQ(ErrorOf(csv, 2), "/nonexistent/data.csv: cannot open data file");
}

TEST(ProblemTest, SyntheticQuadraticNeedsNoDataAndScalesNoise) {
  ProblemSpec spec = Spec("synthetic_quadratic", "mnist");
  SetField::Apply(*spec.model.config, "dim", 20000);
  SetField::Apply(*spec.model.config, "noise", 2.0);
  SetField::Apply(*spec.model.config, "heterogeneity", 0.0);
  spec.data = ComponentSpec();  // ignored: no data set is loaded
  const auto f = BuildProblem(spec, 2, 1);
  ASSERT_EQ(f->dim(), 20000);
  const Eigen::VectorXd x = f->optimum()->x;  // exact gradient there is zero
  Eigen::VectorXd g(f->dim());
  Rng rng(4);
  f->Gradient(1, x, 0, rng, g);
  EXPECT_EQ(g.squaredNorm(), 0.0);  // full batch: no noise
  f->Gradient(1, x, 16, rng, g);
  EXPECT_NEAR(g.mean(), 0.0, 4.0 * 0.5 / std::sqrt(20000.0));
  EXPECT_NEAR(g.squaredNorm() / 20000, 4.0 / 16, 0.01);  // variance noise^2 / batch
}

TEST(ProblemTest, MiniBatchesAreDistinctSamplesAndReproducible) {
  const auto f = BuildProblem(DefaultProblemSpec(), 2, 3);
  const Eigen::VectorXd x = Eigen::VectorXd::Ones(500);
  Eigen::VectorXd g1(500), g2(500), full(500);
  Rng a(8), b(8);
  const double l1 = f->Gradient(0, x, 50, a, g1);
  const double l2 = f->Gradient(0, x, 50, b, g2);
  EXPECT_EQ(l1, l2);
  EXPECT_EQ(g1, g2);
  // A "mini-batch" of the whole shard (in any order) equals the full-shard gradient.
  Rng c(9);
  f->Gradient(0, x, f->shard_size(0) - 1, c, g1);
  f->Gradient(0, x, 0, c, full);
  EXPECT_GT((g1 - full).norm(), 0.0);
  Rng d(9);
  f->Gradient(0, x, f->shard_size(0), d, g2);
  EXPECT_LT((g2 - full).norm(), 1e-12 * full.norm());
}

}  // namespace
}  // namespace commsim
