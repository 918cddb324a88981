// The PS rules stepped in a plain synchronous loop (no network): trajectories, invariants and
// convergence of the mathematics alone. Timing is tested through the driver in
// scenarios/ps_acceptance_test.cc.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "algorithms/ps/diana.h"
#include "algorithms/ps/dore.h"
#include "algorithms/ps/doublesqueeze.h"
#include "algorithms/ps/memsgd.h"
#include "algorithms/ps/sgd.h"
#include "algorithms/registry.h"
#include "algorithms/test_objective.h"
#include "compression/compressors/identity.h"
#include "models/objective.h"

namespace commsim {
namespace {

// f_i(x) = 1/2 sum_j lambda_j (x_j - c_ij)^2: heterogeneous optima, so each worker's gradient at
// x* = mean_i c_i is non-zero (the case where compression without variance reduction stalls).
class HeterogeneousQuadratic final : public test_objective::TestObjective {
 public:
  HeterogeneousQuadratic(int workers, int64_t dim)
      : TestObjective("test_quadratic", dim, workers, 1, 3.0 * static_cast<double>(dim)),
        lambda_(dim),
        centres_(workers) {
    Rng rng(123);
    for (int64_t j = 0; j < dim; ++j) lambda_[j] = 1.0 + 3.0 * static_cast<double>(j) / dim;
    optimum_.x = Eigen::VectorXd::Zero(dim);
    for (auto& c : centres_) {
      c.resize(dim);
      for (int64_t j = 0; j < dim; ++j) c[j] = rng.Normal();
      optimum_.x += c / workers;
    }
    optimum_.loss = Loss(optimum_.x);
  }
  double Gradient(int w, const Eigen::Ref<const Eigen::VectorXd>& x, int64_t, Rng&,
                  Eigen::Ref<Eigen::VectorXd> grad) const override {
    grad = lambda_.cwiseProduct(x - centres_[w]);
    return 0.5 * (x - centres_[w]).cwiseAbs2().dot(lambda_);
  }
  double Loss(const Eigen::Ref<const Eigen::VectorXd>& x) const override {
    double sum = 0;
    for (const auto& c : centres_) sum += 0.5 * (x - c).cwiseAbs2().dot(lambda_);
    return sum / static_cast<double>(centres_.size());
  }
  const Optimum* optimum() const override { return &optimum_; }

