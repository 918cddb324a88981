// The decentralized round driver on several threads (NodeWork): every rule's models after the
// run equal, bit for bit, the plain sequential loop (RunSynchronousRound: Step all, deliver all,
// Combine all, on one thread) for 1, 3 and 8 threads, while the nodes' events run in another
// order than their numbers (jitter, a straggler); and a run stopped inside a round evaluates the
// models of the nodes that had combined by then, and only those.
#include "algorithms/decentralized/node_work.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/decentralized/decentralized_run.h"
#include "algorithms/decentralized/round_driver.h"
#include "algorithms/decentralized/test_support.h"
#include "algorithms/registered_rules_test_util.h"
#include "algorithms/registry.h"
#include "algorithms/sync_rounds.h"
#include "base/error.h"
#include "compression/codec/link_compressor.h"
#include "models/compute_time.h"
#include "sim/topology_regular.h"

namespace commsim {
namespace {

constexpr int kWorkNodes = 5;  // not a multiple of the thread counts
constexpr int kWorkDim = 40;
constexpr int64_t kWorkRounds = 4;

using MakeRule =
    std::function<std::unique_ptr<NodeRule>(const NodeRuleContext&, const Eigen::VectorXd&)>;

struct WorkCase {
  std::string name;
  std::string compressor;
  double prox_l1 = 0.0;
  MakeRule make;
};

// Every registered decentralized rule (its default config) with each of these compressors.
std::vector<WorkCase> WorkCases() {
  struct Link {
    std::string compressor;
    double prox_l1;
  };
  const std::vector<Link> links = {
      {"identity", 0.0}, {"qsgd", 0.0}, {"top_k", 0.0}, {"dithered", 0.01}};
  std::vector<WorkCase> cases;
  for (const auto& rule : testing::RegisteredRules<DecentralizedFamily>()) {
    for (const Link& link : links) {
      const RuleFactory make = rule.make;
      cases.push_back(
          {rule.name + " " + link.compressor, link.compressor, link.prox_l1,
           [make](const NodeRuleContext& c, const Eigen::VectorXd& x0) { return make(c, x0); }});
    }
  }
  return cases;
}

bool WorkSameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0;
}

Topology WorkRing() {
  RingConfig c;
  c.links.bandwidth_bps = 1e8;
  c.links.latency_s = 5e-6;
  return RingBuilder(c).Build(kWorkNodes);
}

// A rule that refuses the noisy objective (Q-GADMM's closed form needs an affine gradient) runs on
// the same objective without gradient noise.
bool WorkRefusesNoise(const WorkCase& c, const MixingMatrix& mixing, const Compressor& q) {
  const testing::QuadraticObjective noisy(kWorkNodes, kWorkDim, 7, c.prox_l1, 0.5);
  try {
    c.make(
        NodeRuleContext{.mixing = &mixing, .compressor = &q, .objective = &noisy, .dim = kWorkDim},
        Eigen::VectorXd::Zero(kWorkDim));
  } catch (const UserError&) {
    return true;
  }
  return false;
}

void ExpectDriverEqualsPlainLoop(const WorkCase& c, int threads) {
  const MixingMatrix ring_mixing = BuildMixing("metropolis", testing::RingNeighbours(kWorkNodes));
  const std::unique_ptr<Compressor> ring_q = MakeLinkCompressor(CompressorSpec(c.compressor));
  const double noise = WorkRefusesNoise(c, ring_mixing, *ring_q) ? 0.0 : 0.5;
  const testing::QuadraticObjective objective(kWorkNodes, kWorkDim, 7, c.prox_l1, noise);
  const MixingMatrix mixing = BuildMixing("metropolis", testing::RingNeighbours(kWorkNodes));
  const std::unique_ptr<Compressor> q = MakeLinkCompressor(CompressorSpec(c.compressor));
  const Topology ring = WorkRing();
  ComputeTimeConfig cc;
  cc.seconds = 1e-3;
  cc.jitter = 0.5;
  cc.slowdown = {1, 3, 1, 0.5, 1};
  const ComputeTimeModel compute(cc, 1.0, kWorkNodes, 1);
  RunSetup setup;
  setup.seed = 5;
  setup.objective = &objective;
  setup.topology = &ring;
  setup.compute = &compute;
  setup.iterations = kWorkRounds;
  setup.threads = threads;
  StepConfig step;
  step.size = 0.05;
  NodeRuleContext context{.mixing = &mixing,
                          .compressor = q.get(),
                          .objective = &objective,
                          .dim = kWorkDim,
                          .step = step,
                          .prox_l1 = c.prox_l1,
                          .seed = setup.seed};
  const Eigen::VectorXd x0 = Eigen::VectorXd::LinSpaced(kWorkDim, -1.0, 1.0);
  const std::unique_ptr<NodeRule> plain = c.make(context, x0);
  for (int64_t t = 0; t < kWorkRounds; ++t) RunSynchronousRound(*plain, mixing, t);

  context.threads = RunThreads(setup, kWorkNodes);
  const std::unique_ptr<NodeRule> rule = c.make(context, x0);
  RunRecorder recorder(setup, c.name, Family::kDecentralized);
  const RunRecorder::Evaluate evaluate = [&](IterationRecord& r) {
    r.loss = objective.Loss(rule->x(0));
  };
  recorder.Start(evaluate);
  RunRounds(setup, mixing, *rule, recorder, evaluate);
  std::vector<IterationRecord> records;
  RunSummary summary;
  recorder.Finish(&records, &summary);
  ASSERT_EQ(summary.status, kStatusOk) << c.name << ": " << summary.message;
  ASSERT_EQ(records.size(), static_cast<size_t>(kWorkRounds + 1));
  for (int i = 0; i < kWorkNodes; ++i) {
    EXPECT_TRUE(WorkSameBits(rule->x(i), plain->x(i)))
        << c.name << ", " << threads << " threads, node " << i;
  }
  EXPECT_EQ(records.back().loss, objective.Loss(plain->x(0))) << c.name << ", " << threads;
}

TEST(NodeWorkTest, ParallelRoundsEqualThePlainLoopForEveryRule) {
  for (const WorkCase& c : WorkCases()) {
    for (const int threads : {1, 3, 8}) ExpectDriverEqualsPlainLoop(c, threads);
  }
}

// x_i counts node i's combines; node 3's step of round 1 fails (as an encoder's NonFiniteError).
class CountingNodeRule final : public NodeRule {
 public:
  explicit CountingNodeRule(int n) : x_(n, Eigen::VectorXd::Zero(1)) {}
  int num_nodes() const override { return static_cast<int>(x_.size()); }
  bool sends_before_compute() const override { return false; }
  Message Step(int node, int64_t t, int) override {
    if (node == 3 && t == 1) throw NonFiniteError("node 3's message has a non-finite value");
    Message m;
    m.payload_bits = 64;
    return m;
  }
  void Deliver(int, int, const Message&) override {}
  void Combine(int node, int64_t) override { x_[node][0] += 1.0; }
  const Eigen::VectorXd& x(int node) const override { return x_[node]; }
  void SetX(int, const Eigen::Ref<const Eigen::VectorXd>&) override {}

