// PowerGossip, plain gossip and CHOCO-Gossip as average consensus: full rank is plain gossip,
// the bits of a step follow the per-layer formula, the average is preserved and the nodes agree.
#include "algorithms/decentralized/powergossip.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "algorithms/decentralized/gossip.h"
#include "algorithms/decentralized/test_support.h"
#include "algorithms/decentralized/tune.h"
#include "compression/codec/link_compressor.h"
#include "compression/registry.h"

namespace commsim {
namespace {

constexpr int kPgNodes = 8;
constexpr int64_t kPgSide = 100;  // 100 x 100 matrices, the paper's consensus set-up

// Node i's start: i.i.d. N(0, 1).
std::vector<Eigen::VectorXd> RandomStarts(int n, int64_t dim, uint64_t seed) {
  std::vector<Eigen::VectorXd> starts;
  for (int i = 0; i < n; ++i) {
    Rng rng(seed, i, "test start");
    Eigen::VectorXd& x = starts.emplace_back(dim);
    for (int64_t j = 0; j < dim; ++j) x[j] = rng.Normal();
  }
  return starts;
}

Eigen::VectorXd Mean(const NodeRule& rule) {
  Eigen::VectorXd mean = Eigen::VectorXd::Zero(rule.x(0).size());
  for (int i = 0; i < rule.num_nodes(); ++i) mean += rule.x(i);
  return mean / rule.num_nodes();
}

double ConsensusError(const NodeRule& rule) {
  const Eigen::VectorXd mean = Mean(rule);
  double sum = 0;
  for (int i = 0; i < rule.num_nodes(); ++i) sum += (rule.x(i) - mean).squaredNorm();
  return sum / rule.num_nodes();
}

void Start(NodeRule& rule, const std::vector<Eigen::VectorXd>& starts) {
  for (int i = 0; i < rule.num_nodes(); ++i) rule.SetX(i, starts[i]);
}

struct PgSetup {
  MixingMatrix w = BuildMixing("ring", testing::RingNeighbours(kPgNodes));
  testing::ExactCompressor exact;
  NodeRuleContext Context(int64_t dim) {
    return NodeRuleContext{.mixing = &w, .compressor = &exact, .dim = dim};
  }
};

PowerGossipConfig PgConfig(int64_t rank, double gamma_c) {
  PowerGossipConfig c;
  c.rank = rank;
  c.gamma_c = gamma_c;
  return c;
}

TEST(PowerGossipTest, FullRankIsPlainGossipIterateForIterate) {
  PgSetup s;
  const int64_t dim = kPgSide * kPgSide;
  const std::vector<Eigen::VectorXd> starts = RandomStarts(kPgNodes, dim, 3);
  GossipConfig gc;
  gc.gamma_c = 1.308;
  GossipRule gossip(gc, s.Context(dim), Eigen::VectorXd::Zero(dim));
  PowerGossipRule full(PgConfig(kPgSide, 1.308), s.Context(dim), Eigen::VectorXd::Zero(dim));
  PowerGossipRule rank1(PgConfig(1, 1.308), s.Context(dim), Eigen::VectorXd::Zero(dim));
  ASSERT_EQ(full.blocks().size(), 1u);
  EXPECT_EQ(full.blocks()[0].rank, kPgSide);
  Start(gossip, starts);
  Start(full, starts);
  Start(rank1, starts);
  for (int64_t t = 0; t < 20; ++t) {
    RunSynchronousRound(gossip, s.w, t);
    RunSynchronousRound(full, s.w, t);
    RunSynchronousRound(rank1, s.w, t);
    double worst = 0, rank1_gap = 0;
    for (int i = 0; i < kPgNodes; ++i) {
      worst = std::max(worst, (full.x(i) - gossip.x(i)).lpNorm<Eigen::Infinity>());
      rank1_gap = std::max(rank1_gap, (rank1.x(i) - gossip.x(i)).lpNorm<Eigen::Infinity>());
    }
    // The projections are the identity up to Gram-Schmidt's rounding and its 1e-8 guard on the
    // column norms (which alone moves the iterates by up to ~4e-6 here; without it < 1e-6).
    EXPECT_LT(worst, 1e-4) << "step " << t;
    EXPECT_GT(rank1_gap, 1e-2) << "step " << t;  // a rank-1 projection is not the identity
  }
}

// A model with two weight matrices and three vectors: 6 x 4 weight + 6 bias, 3 x 6 weight + 3
// bias, a norm's 5 scales.
class PgLayeredObjective final : public test_objective::TestObjective {
 public:
  PgLayeredObjective() : TestObjective("pg_layers", 24 + 6 + 18 + 3 + 5, kPgNodes) {
    profile_.layers = {Layer{.name = "fc1", .params = 30, .tensors = {24, 6}, .out = 6},
                       Layer{.name = "fc2", .params = 21, .tensors = {18, 3}, .out = 3},
                       Layer{.name = "norm", .params = 5, .tensors = {5}, .out = 0}};
  }
  double Gradient(int, const Eigen::Ref<const Eigen::VectorXd>&, int64_t, Rng&,
                  Eigen::Ref<Eigen::VectorXd> grad) const override {
    grad.setZero();
    return 0;
  }
  double Loss(const Eigen::Ref<const Eigen::VectorXd>&) const override { return 0; }
  const LayerProfile* layers() const override { return &profile_; }

