// Q-GADMM on linear regression over a chain: the nodes reach the centralised least-squares optimum
// (the model's own closed form) and every message is 32 + b d bits; the quantizer is unbiased.
#include "algorithms/decentralized/qgadmm.h"

#include <gtest/gtest.h>

#include <memory>

#include "algorithms/decentralized/test_support.h"
#include "base/error.h"
#include "compression/registry.h"
#include "models/data_source.h"
#include "models/linear_models.h"
#include "models/problem.h"
#include "models/registry.h"

namespace commsim {
namespace {

constexpr int kQgWorkers = 50;  // the paper's 50-worker chain (a smaller model and data set)
constexpr int64_t kQgFeatures = 20;

std::shared_ptr<const Objective> QgRegression() {
  ProblemSpec spec = DefaultProblemSpec();
  spec.model = ModelRegistry().DefaultSpec(kModelKind, "linear_regression");
  spec.data = DatasetRegistry().DefaultSpec(kDatasetKind, "synthetic_regression");
  auto& data = static_cast<SyntheticRegressionConfig&>(*spec.data.config);
  data.samples = 2000;  // 40 per worker
  data.features = kQgFeatures;
  return BuildProblem(spec, kQgWorkers, 5);
}

TEST(QgadmmTest, LinearRegressionReachesTheCentralisedOptimumWithTwoBitMessages) {
  const std::shared_ptr<const Objective> f = QgRegression();
  ASSERT_NE(f->optimum(), nullptr);
  const Eigen::VectorXd& xstar = f->optimum()->x;
  const MixingMatrix w = BuildMixing("ring", testing::RingNeighbours(kQgWorkers));
  const std::unique_ptr<Compressor> unused = CompressorRegistry().Make(CompressorSpec("identity"));
  NodeRuleContext ctx{
      .mixing = &w, .compressor = unused.get(), .objective = f.get(), .dim = f->dim()};
  const QgadmmConfig config;  // the paper's linear-regression set-up: closed form, b = 2, rho 24
  QgadmmRule rule(config, ctx, Eigen::VectorXd::Zero(f->dim()));
  for (int p = 0; p < kQgWorkers; ++p) EXPECT_EQ(rule.chain()[p], p);  // the ring's walk
  const int64_t per_message = 32 + 2 * kQgFeatures;
  double worst = 0;
  int64_t t = 0;
  for (; t < 12000; ++t) {  // about 7,000 are needed (linear rate, measured)
    // Every chain edge carries one message each way per iteration (heads', then tails').
    ASSERT_EQ(RunSynchronousRound(rule, w, t), 2 * (kQgWorkers - 1) * per_message);
    worst = 0;
    for (int i = 0; i < kQgWorkers; ++i) worst = std::max(worst, (rule.x(i) - xstar).norm());
    if (worst < 1e-9 * xstar.norm()) break;
  }
  EXPECT_LT(worst, 1e-8 * xstar.norm()) << "after " << t << " iterations";
  std::printf("q-gadmm: relative error %.3g after %lld iterations\n", worst / xstar.norm(),
              static_cast<long long>(t));
}

TEST(QgadmmTest, QuantizerIsUnbiasedWithinItsRange) {
  const Eigen::VectorXd v = (Eigen::VectorXd(4) << 0.3, -1.0, 0.05, 0.7).finished();
  Rng rng(1, 0, "test");
  Eigen::VectorXd mean = Eigen::VectorXd::Zero(4);
  const int draws = 20000;
  for (int k = 0; k < draws; ++k) {
    Eigen::VectorXd hat = Eigen::VectorXd::Zero(4), decoded = Eigen::VectorXd::Zero(4);
    const Message m = QuantizeDifference(v, 2, rng, hat);
    EXPECT_EQ(m.payload_bits, 32 + 2 * 4);
    DecodeDifference(m, 2, decoded);
    ASSERT_EQ(decoded, hat);  // the receiver decodes what the sender added
    // 2 bits: the levels -1, -1/3, 1/3, 1 (R = 1).
    for (int j = 0; j < 4; ++j) {
      const double level = (decoded[j] + 1.0) * 1.5;
      EXPECT_NEAR(level, std::round(level), 1e-6);
    }
    mean += decoded;
  }
  mean /= draws;
  EXPECT_LT((mean - v).lpNorm<Eigen::Infinity>(), 0.02);
}

TEST(QgadmmTest, ClosedFormRefusesANonQuadraticObjective) {
  ProblemSpec spec = DefaultProblemSpec();
  spec.model = ModelRegistry().DefaultSpec(kModelKind, "logistic_regression");
  spec.data = DatasetRegistry().DefaultSpec(kDatasetKind, "synthetic_classification");
  auto& data = static_cast<SyntheticClassificationConfig&>(*spec.data.config);
  data.classes = 2;
  const std::shared_ptr<const Objective> f = BuildProblem(spec, 4, 3);
  const MixingMatrix w = BuildMixing("ring", testing::RingNeighbours(4));
  const std::unique_ptr<Compressor> unused = CompressorRegistry().Make(CompressorSpec("identity"));
  NodeRuleContext ctx{
      .mixing = &w, .compressor = unused.get(), .objective = f.get(), .dim = f->dim()};
  try {
    QgadmmRule rule(QgadmmConfig(), ctx, Eigen::VectorXd::Zero(f->dim()));
    ADD_FAILURE() << "no error";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("needs a quadratic objective"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace commsim
