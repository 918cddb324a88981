// precision: "float32" for the per-worker state of the parameter-server rules: after one and two
// rounds on a hand-sized example every stored state vector equals its update formula computed in
// double and rounded to float (written out here), while the server's state follows the double
// formulas fed with those rounded values. The hyper-parameters are not dyadic (0.1), so the float
// rounding shows: each test also checks that the stored value differs from the unrounded one.
#include <gtest/gtest.h>

#include <functional>

#include "algorithms/ps/diana.h"
#include "algorithms/ps/dore.h"
#include "algorithms/ps/dore_formulas_test_util.h"
#include "algorithms/ps/doublesqueeze.h"
#include "algorithms/ps/memsgd.h"
#include "algorithms/ps/rule_test_util.h"
#include "algorithms/registry.h"
#include "compression/compressors/top_k.h"

// In the namespace of the rule-test helpers (rule_test_util.h), which the tests use unqualified.
namespace commsim::testing {
namespace {

using Eigen::VectorXd;

// The float the state is stored in, read back as double.
VectorXd Round(const VectorXd& v) { return v.cast<float>().cast<double>(); }

// Stores `exact` as a float32 rule must (computed in double, rounded on store) into `stored`;
// whether the rounding changed it (else the test shows nothing about the precision).
bool StoreRounded(const VectorXd& exact, VectorXd& stored) {
  stored = Round(exact);
  return stored != exact;
}

ComponentSpec TopK(int64_t k) {
  ComponentSpec spec = CompressorSpec("top_k");
  static_cast<TopKConfig&>(*spec.config).k = k;
  return spec;
}

// The gradients of two workers in two rounds, d = 4; not dyadic, so float rounding shows.
std::vector<std::vector<VectorXd>> TwoRoundsOfTwoWorkers() {
  return {{V({3.3, -1.7, 0.45, -2.1}), V({-1.3, 4.1, 0.27, 1.9})},
          {V({1.1, 2.3, -3.7, 0.55}), V({0.35, -0.45, 2.9, -4.3})}};
}

TEST(PrecisionTest, DoreFloat32ShiftsAreTheDoubleUpdateRoundedToFloat) {
  DoreConfig config;
  config.alpha = 0.1;
  config.precision = "float32";
  DoreTrial trial(config, /*l1=*/0.0);
  DoreRule& rule = trial.rule;
  const Compressor &up = *trial.up, &down = *trial.down;
  const std::vector<std::vector<VectorXd>> grads = TwoRoundsOfTwoWorkers();
  // Worker shifts as stored (float values); the server's state in double.
  DoreFormulas f({.alpha = 0.1, .beta = 0.5, .eta = 0.5, .gamma = 0.3, .float32 = true}, 2,
                 trial.x0);
  for (int k = 0; k < 2; ++k) {
    const std::string round = "round " + std::to_string(k + 1);
    const PlayedRound r = Play(rule, grads[k], 0.3, 30 + k);
    f.Step(r, grads[k], up, down, round);
    for (int w = 0; w < 2; ++w) EXPECT_EQ(rule.shift(w), f.h_w[w]) << round << " worker " << w;
    EXPECT_TRUE(f.rounded) << round << ": the rounding shows in no stored value, a weak test";
    EXPECT_LT(MaxDiff(rule.server_shift(), f.h), 1e-12) << round;
    EXPECT_LT(MaxDiff(rule.Model(), f.x), 1e-12) << round;
    EXPECT_LT(MaxDiff(rule.error(), f.e), 1e-12) << round;
    EXPECT_LT(MaxDiff(rule.server_xhat(), f.x_hat), 1e-12) << round;
  }
}

TEST(PrecisionTest, DianaFloat32ShiftsAreTheDoubleUpdateRoundedToFloat) {
  DianaConfig config;
  config.uplink = TopK(2);
  config.alpha = 0.1;
  config.precision = "float32";
  RuleTrial<DianaRule> trial(config, 2, V({1, -1, 0.5, 2}), /*l1=*/0.0);
  DianaRule& rule = trial.rule;
  const Compressor& q = *trial.up;
  const double alpha = 0.1, gamma = 0.3;
  VectorXd x = trial.x0;
  const std::vector<std::vector<VectorXd>> grads = TwoRoundsOfTwoWorkers();
  std::vector<VectorXd> h_w(2, VectorXd::Zero(4));
  VectorXd h = VectorXd::Zero(4);
  for (int k = 0; k < 2; ++k) {
    const std::string round = "round " + std::to_string(k + 1);
    const PlayedRound r = Play(rule, grads[k], gamma, 40 + k);
    VectorXd mean = VectorXd::Zero(4);
    bool rounded = false;  // the rounding shows in some stored value (else a weak test)
    for (int w = 0; w < 2; ++w) {
      const VectorXd delta = grads[k][w] - h_w[w];
      const VectorXd qw = SentQ(q, r.uplinks[w], delta, r.uplink_rngs[w], round + " uplink");
      rounded |= StoreRounded(h_w[w] + alpha * qw, h_w[w]);
      EXPECT_EQ(rule.shift(w), h_w[w]) << round << " worker " << w;
      mean += qw / 2;
    }
    EXPECT_TRUE(rounded) << round;
    const VectorXd g_hat = h + mean;
    h += alpha * mean;
    x -= gamma * g_hat;
    EXPECT_LT(MaxDiff(rule.server_shift(), h), 1e-12) << round;
    EXPECT_LT(MaxDiff(rule.Model(), x), 1e-12) << round;
  }
}

// Two rounds of a float32 error-memory rule (2 workers, d = 3, uplink top-1, gamma = 0.1): each
// worker sends Q(p_i) with p_i = input(g_i, m_i) computed from its stored float memory m_i, then
// stores m_i = keep(p_i, Q(p_i)) rounded to float; `stored(w)` is the rule's copy of m_w.
template <class Rule>
void ExpectMemoriesAreTheFormulaRoundedToFloat(
    typename Rule::Config config, uint64_t seed,
    const std::function<VectorXd(const VectorXd& g, const VectorXd& m)>& input,
    const std::function<VectorXd(const VectorXd& p, const VectorXd& q)>& keep,
    const std::function<VectorXd(const Rule&, int w)>& stored) {
  config.uplink = TopK(1);
  config.precision = "float32";
  RuleTrial<Rule> trial(config, 2, V({0, 0, 0}), /*l1=*/0.0);
  const std::vector<std::vector<VectorXd>> grads = {{V({3.3, -1.7, 0.45}), V({-1.3, 4.1, 0.27})},
                                                    {V({1.1, 2.3, -3.7}), V({0.35, -0.45, 2.9})}};
  std::vector<VectorXd> m(2, VectorXd::Zero(3));
  for (int k = 0; k < 2; ++k) {
    const PlayedRound r = Play(trial.rule, grads[k], 0.1, seed + k);
    bool rounded = false;  // the rounding shows in some stored value (else a weak test)
    for (int w = 0; w < 2; ++w) {
      const VectorXd p = input(grads[k][w], m[w]);
      const VectorXd qw = SentQ(*trial.up, r.uplinks[w], p, r.uplink_rngs[w], "uplink");
      rounded |= StoreRounded(keep(p, qw), m[w]);
      EXPECT_EQ(stored(trial.rule, w), m[w]) << "round " << k << " worker " << w;
    }
    EXPECT_TRUE(rounded) << "round " << k;
  }
}

TEST(PrecisionTest, MemSgdFloat32MemoriesAreTheResidualRoundedToFloat) {
  // p_i = m_i + gamma g_i, m_i <- p_i - Q(p_i).
  ExpectMemoriesAreTheFormulaRoundedToFloat<MemSgdRule>(
      MemSgdConfig{}, 50,
      [](const VectorXd& g, const VectorXd& m) { return VectorXd(m + 0.1 * g); },
      [](const VectorXd& p, const VectorXd& q) { return VectorXd(p - q); },
      [](const MemSgdRule& rule, int w) { return rule.memory(w); });
}

TEST(PrecisionTest, DoubleSqueezeFloat32ErrorsAreTheScaledResidualRoundedToFloat) {
  // v_i = g_i + delta_i, delta_i <- v_i - 0.5 Q(v_i) (contractive scale 1/2: a wrong weight shows).
  DoubleSqueezeConfig config;
  config.contractive_scale = 0.5;
  ExpectMemoriesAreTheFormulaRoundedToFloat<DoubleSqueezeRule>(
      config, 70, [](const VectorXd& g, const VectorXd& delta) { return VectorXd(g + delta); },
      [](const VectorXd& v, const VectorXd& q) { return VectorXd(v - 0.5 * q); },
      [](const DoubleSqueezeRule& rule, int w) { return rule.worker_error(w); });
}

// The default keeps the state in double: the same DORE step stores the unrounded shift.
TEST(PrecisionTest, Float64IsTheDefaultAndStoresTheUnroundedShift) {
  DoreConfig config;
  EXPECT_EQ(config.precision, "float64");
  config.uplink = TopK(2);
  config.alpha = 0.1;
  RuleTrial<DoreRule> trial(config, 1, V({0, 0, 0, 0}), /*l1=*/0.0);
  const VectorXd g = V({3.3, -1.7, 0.45, -2.1});
  const PlayedRound r = Play(trial.rule, {g}, 0.3, 60);
  const VectorXd exact = 0.1 * SentQ(*trial.up, r.uplinks[0], g, r.uplink_rngs[0], "uplink");
  EXPECT_NE(Round(exact), exact);
  EXPECT_EQ(trial.rule.shift(0), exact);
}

}  // namespace
}  // namespace commsim::testing
