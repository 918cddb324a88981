// Rule-level state checks of the decentralized rules: CHOCO-SGD's public copies x-hat, their
// replicas, s_i and the consensus step; MALCOM's proximal step with its decreasing step size;
// D-PSGD's mixing. Three nodes on a path 0 - 1 - 2, so the Metropolis weights are not uniform:
//   W = [2/3 1/3 0; 1/3 1/3 1/3; 0 1/3 2/3]   (w_ij = 1/(1 + max(deg_i, deg_j)), w_ii = 1 - sum).
// Every state vector after two rounds is compared with its update formula written out here, with
// compressors that are not exact; Q(v) is re-encoded from the node's documented Rng stream
// (seed, node, "compress") and the message the rule sent must be exactly those bits.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>

#include "algorithms/decentralized/choco.h"
#include "algorithms/decentralized/dpsgd.h"
#include "algorithms/decentralized/test_support.h"
#include "algorithms/registry.h"
#include "compression/compressors/block_ternary.h"
#include "compression/compressors/dithered.h"
#include "compression/compressors/qsgd.h"

namespace commsim {
namespace {

using Eigen::VectorXd;

constexpr int kNodes = 3;
constexpr int kDim = 4;
constexpr uint64_t kSeed = 5;
const double kW[kNodes][kNodes] = {
    {2.0 / 3, 1.0 / 3, 0.0}, {1.0 / 3, 1.0 / 3, 1.0 / 3}, {0.0, 1.0 / 3, 2.0 / 3}};

MixingMatrix Path() { return BuildMixing("metropolis", {{1}, {0, 2}, {1}}); }

VectorXd V(double a, double b, double c, double d) {
  return (VectorXd(4) << a, b, c, d).finished();
}

std::vector<VectorXd> Starts() { return {V(1, -1, 0.5, 2), V(0, 2, -1, 1), V(-2, 0.5, 1, -1)}; }

VectorXd Soft(const VectorXd& v, double t) {
  VectorXd out(v.size());
  for (Eigen::Index j = 0; j < v.size(); ++j) {
    const double a = std::abs(v[j]) - t;
    out[j] = a > 0 ? std::copysign(a, v[j]) : 0.0;
  }
  return out;
}

// The three nodes on the path with the compressor of `spec` and the quadratic of `objective_seed`,
// and a rule context pointing at them (seed kSeed); each test sets its step and prox on `ctx`.
struct PathTrial {
  PathTrial(const ComponentSpec& spec, uint64_t objective_seed)
      : w(Path()),
        q(CompressorRegistry().Make(spec)),
        f(kNodes, kDim, objective_seed),
        ctx{.mixing = &w, .compressor = q.get(), .objective = &f, .dim = kDim} {
    ctx.seed = kSeed;
  }
  PathTrial(const PathTrial&) = delete;  // ctx points into this
  PathTrial& operator=(const PathTrial&) = delete;

