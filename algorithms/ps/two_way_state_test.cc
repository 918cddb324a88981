// Rule-level state checks of the rules that compress both directions (DORE, DoubleSqueeze): after
// one and two rounds on a hand-sized example, every state vector equals its update formula written
// out here, with compressors that are not exact so that every hyper-parameter matters.
#include <gtest/gtest.h>

#include <cstring>

#include "algorithms/compressors/scaled_sign.h"
#include "algorithms/compressors/top_k.h"
#include "algorithms/ps/dore.h"
#include "algorithms/ps/dore_formulas_test_util.h"
#include "algorithms/ps/doublesqueeze.h"
#include "algorithms/ps/rule_test_util.h"
#include "algorithms/registry.h"

// In the namespace of the rule-test helpers (rule_test_util.h), which the tests use unqualified.
namespace commsim::testing {
namespace {

using Eigen::VectorXd;

bool BitEqual(const VectorXd& a, const VectorXd& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0;
}

TEST(DoreStateTest, ShiftsErrorAndReplicasFollowTheFormulasWithBlockTernary) {
  // d = 4, n = 2, Q = block_ternary p = inf (uplink blocks of 2, downlink one block of 4) with
  // seeded Rngs; alpha = 1/4, beta = 1/2, eta = 1/2 (none is 1, so each one shows), gamma = 1/2,
  // l1 = 1/4.
  DoreConfig config;
  config.alpha = 0.25;
  config.beta = 0.5;
  config.eta = 0.5;
  DoreTrial trial(config, /*l1=*/0.25);
  DoreRule& rule = trial.rule;
  const Compressor &up = *trial.up, &down = *trial.down;
  const std::vector<std::vector<VectorXd>> grads = {{V({3, -1, 0.5, -2}), V({-1, 4, 0.25, 1})},
                                                    {V({1, 2, -3, 0.5}), V({0.5, -0.5, 2, -4})}};

  // State by the formulas: h_i = h = e = 0, x^ = x0 at start.
  DoreFormulas f({.alpha = 0.25, .beta = 0.5, .eta = 0.5, .gamma = 0.5, .l1 = 0.25}, 2, trial.x0);
  for (int k = 0; k < 2; ++k) {
    const std::string round = "round " + std::to_string(k + 1);
    const PlayedRound r = Play(rule, grads[k], 0.5, 20 + k);
    f.Step(r, grads[k], up, down, round);
    for (int w = 0; w < 2; ++w) {
      EXPECT_NE(f.uplink_q[w], f.deltas[w]) << round << ": Q is exact here, a weak test";
      EXPECT_EQ(rule.shift(w), f.h_w[w]) << round << " worker " << w;
    }
    EXPECT_EQ(rule.server_shift(), f.h) << round;
    EXPECT_EQ(rule.Model(), f.x) << round;
    EXPECT_EQ(rule.error(), f.e) << round;
    EXPECT_GT(f.e.norm(), 0.0) << round << ": e = 0 would leave eta untested";
    EXPECT_EQ(rule.server_xhat(), f.x_hat) << round;
    for (int w = 0; w < 2; ++w) EXPECT_TRUE(BitEqual(rule.WorkerPoint(w), f.x_hat)) << round << w;
    EXPECT_EQ(ExtraOf(rule, "model_residual_sq"), f.q.squaredNorm()) << round;
    EXPECT_EQ(ExtraOf(rule, "grad_residual_sq"), f.grad_residual_sq) << round;
  }
}

TEST(DoubleSqueezeStateTest, WorkerAndServerErrorsFollowTheFormulasWithBiasedCompressors) {
  // d = 4, n = 3, uplink top-2, downlink scaled_sign (l1, blocks of 2), contractive scale 1/2,
  // gamma = 1/2, l1 = 1/4 (every replica applies the prox too).
  DoubleSqueezeConfig config;
  config.uplink = CompressorSpec("top_k");
  static_cast<TopKConfig&>(*config.uplink.config).k = 2;
  config.downlink = CompressorSpec("scaled_sign");
  static_cast<ScaledSignConfig&>(*config.downlink.config).block = 2;
  config.contractive_scale = 0.5;
  RuleTrial<DoubleSqueezeRule> trial(config, 3, V({1, -1, 0.5, 2}), /*l1=*/0.25);
  DoubleSqueezeRule& rule = trial.rule;
  const Compressor &up = *trial.up, &down = *trial.down;
  const double s = 0.5, gamma = 0.5;
  VectorXd x = trial.x0;
  const std::vector<std::vector<VectorXd>> grads = {
      {V({3, -1, 0.5, -2}), V({-1, 4, 0.25, 1}), V({0.5, 0.5, -3, 1.5})},
      {V({1, 2, -3, 0.5}), V({0.5, -0.5, 2, -4}), V({-2, 1, 1, 0.25})}};
  std::vector<VectorXd> delta_w(3, VectorXd::Zero(4));
  VectorXd delta = VectorXd::Zero(4);
  for (int k = 0; k < 2; ++k) {
    const std::string round = "round " + std::to_string(k + 1);
    const PlayedRound r = Play(rule, grads[k], gamma, 40 + k);
    VectorXd v = delta;  // v = delta + s mean Q(v_i)
    for (int w = 0; w < 3; ++w) {
      const VectorXd v_w = grads[k][w] + delta_w[w];
      const VectorXd q = SentQ(up, r.uplinks[w], v_w, r.uplink_rngs[w], round + " uplink");
      delta_w[w] = v_w - s * q;  // delta_i <- v_i - s Q(v_i)
      EXPECT_EQ(rule.worker_error(w), delta_w[w]) << round << " worker " << w;
      v += s * q / 3;
    }
    const VectorXd q = SentQ(down, r.downlink, v, r.downlink_rng, round + " downlink");
    delta = v - s * q;  // delta <- v - s Q(v)
    x = Soft(x - gamma * s * q, gamma * 0.25);
    EXPECT_LT(MaxDiff(rule.server_error(), delta), 1e-15) << round;
    EXPECT_GT(delta.norm(), 0.0) << round;
    EXPECT_LT(MaxDiff(rule.Model(), x), 1e-15) << round;
    for (int w = 0; w < 3; ++w) EXPECT_EQ(rule.WorkerPoint(w), rule.Model()) << round << w;
    double worker_sq = 0;
    for (const VectorXd& d : delta_w) worker_sq += d.squaredNorm() / 3;
    EXPECT_NEAR(ExtraOf(rule, "worker_error_sq"), worker_sq, 1e-14) << round;
    EXPECT_NEAR(ExtraOf(rule, "server_error_sq"), delta.squaredNorm(), 1e-14) << round;
  }
}

}  // namespace
}  // namespace commsim::testing