 private:
  std::vector<Eigen::VectorXd> x_;
};

// Ring of 4; node 3 computes 10 ms, the others 1 ms. In round 2 (t = 1) node 1, whose neighbours
// are 0 and 2, combines at about 1 ms; nodes 0 and 2 wait for node 3's message, whose step fails
// at 10 ms. The stop's record sees x = (1, 2, 1, 1): round 1 everywhere, round 2 at node 1 only.
TEST(NodeWorkTest, AStopInsideARoundEvaluatesTheNodesThatHadCombined) {
  constexpr int n = 4;
  const MixingMatrix mixing = BuildMixing("metropolis", testing::RingNeighbours(n));
  RingConfig rc;
  rc.links.bandwidth_bps = 1e9;
  rc.links.latency_s = 1e-6;
  const Topology ring = RingBuilder(rc).Build(n);
  ComputeTimeConfig cc;
  cc.seconds = 1e-3;
  cc.slowdown = {1, 1, 1, 10};
  const ComputeTimeModel compute(cc, 1.0, n, 1);
  for (const int threads : {1, 3}) {
    RunSetup setup;
    setup.topology = &ring;
    setup.compute = &compute;
    setup.iterations = 3;
    setup.threads = threads;
    CountingNodeRule rule(n);
    RunRecorder recorder(setup, "counting", Family::kDecentralized);
    const RunRecorder::Evaluate evaluate = [&](IterationRecord& r) {
      for (int i = 0; i < n; ++i) r.extra[fmt::format("x{}", i)] = rule.x(i)[0];
    };
    recorder.Start(evaluate);
    RunRounds(setup, mixing, rule, recorder, evaluate);
    std::vector<IterationRecord> records;
    RunSummary summary;
    recorder.Finish(&records, &summary);
    EXPECT_EQ(summary.status, kStatusDiverged) << threads;
    ASSERT_EQ(records.size(), 3u) << threads;
    const std::map<std::string, double> expected = {
        {"x0", 1.0}, {"x1", 2.0}, {"x2", 1.0}, {"x3", 1.0}};
    EXPECT_EQ(records.back().extra, expected) << threads << " threads";
  }
}

}  // namespace
}  // namespace commsim
