// Rule-level state checks of the rules that broadcast the model (SGD/QSGD, MEM-SGD, DIANA): after
// one and two rounds on a hand-sized example, every state vector equals its update formula written
// out here, with compressors that are not exact so that the hyper-parameters matter.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include "algorithms/ps/diana.h"
#include "algorithms/ps/memsgd.h"
#include "algorithms/ps/rule_test_util.h"
#include "algorithms/ps/sgd.h"
#include "algorithms/registry.h"
#include "compression/compressors/identity.h"
#include "compression/compressors/qsgd.h"
#include "compression/compressors/scaled_sign.h"
#include "compression/compressors/top_k.h"

// In the namespace of the rule-test helpers (rule_test_util.h), which the tests use unqualified.
namespace commsim::testing {
namespace {

using Eigen::VectorXd;

ComponentSpec TopKSpec(int64_t k) {
  ComponentSpec spec = CompressorSpec("top_k");
  static_cast<TopKConfig&>(*spec.config).k = k;
  return spec;
}

// SGD with a qsgd uplink: s = 3 levels, buckets of 2, fixed coding.
SgdConfig QsgdFixed3() {
  SgdConfig config;
  config.uplink = CompressorSpec("qsgd");
  auto& qsgd = static_cast<QsgdConfig&>(*config.uplink.config);
  qsgd.levels = 3;
  qsgd.bucket = 2;
  qsgd.coding = "fixed";
  return config;
}

// The server's fp32 broadcast of x, as every worker must hold it.
VectorXd Fp32(const VectorXd& x) { return x.cast<float>().cast<double>(); }

// The server's model is x and each of the `workers` holds its fp32 broadcast.
void ExpectModel(const PsRule& rule, const VectorXd& x, int workers) {
  EXPECT_EQ(rule.Model(), x);
  for (int w = 0; w < workers; ++w) EXPECT_EQ(rule.WorkerPoint(w), Fp32(x)) << "worker " << w;
}

TEST(DianaStateTest, ShiftsServerShiftAndModelFollowTheFormulasWithTopTwo) {
  // d = 4, n = 2, Q = top-2 (ties: lower index), alpha = 1/4, gamma = 1/2, momentum mu = 1/2,
  // l1 = 1/4 (prox threshold gamma l1 = 1/8). Every number is dyadic, so equality is exact.
  DianaConfig config;
  config.uplink = TopKSpec(2);
  config.alpha = 0.25;
  config.momentum = 0.5;
  DianaRule rule(config);
  const ProxOnlyObjective objective(4, 0.25);
  const double alpha = 0.25, gamma = 0.5, mu = 0.5, threshold = 0.125;
  VectorXd x = V({1, -1, 0.5, 2});
  rule.Init(2, x, objective);
  const auto q = CompressorRegistry().Make(config.uplink);

  // Round 1. h_i = h = 0, v = 0, so Delta_i = g_i.
  VectorXd g0 = V({3, -1, 0.5, -2}), g1 = V({-1, 4, 0.25, 1});
  PlayedRound r = Play(rule, {g0, g1}, gamma, 1);
  VectorXd q0 = SentQ(*q, r.uplinks[0], g0, r.uplink_rngs[0], "worker 0");
  VectorXd q1 = SentQ(*q, r.uplinks[1], g1, r.uplink_rngs[1], "worker 1");
  EXPECT_EQ(q0, V({3, 0, 0, -2}));
  EXPECT_EQ(q1, V({-1, 4, 0, 0}));                       // |-1| = |1|: the lower index wins
  EXPECT_EQ(r.uplinks[0].payload_bits, 2 * 32 + 2 * 2);  // k fp32 values + k ceil(log2 4) bits
  VectorXd h0 = alpha * q0, h1 = alpha * q1;             // h_i <- h_i + alpha Q(Delta_i)
  EXPECT_EQ(rule.shift(0), h0);
  EXPECT_EQ(rule.shift(1), h1);
  VectorXd mean = (q0 + q1) / 2;  // (1, 2, 0, -1)
  VectorXd g_hat = mean;          // g^ = h + Delta^ with h = 0
  VectorXd h = alpha * mean;      // h <- h + alpha Delta^
  VectorXd v = g_hat;             // v <- mu v + g^
  x = Soft(x - gamma * v, threshold);
  EXPECT_EQ(x, V({0.375, -1.875, 0.375, 2.375}));
  EXPECT_EQ(rule.server_shift(), h);
  ExpectModel(rule, x, 2);

  // Round 2: the shifts are subtracted before compressing.
  g0 = V({1, 2, -3, 0.5});
  g1 = V({0.5, -0.5, 2, -4});
  r = Play(rule, {g0, g1}, gamma, 2);
  const VectorXd d0 = g0 - h0, d1 = g1 - h1;
  q0 = SentQ(*q, r.uplinks[0], d0, r.uplink_rngs[0], "worker 0");
  q1 = SentQ(*q, r.uplinks[1], d1, r.uplink_rngs[1], "worker 1");
  EXPECT_EQ(q0, V({0, 2, -3, 0}));
  EXPECT_EQ(q1, V({0, 0, 2, -4}));
  h0 += alpha * q0;
  h1 += alpha * q1;
  EXPECT_EQ(rule.shift(0), h0);
  EXPECT_EQ(rule.shift(1), h1);
  mean = (q0 + q1) / 2;
  g_hat = h + mean;  // the old h
  h += alpha * mean;
  v = mu * v + g_hat;
  x = Soft(x - gamma * v, threshold);
  EXPECT_EQ(x, V({0, -3, 0.5, 3.625}));
  EXPECT_EQ(rule.server_shift(), h);
  ExpectModel(rule, x, 2);
  EXPECT_EQ(ExtraOf(rule, "grad_residual_sq"), (d0.squaredNorm() + d1.squaredNorm()) / 2);
}

TEST(MemSgdStateTest, MemoriesAndModelFollowTheFormulasWithScaledSign) {
  // d = 5, n = 2, C = scaled_sign (l1, blocks of 2: {0,1} {2,3} {4}), gamma = 1/2.
  MemSgdConfig config;
  config.uplink = CompressorSpec("scaled_sign");
  static_cast<ScaledSignConfig&>(*config.uplink.config).block = 2;
  MemSgdRule rule(config);
  const ProxOnlyObjective objective(5, 0.0);
  const double gamma = 0.5;
  VectorXd x = V({1, 1, 1, 1, 1});
  rule.Init(2, x, objective);
  const auto c = CompressorRegistry().Make(config.uplink);

  // Round 1: m_i = 0, p_i = gamma g_i.
  VectorXd g0 = V({2, -4, 1, 3, -2}), g1 = V({-2, 2, 6, -2, 1});
  PlayedRound r = Play(rule, {g0, g1}, gamma, 1);
  VectorXd p0 = gamma * g0, p1 = gamma * g1;
  VectorXd c0 = SentQ(*c, r.uplinks[0], p0, r.uplink_rngs[0], "worker 0");
  VectorXd c1 = SentQ(*c, r.uplinks[1], p1, r.uplink_rngs[1], "worker 1");
  // Block means of |p|: p0 = (1, -2 | 0.5, 1.5 | -1), p1 = (-1, 1 | 3, -1 | 0.5).
  EXPECT_EQ(c0, V({1.5, -1.5, 1, 1, -1}));
  EXPECT_EQ(c1, V({-1, 1, 2, -2, 0.5}));
  VectorXd m0 = p0 - c0, m1 = p1 - c1;  // m_i <- p_i - C(p_i)
  EXPECT_EQ(rule.memory(0), m0);
  EXPECT_EQ(rule.memory(1), m1);
  x -= (c0 + c1) / 2;  // x <- x - mean c_i (the step is inside the messages)
  ExpectModel(rule, x, 2);

  // Round 2: the memory is added back before compressing.
  g0 = V({1, 3, -1, -3, 4});
  g1 = V({0, -2, 2, 2, -2});
  r = Play(rule, {g0, g1}, gamma, 2);
  p0 = m0 + gamma * g0;  // (0, 1, -1, -1, 2)
  p1 = m1 + gamma * g1;  // (0, -1, 2, 2, -1)
  c0 = SentQ(*c, r.uplinks[0], p0, r.uplink_rngs[0], "worker 0");
  c1 = SentQ(*c, r.uplinks[1], p1, r.uplink_rngs[1], "worker 1");
  EXPECT_EQ(c0, V({0.5, 0.5, -1, -1, 2}));  // sign(+0) = +1
  EXPECT_EQ(c1, V({0.5, -0.5, 2, 2, -1}));
  m0 = p0 - c0;
  m1 = p1 - c1;
  EXPECT_EQ(rule.memory(0), m0);
  EXPECT_EQ(rule.memory(1), m1);
  x -= (c0 + c1) / 2;
  EXPECT_EQ(x, V({0.25, 1.25, -1, 1, 0.75}));
  ExpectModel(rule, x, 2);
  EXPECT_EQ(ExtraOf(rule, "memory_sq"), (m0.squaredNorm() + m1.squaredNorm()) / 2);
}

TEST(QsgdStateTest, MomentumAndProxApplyToTheMeanOfTheDecodedQuantizedGradients) {
  // d = 5, n = 3, Q = qsgd (s = 3, buckets of 2, fixed coding) with seeded Rngs, gamma = 1/2,
  // momentum mu = 0.6, l1 = 0.2; the downlink is the fp32 model.
  SgdConfig config = QsgdFixed3();
  config.momentum = 0.6;
  SgdRule rule(config);
  const ProxOnlyObjective objective(5, 0.2);
  const double gamma = 0.5, mu = 0.6;
  VectorXd x = V({0.3, -0.7, 1.1, 0.0, -2.0});
  rule.Init(3, x, objective);
  const auto q = CompressorRegistry().Make(config.uplink);
  const auto down = CompressorRegistry().Make(config.downlink);
  const std::vector<std::vector<VectorXd>> grads = {
      {V({1.3, -0.2, 0.7, 2.9, -1.1}), V({-0.4, 0.9, 1.6, -0.3, 0.8}),
       V({0.2, 0.1, -2.2, 1.4, 0.6})},
      {V({0.5, 1.7, -0.9, 0.4, -0.6}), V({2.1, -1.2, 0.3, 0.8, 1.9}),
       V({-1.5, 0.6, 0.2, -0.7, 1.0})}};
  VectorXd v = VectorXd::Zero(5);
  for (int k = 0; k < 2; ++k) {
    const PlayedRound r = Play(rule, grads[k], gamma, 10 + k);
    VectorXd mean = VectorXd::Zero(5);
    for (int w = 0; w < 3; ++w) {
      const VectorXd qw = SentQ(*q, r.uplinks[w], grads[k][w], r.uplink_rngs[w], "uplink");
      EXPECT_NE(qw, grads[k][w].cast<float>().cast<double>()) << "Q is exact: a weak test";
      mean += qw / 3;
    }
    v = mu * v + mean;  // heavy ball on the decoded mean
    x = Soft(x - gamma * v, gamma * 0.2);
    EXPECT_LT(MaxDiff(rule.Model(), x), 1e-12) << "round " << k;
    const VectorXd sent = SentQ(*down, r.downlink, rule.Model(), r.downlink_rng, "downlink");
    EXPECT_EQ(r.downlink.payload_bits, 32 * 5);
    for (int w = 0; w < 3; ++w) EXPECT_EQ(rule.WorkerPoint(w), sent) << w;
  }
}

TEST(QsgdStateTest, WithoutMomentumTheModelTakesTheMeanInTheSameOperationsBitForBit) {
  // d = 5, n = 3, qsgd up (s = 3, buckets of 2, fixed coding), no momentum, l1 = 0.2: per element
  // sum = ((0 + q0) + q1) + q2, x <- soft(x - gamma (sum / 3)), exactly these operations.
  const SgdConfig config = QsgdFixed3();
  SgdRule rule(config);
  const ProxOnlyObjective objective(5, 0.2);
  const double gamma = 0.5;
  VectorXd x = V({0.3, -0.7, 1.1, 0.0, -2.0});
  rule.Init(3, x, objective);
  EXPECT_FALSE(rule.ModelKnownFinite());
  const auto q = CompressorRegistry().Make(config.uplink);
  const std::vector<VectorXd> grads = {V({1.3, -0.2, 0.7, 2.9, -1.1}),
                                       V({-0.4, 0.9, 1.6, -0.3, 0.8}),
                                       V({0.2, 0.1, -2.2, 1.4, 0.6})};
  for (int k = 0; k < 2; ++k) {
    const PlayedRound r = Play(rule, grads, gamma, 20 + k);
    VectorXd sum = VectorXd::Zero(5);
    for (int w = 0; w < 3; ++w) {
      const VectorXd qw = SentQ(*q, r.uplinks[w], grads[w], r.uplink_rngs[w], "uplink");
      for (int j = 0; j < 5; ++j) sum[j] = sum[j] + 1.0 * qw[j];
    }
    for (int j = 0; j < 5; ++j) x[j] = x[j] - gamma * (sum[j] / 3.0);
    x = Soft(x, gamma * 0.2);
    ExpectModel(rule, x, 3);
    EXPECT_TRUE(rule.ModelKnownFinite()) << "round " << k;
  }
}

// Without a prox, the identity downlink is written as the step makes x (one pass): the message is
// still the fp32 wire format of the new x, written out here, and every worker's model its fp32
// values. d = 1100 spans several of the server's chunks and a partial one; both ways of taking
// the uplinks (one by one, and in one run).
TEST(QsgdStateTest, WithoutAProxTheBroadcastIsTheSteppedModelOnTheWire) {
  const ProxOnlyObjective objective(1100, 0.0);
  const double gamma = 0.3;
  for (const bool in_a_run : {false, true}) {
    SgdRule rule{SgdConfig{}};
    VectorXd x = VectorXd::LinSpaced(1100, -1.0, 2.0);
    rule.Init(3, x, objective);
    for (int k = 0; k < 2; ++k) {
      std::vector<VectorXd> grads;
      for (int w = 0; w < 3; ++w) grads.push_back(VectorXd::LinSpaced(1100, w - k, 0.7 * w + k));
      std::vector<Message> uplinks;
      std::vector<const Message*> run;
      for (int w = 0; w < 3; ++w) {
        Rng rng(k, w, "uplink");
        VectorXd grad = grads[w];
        uplinks.push_back(rule.WorkerEncode(w, grad, gamma, rng));
      }
      for (int w = 0; w < 3; ++w) {
        run.push_back(&uplinks[w]);
        if (!in_a_run) rule.ServerReceive(w, uplinks[w]);
      }
      if (in_a_run) rule.ServerReceiveRun(0, run);
      Rng server(k, 9, "downlink");
      const Message down = rule.ServerRound(gamma, server);
      for (int j = 0; j < 1100; ++j) {
        double sum = 0.0;
        for (int w = 0; w < 3; ++w) sum = sum + 1.0 * Fp32(grads[w])[j];
        x[j] = x[j] - gamma * (sum / 3.0);
      }
      ExpectModel(rule, x, 3);
      ASSERT_EQ(down.payload_bits, 32 * 1100);
      for (int j = 0; j < 1100; ++j) {
        const uint64_t bits = std::bit_cast<uint32_t>(static_cast<float>(x[j]));
        ASSERT_EQ((down.words[j / 2] >> (32 * (j % 2))) & 0xFFFFFFFFu, bits) << "element " << j;
      }
    }
  }
}

// A step that overflows: the round's step finds x not finite, and the broadcast refuses it.
TEST(QsgdStateTest, AModelThatOverflowsIsNotKnownFiniteAndIsNotBroadcast) {
  const ProxOnlyObjective objective(3, 0.0);
  SgdConfig config;
  config.uplink = CompressorSpec("identity");  // at 64 bits: values beyond fp32 reach the server
  static_cast<IdentityConfig&>(*config.uplink.config).precision = 64;
  SgdRule rule(config);
  rule.Init(2, V({1.0, 2.0, 3.0}), objective);
  Play(rule, {V({1.0, 1.0, 1.0}), V({0.5, 0.5, 0.5})}, 0.1, 1);
  EXPECT_TRUE(rule.ModelKnownFinite());
  EXPECT_THROW(Play(rule, {V({1.0, 1e308, 1.0}), V({0.5, 1e308, 0.5})}, -10.0, 2), NonFiniteError);
  EXPECT_FALSE(rule.ModelKnownFinite());
}

// The server taking every uplink of the round in one run (kept, decoded in its step pass) gives
// the bits of taking them one by one, with identity (its fused pass) and qsgd (the default).
TEST(QsgdStateTest, UplinksTakenInOneRunGiveTheBitsOfOneByOne) {
  SgdConfig identity_up;
  for (const SgdConfig& config : {identity_up, QsgdFixed3()}) {
    SgdRule one_by_one(config), in_a_run(config);
    const ProxOnlyObjective objective(1100, 0.0);
    const VectorXd x0 = VectorXd::LinSpaced(1100, -1.0, 2.0);
    one_by_one.Init(3, x0, objective);
    in_a_run.Init(3, x0, objective);
    for (int k = 0; k < 2; ++k) {
      std::vector<Message> uplinks;
      std::vector<const Message*> run;
      for (int w = 0; w < 3; ++w) {
        Rng rng(k, w, "uplink");
        VectorXd grad = VectorXd::LinSpaced(1100, w - 1.5 * k, 0.7 * w + k);
        uplinks.push_back(one_by_one.WorkerEncode(w, grad, 0.3, rng));
      }
      for (int w = 0; w < 3; ++w) {
        one_by_one.ServerReceive(w, uplinks[w]);
        run.push_back(&uplinks[w]);
      }
      in_a_run.ServerReceiveRun(0, run);
      Rng a(k, 9, "downlink"), b(k, 9, "downlink");
      EXPECT_EQ(one_by_one.ServerRound(0.3, a).words, in_a_run.ServerRound(0.3, b).words);
      EXPECT_EQ(std::memcmp(one_by_one.Model().data(), in_a_run.Model().data(), 8 * 1100), 0);
      EXPECT_TRUE(in_a_run.ModelKnownFinite());
    }
  }
}

}  // namespace
}  // namespace commsim::testing
