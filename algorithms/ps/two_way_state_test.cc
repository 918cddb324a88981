// Rule-level state checks of the rules that compress both directions (DORE, DoubleSqueeze): after
// one and two rounds on a hand-sized example, every state vector equals its update formula written
// out here, with compressors that are not exact so that every hyper-parameter matters.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/ps/dore.h"
#include "algorithms/ps/dore_formulas_test_util.h"
#include "algorithms/ps/doublesqueeze.h"
#include "algorithms/ps/rule_test_util.h"
#include "algorithms/registry.h"
#include "compression/compressors/scaled_sign.h"
#include "compression/compressors/top_k.h"

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
  // l1 = 1/4, and l1 = 0 (the server then forms q in its first pass).
  for (const double l1 : {0.25, 0.0}) {
    DoreConfig config;
    config.alpha = 0.25;
    config.beta = 0.5;
    config.eta = 0.5;
    DoreTrial trial(config, l1);
    DoreRule& rule = trial.rule;
    const Compressor &up = *trial.up, &down = *trial.down;
    const std::vector<std::vector<VectorXd>> grads = {{V({3, -1, 0.5, -2}), V({-1, 4, 0.25, 1})},
                                                      {V({1, 2, -3, 0.5}), V({0.5, -0.5, 2, -4})}};

    // State by the formulas: h_i = h = e = 0, x^ = x0 at start.
    DoreFormulas f({.alpha = 0.25, .beta = 0.5, .eta = 0.5, .gamma = 0.5, .l1 = l1}, 2, trial.x0);
    for (int k = 0; k < 2; ++k) {
      const std::string round = "l1 " + std::to_string(l1) + " round " + std::to_string(k + 1);
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
}

// Two rules of one config fed the same uplinks, the server taking them one by one and in one run
// (ServerReceiveRun, the driver's way): the same downlink and state bit for bit, every round.
template <class Rule, class StateOf>
void ExpectRunGivesTheBitsOfOneByOne(const typename Rule::Config& config, double l1,
                                     const StateOf& state_of, const std::string& what) {
  constexpr int64_t kDim = 5003;
  constexpr int kWorkers = 3;
  const VectorXd x0 = VectorXd::LinSpaced(kDim, -1.0, 2.0);
  RuleTrial<Rule> one_by_one(config, kWorkers, x0, l1), in_a_run(config, kWorkers, x0, l1);
  for (int k = 0; k < 3; ++k) {
    std::vector<Message> uplinks;
    std::vector<const Message*> run;
    for (int w = 0; w < kWorkers; ++w) {
      VectorXd grad = VectorXd::LinSpaced(kDim, w - 1.5 * k, 0.7 * w + k).array().sin();
      VectorXd copy = grad;
      Rng a(k, w, "uplink"), b(k, w, "uplink");
      uplinks.push_back(one_by_one.rule.WorkerEncode(w, grad, 0.3, a));
      ASSERT_EQ(in_a_run.rule.WorkerEncode(w, copy, 0.3, b).words, uplinks.back().words) << what;
    }
    for (int w = 0; w < kWorkers; ++w) {
      one_by_one.rule.ServerReceive(w, uplinks[w]);
      run.push_back(&uplinks[w]);
    }
    in_a_run.rule.ServerReceiveRun(0, run);
    Rng a(k, 9, "downlink"), b(k, 9, "downlink");
    const std::string round = what + " l1 " + std::to_string(l1) + " round " + std::to_string(k);
    EXPECT_EQ(one_by_one.rule.ServerRound(0.3, a).words, in_a_run.rule.ServerRound(0.3, b).words)
        << round;
    const std::vector<VectorXd> expected = state_of(one_by_one.rule), got = state_of(in_a_run.rule);
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_TRUE(BitEqual(got[i], expected[i])) << round << " state " << i;
    }
    std::map<std::string, double> extra_expected, extra_got;
    one_by_one.rule.Extra(extra_expected);
    in_a_run.rule.Extra(extra_got);
    EXPECT_EQ(extra_got, extra_expected) << round;
  }
}

// block_ternary links of block `block` and `coding` both ways.
DoreConfig DoreWithTernary(int64_t block, const std::string& coding) {
  DoreConfig config;
  for (ComponentSpec* spec : {&config.uplink, &config.downlink}) {
    *spec = TernarySpec(block);
    static_cast<BlockTernaryConfig&>(*spec->config).coding = coding;
  }
  return config;
}

// The default links (block_ternary fixed2, blocks of 256), long blocks (the sum in the scratch),
// the entropy coding and top_k uplinks (the default sum), with and without a prox.
TEST(DoreStateTest, UplinksTakenInOneRunGiveTheBitsOfOneByOne) {
  DoreConfig top_k_up;
  top_k_up.uplink = CompressorSpec("top_k");
  const std::vector<std::pair<DoreConfig, std::string>> configs = {
      {DoreConfig(), "default"},
      {DoreWithTernary(3000, "packed"), "packed b=3000"},
      {DoreWithTernary(100, "sparse"), "sparse b=100"},
      {DoreWithTernary(256, "entropy"), "entropy"},
      {top_k_up, "top_k up"}};
  const auto state_of = [](const DoreRule& r) {
    return std::vector<VectorXd>{r.Model(), r.server_xhat(), r.server_shift(), r.error()};
  };
  for (const auto& [config, what] : configs) {
    for (const double l1 : {0.0, 0.01}) {
      ExpectRunGivesTheBitsOfOneByOne<DoreRule>(config, l1, state_of, what);
    }
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

// DoubleSqueeze with block_ternary uplinks (their fused sum) and its default top_k.
TEST(DoubleSqueezeStateTest, UplinksTakenInOneRunGiveTheBitsOfOneByOne) {
  DoubleSqueezeConfig ternary_up;
  ternary_up.uplink = TernarySpec(256);
  ternary_up.contractive_scale = 0.3;
  const auto state_of = [](const DoubleSqueezeRule& r) {
    return std::vector<VectorXd>{r.Model(), r.server_error()};
  };
  ExpectRunGivesTheBitsOfOneByOne<DoubleSqueezeRule>(ternary_up, 0.01, state_of, "ternary up");
  ExpectRunGivesTheBitsOfOneByOne<DoubleSqueezeRule>(DoubleSqueezeConfig(), 0.0, state_of, "top_k");
}

}  // namespace
}  // namespace commsim::testing
