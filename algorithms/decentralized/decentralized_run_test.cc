// The decentralized algorithms run on the event engine: equality with the timing-free rule, the
// replica invariant under network delivery order, MALCOM(mu = 0) == CHOCO, exact bit and time
// formulas, summary extras, and bad-input errors.
#include "algorithms/decentralized/decentralized_run.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "algorithms/decentralized/choco.h"
#include "algorithms/decentralized/dpsgd.h"
#include "algorithms/decentralized/mixing.h"
#include "algorithms/decentralized/round_driver.h"
#include "algorithms/decentralized/test_support.h"
#include "algorithms/registry.h"
#include "algorithms/run_recorder.h"
#include "base/error.h"
#include "base/error_test_util.h"
#include "compression/compressors/identity.h"
#include "compression/compressors/qsgd.h"
#include "compression/compressors/top_k.h"
#include "models/compute_time.h"
#include "sim/topology_regular.h"
#include "sim/topology_star.h"
#include "sim/topology_tree.h"

namespace commsim {
namespace {

using testing::QuadraticObjective;

constexpr double kBandwidthBps = 1e8;
constexpr double kRunLatencyS = 1e-4;

Topology RingTopology(int n) {
  RingConfig c;
  c.links.bandwidth_bps = kBandwidthBps;
  c.links.latency_s = kRunLatencyS;
  return RingBuilder(c).Build(n);
}

Topology Torus(int n) {
  TorusConfig c;
  c.links.bandwidth_bps = kBandwidthBps;
  c.links.latency_s = kRunLatencyS;
  return TorusBuilder(c).Build(n);
}

RunSetup MakeSetup(const Objective& objective, const Topology& topology, int64_t iterations) {
  RunSetup s;
  s.label = "entry";
  s.seed = 7;
  s.objective = &objective;
  s.topology = &topology;
  s.iterations = iterations;
  s.step.size = 0.1;
  return s;
}

struct RunOutcome {
  std::vector<IterationRecord> records;
  RunSummary summary;
};

RunOutcome RunAlgorithm(const Algorithm& algorithm, const RunSetup& setup) {
  RunOutcome r;
  algorithm.Run(setup, &r.records, &r.summary);
  return r;
}

TEST(DecentralizedRunTest, EventRunEqualsThePlainLoopAndKeepsReplicasExact) {
  const int n = 8, dim = 30;
  const QuadraticObjective objective(n, dim, 3, 0.0, 0.3);
  const Topology topology = Torus(n);  // 2 x 4: mixed degrees through merged edges
  RunSetup setup = MakeSetup(objective, topology, 25);
  const MixingMatrix w = MixingForTopology("auto", "auto", topology);
  const std::unique_ptr<Compressor> q = CompressorRegistry().Make(CompressorSpec("top_k"));
  NodeRuleContext ctx{.mixing = &w,
                      .compressor = q.get(),
                      .objective = &objective,
                      .dim = dim,
                      .step = setup.step,
                      .seed = setup.seed};
  ChocoRule timed(ctx, 0.2, Eigen::VectorXd::Zero(dim));
  ChocoRule plain(ctx, 0.2, Eigen::VectorXd::Zero(dim));
  RunRecorder recorder(setup, "choco", Family::kDecentralized);
  int64_t round = 0;
  int checked = 0;
  auto evaluate = [&](IterationRecord& r) {
    if (r.iteration > 0) RunSynchronousRound(plain, w, round++);
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(0, std::memcmp(timed.x(i).data(), plain.x(i).data(), sizeof(double) * dim));
      for (size_t k = 0; k < w.neighbours(i).size(); ++k) {
        const Eigen::VectorXd& copy = timed.replica(i, static_cast<int>(k));
        const Eigen::VectorXd& own = timed.x_hat(w.neighbours(i)[k]);
        ASSERT_EQ(0, std::memcmp(copy.data(), own.data(), sizeof(double) * dim))
            << "iteration " << r.iteration << " node " << i << " slot " << k;
        ++checked;
      }
    }
  };
  recorder.Start(evaluate);
  RunRounds(setup, w, timed, recorder, evaluate);
  EXPECT_EQ(round, 25);
  EXPECT_GT(checked, 25 * n * 2);
}

TEST(DecentralizedRunTest, MalcomWithZeroMuFollowsChocoWithTheSameCompressor) {
  const int n = 8, dim = 40;
  const QuadraticObjective objective(n, dim, 5, 0.05, 0.5);
  const Topology topology = RingTopology(n);
  RunSetup setup = MakeSetup(objective, topology, 30);
  setup.step.schedule = "inv_sqrt";
  const Registry<Algorithm>& registry = AlgorithmRegistry();
  ComponentSpec malcom = registry.DefaultSpec("algorithm", "malcom");
  ComponentSpec choco = registry.DefaultSpec("algorithm", "choco");
  auto& mc = static_cast<ChocoConfig&>(*malcom.config);
  EXPECT_EQ(mc.compressor.name, "dithered");
  EXPECT_EQ(mc.common.mu, 0.0);
  static_cast<ChocoConfig&>(*choco.config).compressor = CompressorSpec("dithered");
  const RunOutcome a = RunAlgorithm(*registry.Make(malcom), setup);
  const RunOutcome b = RunAlgorithm(*registry.Make(choco), setup);
  ASSERT_EQ(a.records.size(), b.records.size());
  for (size_t k = 0; k < a.records.size(); ++k) {
    EXPECT_EQ(a.records[k].loss, b.records[k].loss) << k;
    EXPECT_EQ(a.records[k].consensus_dist, b.records[k].consensus_dist) << k;
    EXPECT_EQ(a.records[k].cum_bits, b.records[k].cum_bits) << k;
    EXPECT_EQ(a.records[k].sim_time_s, b.records[k].sim_time_s) << k;
  }
  EXPECT_EQ(a.summary.algorithm, "malcom");
  EXPECT_EQ(b.summary.algorithm, "choco");
  // With mu > 0 the trajectories part and the model gets sparser.
  mc.common.mu = 2.0;
  const RunOutcome c = RunAlgorithm(*registry.Make(malcom), setup);
  EXPECT_NE(c.records.back().loss, a.records.back().loss);
  EXPECT_LT(c.records.back().extra.at("node_density"),
            0.5 * a.records.back().extra.at("node_density"));
}

TEST(DecentralizedRunTest, DpsgdBitsAndTimeMatchClosedForms) {
  const int n = 6, dim = 1000;
  const QuadraticObjective objective(n, dim, 1);
  const Topology topology = RingTopology(n);
  RunSetup setup = MakeSetup(objective, topology, 3);
  setup.header_bits = 96;
  const int64_t message_bits = 32 * dim + 96;  // identity fp32 + header
  // By hand: 32096 bits at 1e8 bit/s = 320.96 us, + 100 us latency = 420.96 us on each ring link.
  const int64_t transfer_ps = 420'960'000;
  // D-PSGD sends at the round start: the round is max(compute, transfer). A 100 us compute is
  // shorter than the transfer (the round is the transfer), a 2 ms one hides it.
  for (const auto& [compute_s, compute_ps] :
       {std::pair<double, int64_t>{100e-6, 100'000'000}, {2e-3, 2'000'000'000}}) {
    ComputeTimeConfig cc;
    cc.seconds = compute_s;
    const ComputeTimeModel compute(cc, objective.flops_per_sample(), n, setup.seed);
    setup.compute = &compute;
    const RunOutcome r = RunAlgorithm(*MakeAlgorithm("dpsgd", DpsgdConfig{}), setup);
    ASSERT_EQ(r.records.size(), 4u);
    for (size_t k = 1; k < r.records.size(); ++k) {
      EXPECT_EQ(r.records[k].bits_up, n * 2 * message_bits);  // one copy per edge direction
      EXPECT_EQ(r.records[k].bits_down, 0);
      EXPECT_EQ(r.records[k].iter_time_s,
                static_cast<double>(std::max(compute_ps, transfer_ps)) * 1e-12)
          << compute_s;
      EXPECT_EQ(r.records[k].compute_time_s, static_cast<double>(compute_ps) * 1e-12);
    }
    EXPECT_EQ(r.summary.total_bits, 3 * n * 2 * message_bits);
    EXPECT_EQ(r.summary.family, "decentralized");
  }
  setup.compute = nullptr;
  setup.broadcast = true;
  const RunOutcome b = RunAlgorithm(*MakeAlgorithm("dpsgd", DpsgdConfig{}), setup);
  EXPECT_EQ(b.records.back().bits_up, n * message_bits);  // one transmission per node
  // Each node's one copy goes out on both its ring links at once: the same transfer time.
  EXPECT_EQ(b.records.back().iter_time_s, static_cast<double>(transfer_ps) * 1e-12);
}

TEST(DecentralizedRunTest, ChocoSendsAfterComputeWithQsgdFixedBits) {
  const int n = 8, dim = 1024;
  const QuadraticObjective objective(n, dim, 2);
  const Topology topology = RingTopology(n);
  RunSetup setup = MakeSetup(objective, topology, 4);
  ComputeTimeConfig cc;
  cc.seconds = 1e-3;
  const ComputeTimeModel compute(cc, objective.flops_per_sample(), n, setup.seed);
  setup.compute = &compute;
  const RunOutcome r =
      RunAlgorithm(*MakeAlgorithm("choco", ChocoConfig{}), setup);  // qsgd s = 15 fixed, b = 512
  const int64_t message_bits = 2 * (32 + 512 * (1 + 4));
  for (size_t k = 1; k < r.records.size(); ++k) {
    EXPECT_EQ(r.records[k].bits_up, n * 2 * message_bits);
    // By hand: 1 ms compute + 100 us latency + 5184 bits at 1e8 bit/s (51.84 us).
    EXPECT_EQ(r.records[k].iter_time_s, static_cast<double>(1'151'840'000) * 1e-12);
    EXPECT_EQ(r.records[k].compute_time_s, static_cast<double>(1'000'000'000) * 1e-12);
  }
}

TEST(DecentralizedRunTest, SummaryHasSpectrumAndMetrics) {
  const int n = 8, dim = 10;
  const QuadraticObjective objective(n, dim, 4, 0.2);
  const Topology topology = RingTopology(n);
  RunSetup setup = MakeSetup(objective, topology, 5);
  setup.metrics_every = 2;
  const RunOutcome r = RunAlgorithm(*MakeAlgorithm("dpsgd", DpsgdConfig{}), setup);
  EXPECT_NEAR(r.summary.extra.at("spectral_gap"), 0.1953, 1e-4);
  EXPECT_NEAR(r.summary.extra.at("rho"), 0.8047, 1e-4);
  ASSERT_EQ(r.records.size(), 4u);              // 0, 2, 4 and the last (5)
  EXPECT_EQ(r.records[0].consensus_dist, 0.0);  // every node starts at x0
  EXPECT_GT(*r.records[3].consensus_dist, 0.0);
  EXPECT_TRUE(r.records[3].dist_to_opt_sq.has_value());
  EXPECT_LT(*r.records[3].dist_to_opt_sq, *r.records[0].dist_to_opt_sq);
  EXPECT_TRUE(r.records[3].density.has_value());
  EXPECT_EQ(r.records[0].density, 0.0);  // x0 = 0
}

TEST(DecentralizedRunTest, LogicalRingOverAStarGoesThroughTheSwitch) {
  const int n = 4, dim = 100;
  const QuadraticObjective objective(n, dim, 1);
  StarConfig sc;  // default graph "auto": a ring over the 4 workers; the server stays idle
  const Topology star = StarBuilder(sc).Build(n);
  const RunOutcome r =
      RunAlgorithm(*MakeAlgorithm("dpsgd", DpsgdConfig{}), MakeSetup(objective, star, 2));
  EXPECT_EQ(r.records.back().bits_up, n * 2 * 32 * dim);
  EXPECT_NEAR(r.summary.extra.at("spectral_gap"), 1.0 - 1.0 / 3.0, 1e-12);  // ring of 4: 1/3
  // By hand, with the default links (1 Gbit/s, 10 us): a copy of 3200 bits takes T = 3.2 us per
  // link. Each worker's two copies leave on its one uplink, one after the other (sorted
  // neighbours: first copies 0->1, 1->0, 2->1, 3->0 reach the switch at T + l; second copies
  // 0->3, 1->2, 2->3, 3->2 at 2T + l). Workers 2 and 3 receive both their messages at 2T + l and
  // the switch sends them one after the other: the second arrives at 4T + 2l = 32.8 us.
  ASSERT_EQ(sc.workers.worker_bandwidth_bps, 1e9);
  ASSERT_EQ(sc.workers.worker_latency_s, 10e-6);
  for (size_t k = 1; k < r.records.size(); ++k) {
    EXPECT_EQ(r.records[k].iter_time_s, static_cast<double>(32'800'000) * 1e-12);
  }
}

std::string RunError(const Algorithm& algorithm, const RunSetup& setup) {
  return test_errors::ErrorOf([&] { RunOutcome r = RunAlgorithm(algorithm, setup); }, "");
}

TEST(DecentralizedRunTest, BadTopologiesAreClearErrors) {
  const QuadraticObjective objective(4, 3, 1);
  StarConfig sc;
  const Topology star = StarBuilder(sc).Build(4);
  ChocoConfig on_links;
  on_links.common.graph = "topology";
  EXPECT_NE(RunError(*MakeAlgorithm("choco", on_links), MakeSetup(objective, star, 1))
                .find("entry (choco): topology 'star' has a parameter server"),
            std::string::npos);
  const Topology ring5 = RingTopology(5);
  EXPECT_NE(RunError(*MakeAlgorithm("dpsgd", DpsgdConfig{}), MakeSetup(objective, ring5, 1))
                .find("5 nodes but the problem is split over 4 workers"),
            std::string::npos);
  const Topology ring4 = RingTopology(4);
  ChocoConfig torus_weights;
  torus_weights.common.mixing = "torus";
  EXPECT_NE(RunError(*MakeAlgorithm("choco", torus_weights), MakeSetup(objective, ring4, 1))
                .find("needs every node to have 4 neighbours"),
            std::string::npos);
}

// A fabric without a server joins no two hosts directly: "auto" gossips over a logical ring of the
// hosts (routed through the switches) instead of failing on hosts without neighbours.
TEST(DecentralizedRunTest, AutoGraphOnAFabricWithoutHostLinksIsARing) {
  TreeConfig c;
  c.rack_size = 2;
  c.server = "none";
  const Topology tree = TreeBuilder(c).Build(6);
  ASSERT_TRUE(tree.neighbours(0).empty());
  EXPECT_EQ(MixingForTopology("auto", "auto", tree).Dense(),
            BuildMixing("metropolis", LogicalGraph("ring", 6)).Dense());
}

}  // namespace
}  // namespace commsim