 private:
  LayerProfile profile_;
};

TEST(PowerGossipTest, BitsPerStepFollowTheLayerFormula) {
  PgSetup s;
  const PgLayeredObjective objective;
  const std::unique_ptr<Compressor> fp32 = MakeLinkCompressor(CompressorSpec("identity"));
  NodeRuleContext ctx = s.Context(objective.dim());
  ctx.compressor = fp32.get();
  ctx.objective = &objective;
  for (const int64_t rank : {1, 2, 5}) {
    PowerGossipConfig c = PgConfig(rank, 1.0);
    c.iterations = 3;
    PowerGossipRule rule(c, ctx, Eigen::VectorXd::Zero(objective.dim()));
    Start(rule, RandomStarts(kPgNodes, objective.dim(), 5));
    // r' = min(r, m, n): fc1 is 6 x 4, fc2 3 x 6. d_vec = 6 + 3 + 5 = 14.
    const int64_t r1 = std::min<int64_t>(rank, 4), r2 = std::min<int64_t>(rank, 3);
    const int64_t odd = r1 * 6 + r2 * 3, even = r1 * 4 + r2 * 6, dvec = 14;
    const int64_t messages = kPgNodes * 2;  // one per neighbour on the ring
    // Step 0: tau = 1, 2, 3 (odd, even, odd); step 1: tau = 4, 5, 6 (even, odd, even); the
    // vectors ride in each step's first exchange.
    EXPECT_EQ(RunSynchronousRound(rule, s.w, 0), messages * 32 * (odd + dvec + even + odd))
        << "rank " << rank;
    EXPECT_EQ(RunSynchronousRound(rule, s.w, 1), messages * 32 * (even + dvec + odd + even))
        << "rank " << rank;
  }
}

TEST(PowerGossipTest, GossipAndPowerGossipKeepTheAverageAndAgreeOnAnEightRing) {
  PgSetup s;
  const int64_t dim = kPgSide * kPgSide;
  const std::vector<Eigen::VectorXd> starts = RandomStarts(kPgNodes, dim, 7);
  GossipConfig gc;
  gc.gamma_c = 1.308;
  std::vector<std::unique_ptr<NodeRule>> rules;
  rules.push_back(std::make_unique<GossipRule>(gc, s.Context(dim), Eigen::VectorXd::Zero(dim)));
  rules.push_back(std::make_unique<PowerGossipRule>(PgConfig(1, 1.308), s.Context(dim),
                                                    Eigen::VectorXd::Zero(dim)));
  rules.push_back(std::make_unique<PowerGossipRule>(PgConfig(1, 1.0), s.Context(dim),
                                                    Eigen::VectorXd::Zero(dim)));
  Eigen::VectorXd mean0 = Eigen::VectorXd::Zero(dim);
  for (const Eigen::VectorXd& x : starts) mean0 += x;
  mean0 /= kPgNodes;
  for (size_t r = 0; r < rules.size(); ++r) {
    Start(*rules[r], starts);
    const double e0 = ConsensusError(*rules[r]);
    int64_t t = 0;
    // Rank 1 needs about 5,800 steps at gamma_c 1.308 and 7,300 at 1 (measured; linear rate).
    while (t < 10000 && ConsensusError(*rules[r]) >= 1e-10)
      RunSynchronousRound(*rules[r], s.w, t++);
    EXPECT_LT(ConsensusError(*rules[r]), 1e-10) << "rule " << r << " after " << t << " steps";
    EXPECT_LT((Mean(*rules[r]) - mean0).norm(), 1e-12 * mean0.norm()) << "rule " << r;
    RecordProperty("steps_" + std::to_string(r), static_cast<int>(t));
    std::printf("rule %zu: %lld steps from %.3g to %.3g\n", r, static_cast<long long>(t), e0,
                ConsensusError(*rules[r]));
  }
}

TEST(ChocoGossipTest, ConvergesAtItsTunedStepWithTopK) {
  PgSetup s;
  const int64_t dim = 200;
  const testing::TopKCompressor top_k(20);  // 10%: a contraction (biased, no rescaling)
  TuneOptions tune;
  tune.dim = dim;
  tune.rounds = 300;
  const ConsensusTuning tuned = TuneConsensus(s.w, top_k, tune);
  ChocoGossipConfig c;
  c.gamma_c = tuned.best_gamma();
  NodeRuleContext ctx = s.Context(dim);
  ctx.compressor = &top_k;
  ChocoGossipRule rule(c, ctx, Eigen::VectorXd::Zero(dim));
  const std::vector<Eigen::VectorXd> starts = RandomStarts(kPgNodes, dim, 11);
  Start(rule, starts);
  const Eigen::VectorXd mean0 = Mean(rule);
  const double e0 = ConsensusError(rule);
  for (int64_t t = 0; t < 3000; ++t) RunSynchronousRound(rule, s.w, t);
  EXPECT_LT(ConsensusError(rule), 1e-8 * e0) << "gamma_c " << c.gamma_c;
  EXPECT_LT((Mean(rule) - mean0).norm(), 1e-12 * mean0.norm());
  std::printf("choco_gossip top-10%%: gamma_c %.3g, error %.3g -> %.3g\n", c.gamma_c, e0,
              ConsensusError(rule));
}

// Without warm start the factors are redrawn every half-iteration (from the edge's shared stream,
// so the average is still kept), and the power iteration does not accumulate: after the same
// steps the nodes agree less. Two half-iterations a step agree more than one.
TEST(PowerGossipTest, WarmStartAndMoreIterationsAgreeFaster) {
  PgSetup s;
  const int64_t dim = 30 * 40;  // no profile: one 35 x 35 matrix, zero-padded
  const std::vector<Eigen::VectorXd> starts = RandomStarts(kPgNodes, dim, 13);
  auto run = [&](bool warm, int64_t iterations) {
    PowerGossipConfig c = PgConfig(1, 1.0);
    c.warm_start = warm;
    c.iterations = iterations;
    PowerGossipRule rule(c, s.Context(dim), Eigen::VectorXd::Zero(dim));
    EXPECT_TRUE(rule.blocks()[0].matrix);
    EXPECT_EQ(rule.blocks()[0].rows * rule.blocks()[0].cols, 35 * 35);
    Start(rule, starts);
    const Eigen::VectorXd mean0 = Mean(rule);
    for (int64_t t = 0; t < 300; ++t) RunSynchronousRound(rule, s.w, t);
    EXPECT_LT((Mean(rule) - mean0).norm(), 1e-12 * mean0.norm()) << warm << " " << iterations;
    return ConsensusError(rule);
  };
  const double warm = run(true, 1), cold = run(false, 1), twice = run(true, 2);
  std::printf("powergossip 300 steps: warm %.3g, cold %.3g, 2 iterations %.3g\n", warm, cold,
              twice);
  EXPECT_LT(warm, cold);
  EXPECT_LT(twice, warm);
}

}  // namespace
}  // namespace commsim
