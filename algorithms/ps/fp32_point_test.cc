// The model-broadcast rules' fp32 point (model_broadcast_rule.h): with an identity fp32 downlink
// and streaming workers, SGD's workers read the downlink's fp32 words (PsRule::WorkerPoint32)
// instead of a double replica. A run that takes that path equals, bit for bit, the same run with
// verify_replicas (every worker decodes its own double copy of the downlink): every uplink, every
// downlink, the model and its loss after every round; the widened point is double(float(x_j))
// written out. A rule whose workers do not stream (QSGD), an fp64 downlink and an objective that
// cannot stream do not keep the fp32 point (or stop after the first round) and still agree.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/ps/sgd.h"
#include "algorithms/ps/worker_uplinks.h"
#include "algorithms/test_objective.h"
#include "compression/compressors/identity.h"
#include "models/synthetic_quadratic.h"

namespace commsim {
namespace {

constexpr int kPointWorkers = 5;

bool PointSameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0;
}

// f_w(x) = 1/2 ||x - w||^2: an objective without StreamFiniteGradients.
class PlainQuadratic final : public test_objective::TestObjective {
 public:
  explicit PlainQuadratic(int64_t dim) : TestObjective("plain_quadratic", dim, kPointWorkers, 10) {}
  double Gradient(int w, const Eigen::Ref<const Eigen::VectorXd>& x, int64_t, Rng&,
                  Eigen::Ref<Eigen::VectorXd> grad) const override {
    grad = x.array() - static_cast<double>(w);
    return 0;
  }
  double Loss(const Eigen::Ref<const Eigen::VectorXd>& x) const override { return x.squaredNorm(); }
};

// One rule driven as the PS driver drives it (WorkerUplinks, then the server and the workers).
struct Driven {
  // REQUIRES: setup outlives this (WorkerUplinks keeps a reference).
  Driven(const SgdConfig& config, const RunSetup& setup) : rule(config), uplinks(setup, rule) {
    const Objective& objective = *setup.objective;
    rule.Init(kPointWorkers, Eigen::VectorXd::Constant(objective.dim(), 0.25), objective);
  }
  // One round: the uplinks (returned) and the downlink (into *downlink).
  std::vector<Message> Round(double step, Message* downlink) {
    uplinks.Compute(step);
    std::vector<Message> up(kPointWorkers);
    std::vector<const Message*> run;
    for (int w = 0; w < kPointWorkers; ++w) {
      double wall_s = 0;
      up[w] = uplinks.Take(w, &wall_s);
      run.push_back(&up[w]);
    }
    rule.ServerReceiveRun(0, run);
    *downlink = rule.ServerRound(step, server);
    for (int w = 0; w < kPointWorkers; ++w) rule.WorkerReceive(w, *downlink, step);
    return up;
  }
  SgdRule rule;
  WorkerUplinks uplinks;
  Rng server{9};
};

// Plays five rounds of `config` with verify_replicas off and on; expects every message, the model
// and its loss equal bit for bit, and the fp32 point in use after round r exactly when
// fp32_after(r). `what` names the case ("fp64 downlink": identity at 64 bits).
void ExpectSameAsVerified(SgdConfig config, const Objective& objective, int threads,
                          const std::function<bool(int)>& fp32_after, const std::string& what) {
  RunSetup setup;
  setup.objective = &objective;
  setup.batch = 4;  // noisy gradients
  setup.threads = threads;
  config.verify_replicas = false;
  Driven fast(config, setup);
  config.verify_replicas = true;
  Driven verified(config, setup);
  for (int round = 0; round < 5; ++round) {
    const double step = 0.3 / (round + 1);
    Message down_fast, down_verified;
    const std::vector<Message> up_fast = fast.Round(step, &down_fast);
    const std::vector<Message> up_verified = verified.Round(step, &down_verified);
    const std::string at = what + ", round " + std::to_string(round);
    for (int w = 0; w < kPointWorkers; ++w) {
      EXPECT_EQ(up_fast[w].payload_bits, up_verified[w].payload_bits) << at << ", worker " << w;
      EXPECT_EQ(up_fast[w].words, up_verified[w].words) << at << ", worker " << w;
    }
    EXPECT_EQ(down_fast.words, down_verified.words) << at;
    EXPECT_TRUE(PointSameBits(fast.rule.Model(), verified.rule.Model())) << at;
    EXPECT_EQ(objective.Loss(fast.rule.Model()), objective.Loss(verified.rule.Model())) << at;
    EXPECT_EQ(fast.rule.WorkerPoint32(0) != nullptr, fp32_after(round)) << at;
    EXPECT_EQ(verified.rule.WorkerPoint32(0), nullptr) << at;
  }
  // The workers' point: the decoded downlink, double(float(x_j)) written out (x at 64 bits).
  const Eigen::VectorXd& x = fast.rule.Model();
  const bool fp64 = what == "fp64 downlink";
  Eigen::VectorXd expected(x.size());
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    expected[j] = fp64 ? x[j] : static_cast<double>(static_cast<float>(x[j]));
  }
  for (int w = 0; w < kPointWorkers; ++w) {
    EXPECT_TRUE(PointSameBits(fast.rule.WorkerPoint(w), expected)) << what << ", worker " << w;
    EXPECT_TRUE(PointSameBits(verified.rule.WorkerPoint(w), expected)) << what << ", worker " << w;
  }
}

SyntheticQuadratic NoisyQuadratic(int64_t dim) {
  SyntheticQuadraticConfig config;
  config.dim = dim;
  config.noise = 0.5;
  return SyntheticQuadratic(config, kPointWorkers, 3);
}

TEST(Fp32PointTest, SgdOnTheFp32PointEqualsTheVerifiedReplicasBitForBit) {
  constexpr int64_t kC = SyntheticQuadratic::kChunk;
  for (const int64_t dim : {int64_t{2500}, kC, 2 * kC + 7}) {
    const SyntheticQuadratic objective = NoisyQuadratic(dim);
    for (const int threads : {1, 2}) {
      ExpectSameAsVerified(
          SgdConfig{}, objective, threads, [](int) { return true; },
          "sgd, d " + std::to_string(dim) + ", " + std::to_string(threads) + " threads");
    }
  }
}

TEST(Fp32PointTest, RulesThatCannotUseItAgreeWithoutIt) {
  const SyntheticQuadratic objective = NoisyQuadratic(2500);
  SgdConfig qsgd;
  SgdConfig::QsgdDefaults(qsgd);  // its workers do not stream
  ExpectSameAsVerified(
      qsgd, objective, 2, [](int) { return false; }, "qsgd");
  SgdConfig fp64;
  IdentityConfig precision64;
  precision64.precision = 64;
  fp64.downlink.config = std::make_unique<IdentityConfig>(precision64);
  ExpectSameAsVerified(
      fp64, objective, 2, [](int) { return false; }, "fp64 downlink");
  SgdConfig momentum;
  momentum.momentum = 0.5;  // not the step pass
  ExpectSameAsVerified(
      momentum, objective, 2, [](int) { return false; }, "momentum");
}

// An objective that cannot stream: the workers ask for the double point in round 2, which widens
// the fp32 words; from then on the downlink decodes into the double replica.
TEST(Fp32PointTest, AnObjectiveThatCannotStreamGetsTheDoublePoint) {
  const PlainQuadratic objective(300);
  ExpectSameAsVerified(
      SgdConfig{}, objective, 2, [](int round) { return round == 0; }, "plain");
}

}  // namespace
}  // namespace commsim