  const MixingMatrix w;
  const std::unique_ptr<Compressor> q;
  const testing::QuadraticObjective f;
  NodeRuleContext ctx;
};

// Step every node, deliver every message, combine every node; returns the messages sent.
std::vector<Message> PlayRound(NodeRule& rule, const MixingMatrix& w, int64_t t) {
  std::vector<Message> sent;
  for (int i = 0; i < kNodes; ++i) sent.push_back(rule.Step(i, t, 0));
  for (int i = 0; i < kNodes; ++i) {
    for (size_t k = 0; k < w.neighbours(i).size(); ++k) {
      rule.Deliver(i, static_cast<int>(k), sent[w.neighbours(i)[k]]);
    }
  }
  for (int i = 0; i < kNodes; ++i) rule.Combine(i, t);
  return sent;
}

// Q(v) encoded from `stream` (advanced); expects `sent` to be exactly that message.
VectorXd SentQ(const Compressor& q, const Message& sent, const VectorXd& v, Rng& stream,
               const std::string& what) {
  const Message expected = q.Encode(v, stream);
  EXPECT_EQ(sent.words, expected.words) << what << ": the rule compressed another vector";
  EXPECT_EQ(sent.payload_bits, expected.payload_bits) << what;
  VectorXd out(v.size());
  q.Decode(expected, out);
  EXPECT_NE(out, v) << what << ": Q is exact here, a weak test";
  return out;
}

VectorXd Gradient(const Objective& f, int node, const VectorXd& x) {
  VectorXd g(x.size());
  Rng unused(0);
  f.Gradient(node, x, 0, unused, g);
  return g;
}

// CHOCO-SGD by its formulas over `rounds` rounds, checked against `rule` (made from p.ctx) after
// each one, with W, Q and f from `p`:
//   x_half = x_i - gamma_t grad_i(x_i); q_i = Q(x_half - x-hat_i) / tau; x-hat_i += q_i;
//   replica_i(x-hat_j) += q_j; s_i = sum_j w_ij x-hat_j (j = i and its neighbours);
//   x_i = x_half + gamma_c (s_i - x-hat_i), then soft_threshold(x_i, gamma_t lambda).
void ExpectChocoFormulas(ChocoRule& rule, const PathTrial& p, double gamma_c, double tau,
                         double lambda, const std::function<double(int)>& gamma, int rounds) {
  const MixingMatrix& w = p.w;
  std::vector<VectorXd> x = Starts();
  for (int i = 0; i < kNodes; ++i) rule.SetX(i, x[i]);
  std::vector<VectorXd> x_hat(kNodes, VectorXd::Zero(kDim));
  std::vector<Rng> streams;
  for (int i = 0; i < kNodes; ++i) streams.emplace_back(kSeed, i, "compress");
  for (int t = 0; t < rounds; ++t) {
    const std::string round = "round " + std::to_string(t);
    const std::vector<Message> sent = PlayRound(rule, w, t);
    std::vector<VectorXd> x_half(kNodes);
    for (int i = 0; i < kNodes; ++i) {
      x_half[i] = x[i] - gamma(t) * Gradient(p.f, i, x[i]);
      x_hat[i] += SentQ(*p.q, sent[i], x_half[i] - x_hat[i], streams[i], round) / tau;
    }
    for (int i = 0; i < kNodes; ++i) {
      VectorXd s = VectorXd::Zero(kDim);
      for (int j = 0; j < kNodes; ++j) s += kW[i][j] * x_hat[j];
      x[i] = Soft(x_half[i] + gamma_c * (s - x_hat[i]), gamma(t) * lambda);
      EXPECT_LT((rule.x_hat(i) - x_hat[i]).cwiseAbs().maxCoeff(), 1e-14) << round << " node " << i;
      EXPECT_LT((rule.x(i) - x[i]).cwiseAbs().maxCoeff(), 1e-14) << round << " node " << i;
      for (size_t k = 0; k < w.neighbours(i).size(); ++k) {
        EXPECT_EQ(rule.replica(i, static_cast<int>(k)), x_hat[w.neighbours(i)[k]])
            << round << ": node " << i << "'s replica " << k;
      }
    }
  }
}

TEST(ChocoStateTest, CopiesReplicasAndConsensusStepFollowTheFormulasWithBlockTernary) {
  // Q = block_ternary p = inf, blocks of 2, seeded per node; tau = 2, gamma_c = 1/2, gamma = 1/2.
  ComponentSpec spec = CompressorSpec("block_ternary");
  static_cast<BlockTernaryConfig&>(*spec.config).block = 2;
  PathTrial p(spec, /*objective_seed=*/7);
  p.ctx.step.size = 0.5;
  ChocoRule rule(p.ctx, 0.5, VectorXd::Zero(kDim), /*tau=*/2.0);
  ExpectChocoFormulas(
      rule, p, 0.5, 2.0, 0.0, [](int) { return 0.5; }, 2);
}

TEST(MalcomStateTest, ProxStepUsesTheDecreasingStepAfterTheConsensusStep) {
  // Q = dithered (3 levels), lambda = 1/2, gamma_t = 0.8 / sqrt(t + 1), gamma_c = 0.4, tau = 1.
  ComponentSpec spec = CompressorSpec("dithered");
  static_cast<DitheredConfig&>(*spec.config).levels = 3;
  PathTrial p(spec, /*objective_seed=*/8);
  p.ctx.prox_l1 = 0.5;
  p.ctx.step.size = 0.8;
  p.ctx.step.schedule = "inv_sqrt";
  ChocoRule rule(p.ctx, 0.4, VectorXd::Zero(kDim));
  ExpectChocoFormulas(
      rule, p, 0.4, 1.0, 0.5, [](int t) { return 0.8 / std::sqrt(t + 1.0); }, 2);
  int zeros = 0;
  for (int i = 0; i < kNodes; ++i) zeros += static_cast<int>((rule.x(i).array() == 0.0).count());
  EXPECT_GT(zeros, 0) << "the prox step zeroed nothing: lambda untested";
}

TEST(DpsgdStateTest, MixesOwnModelWithNeighboursDecodedModelsAndTakesTheStepAtTheOldPoint) {
  // Q = qsgd (2 levels, one bucket, fixed coding) seeded per node; gamma_t = 0.5 / (1 + t),
  // lambda = 0.1: x_i <- soft(w_ii x_i + sum_j w_ij Q(x_j) - gamma_t grad_i(x_i), gamma_t lambda).
  ComponentSpec spec = CompressorSpec("qsgd");
  auto& cfg = static_cast<QsgdConfig&>(*spec.config);
  cfg.levels = 2;
  cfg.bucket = kDim;
  cfg.coding = "fixed";
  PathTrial p(spec, /*objective_seed=*/9);
  p.ctx.prox_l1 = 0.1;
  p.ctx.step.size = 0.5;
  p.ctx.step.schedule = "inv_time";
  p.ctx.step.decay_iterations = 1;
  DpsgdRule rule(p.ctx, VectorXd::Zero(kDim));
  std::vector<VectorXd> x = Starts();
  for (int i = 0; i < kNodes; ++i) rule.SetX(i, x[i]);
  std::vector<Rng> streams;
  for (int i = 0; i < kNodes; ++i) streams.emplace_back(kSeed, i, "compress");
  for (int t = 0; t < 2; ++t) {
    const std::string round = "round " + std::to_string(t);
    const double gamma = 0.5 / (1.0 + t);
    const std::vector<Message> sent = PlayRound(rule, p.w, t);
    std::vector<VectorXd> y(kNodes), next(kNodes);
    for (int j = 0; j < kNodes; ++j) y[j] = SentQ(*p.q, sent[j], x[j], streams[j], round);
    for (int i = 0; i < kNodes; ++i) {
      VectorXd mixed = kW[i][i] * x[i];  // a node mixes its own exact model
      for (int j = 0; j < kNodes; ++j) {
        if (j != i) mixed += kW[i][j] * y[j];
      }
      next[i] = Soft(mixed - gamma * Gradient(p.f, i, x[i]), gamma * 0.1);
      EXPECT_LT((rule.x(i) - next[i]).cwiseAbs().maxCoeff(), 1e-14) << round << " node " << i;
    }
    x = next;
  }
}

}  // namespace
}  // namespace commsim