 private:
  Eigen::VectorXd lambda_;
  std::vector<Eigen::VectorXd> centres_;
  Optimum optimum_;
};

constexpr int kRulesWorkers = 4;
constexpr int64_t kRulesDim = 300;

struct RuleTrajectory {
  std::vector<Eigen::VectorXd> models;  // Model() after each round
  double final_dist_sq = 0;
};

// One synchronous PS loop. `each_round` may inspect the rule after every round.
template <class Check = std::nullptr_t>
RuleTrajectory Step(PsRule& rule, const Objective& objective, int rounds, double step,
                    Check each_round = {}) {
  Eigen::VectorXd x0 = Eigen::VectorXd::Zero(objective.dim());
  rule.Init(kRulesWorkers, x0, objective);
  std::vector<Rng> encode, batch;
  for (int w = 0; w < kRulesWorkers; ++w) {
    encode.emplace_back(7, w, "uplink");
    batch.emplace_back(7, w, "batch");
  }
  Rng server(7, kRulesWorkers, "downlink");
  Eigen::VectorXd grad(objective.dim());
  std::vector<Message> uplinks(kRulesWorkers);
  RuleTrajectory run;
  for (int k = 0; k < rounds; ++k) {
    for (int w = 0; w < kRulesWorkers; ++w) {
      objective.Gradient(w, rule.WorkerPoint(w), 0, batch[w], grad);
      uplinks[w] = rule.WorkerEncode(w, grad, step, encode[w]);
    }
    for (int w = 0; w < kRulesWorkers; ++w) rule.ServerReceive(w, uplinks[w]);
    const Message down = rule.ServerRound(step, server);
    for (int w = 0; w < kRulesWorkers; ++w) rule.WorkerReceive(w, down, step);
    run.models.push_back(rule.Model());
    if constexpr (!std::is_same_v<Check, std::nullptr_t>) each_round(k);
  }
  run.final_dist_sq = (rule.Model() - objective.optimum()->x).squaredNorm();
  return run;
}

ComponentSpec Exact64() {
  ComponentSpec spec = CompressorSpec("identity");
  static_cast<IdentityConfig&>(*spec.config).precision = 64;
  return spec;
}

double MaxDeviation(const RuleTrajectory& a, const RuleTrajectory& b) {
  double worst = 0;
  for (size_t k = 0; k < a.models.size(); ++k) {
    worst = std::max(worst, (a.models[k] - b.models[k]).norm());
  }
  return worst;
}

TEST(PsRulesTest, WithIdentityCompressionDoreDianaDoubleSqueezeFollowSgd) {
  const HeterogeneousQuadratic objective(kRulesWorkers, kRulesDim);
  const double step = 0.2;
  SgdConfig sgd_config;
  sgd_config.uplink = Exact64();
  sgd_config.downlink = Exact64();
  SgdRule sgd(sgd_config);
  const RuleTrajectory reference = Step(sgd, objective, 150, step);

  DoreConfig dore_config;
  dore_config.uplink = Exact64();
  dore_config.downlink = Exact64();
  dore_config.beta = 1.0;
  dore_config.eta = 1.0;
  DoreRule dore(dore_config);
  EXPECT_LE(MaxDeviation(Step(dore, objective, 150, step), reference), 1e-9);

  DianaConfig diana_config;
  diana_config.uplink = Exact64();
  diana_config.downlink = Exact64();
  DianaRule diana(diana_config);
  EXPECT_LE(MaxDeviation(Step(diana, objective, 150, step), reference), 1e-9);

  DoubleSqueezeConfig ds_config;
  ds_config.uplink = Exact64();
  ds_config.downlink = Exact64();
  DoubleSqueezeRule ds(ds_config);
  EXPECT_LE(MaxDeviation(Step(ds, objective, 150, step), reference), 1e-9);

  // And the deviation measure can fail: a different step gives a different trajectory.
  SgdRule other(sgd_config);
  EXPECT_GT(MaxDeviation(Step(other, objective, 150, 0.1), reference), 1e-3);
}

TEST(PsRulesTest, DoreModelReplicaIsBitIdenticalOnEveryWorkerAndTheServer) {
  const HeterogeneousQuadratic objective(kRulesWorkers, kRulesDim);
  DoreRule dore{DoreConfig{}};
  int checked = 0;
  Step(dore, objective, 60, 0.2, [&](int) {
    for (int w = 0; w < kRulesWorkers; ++w) {
      const Eigen::VectorXd& a = dore.WorkerPoint(w);
      const Eigen::VectorXd& b = dore.server_xhat();
      ASSERT_EQ(a.size(), b.size());
      ASSERT_EQ(std::memcmp(a.data(), b.data(), sizeof(double) * a.size()), 0) << "worker " << w;
    }
    ++checked;
  });
  EXPECT_EQ(checked, 60);
}

TEST(PsRulesTest, VarianceReducedMethodsConvergeLinearlyOthersStall) {
  const HeterogeneousQuadratic objective(kRulesWorkers, kRulesDim);
  const double step = 0.2;  // 1/L with L = max lambda = 4 would be 0.25
  SgdRule sgd{SgdConfig{}};
  DianaRule diana{DianaConfig{}};
  DoreRule dore{DoreConfig{}};
  EXPECT_LT(Step(sgd, objective, 400, step).final_dist_sq, 1e-10);
  EXPECT_LT(Step(diana, objective, 1500, step).final_dist_sq, 1e-10);
  EXPECT_LT(Step(dore, objective, 1500, step).final_dist_sq, 1e-10);

  SgdConfig qsgd_config;
  SgdConfig::QsgdDefaults(qsgd_config);
  SgdRule qsgd(qsgd_config);
  MemSgdRule memsgd{MemSgdConfig{}};
  DoubleSqueezeRule ds{DoubleSqueezeConfig{}};
  EXPECT_GT(Step(qsgd, objective, 1500, step).final_dist_sq, 1e-6);
  EXPECT_GT(Step(memsgd, objective, 1500, step).final_dist_sq, 1e-6);
  EXPECT_GT(Step(ds, objective, 1500, step).final_dist_sq, 1e-6);
}

}  // namespace
}  // namespace commsim
