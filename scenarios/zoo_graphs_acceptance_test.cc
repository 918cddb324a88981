// Acceptance of the decentralized related work on the shipped scenarios: consensus that keeps the
// average, Q-GADMM at the optimum and the others in their neighbourhoods on the convex problem,
// and PowerGossip and CHOCO-SGD next to D-PSGD's accuracy on the MNIST MLP.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "analysis/records_test_util.h"
#include "scenarios/runner.h"

namespace commsim {
namespace {

using test_records::SummaryNamed;

const std::string kGraphScenarios = std::string(COMMSIM_SOURCE_DIR) + "/scenarios/";

RunResult RunGraphsWithTwoJobs(const Scenario& s) {
  RunOptions options;
  options.jobs = 2;
  return RunScenario(s, options);
}

// 8 nodes, 100 x 100 N(0, 1) matrices: ||a-bar||^2 is about 10^4 / 8, so a drift of the average
// of 1e-12 relative is a squared distance of about 1e-21. Exact gossip agrees within 600 steps;
// the compressed ones are still on their way (algorithms/decentralized/powergossip_test.cc runs
// PowerGossip rank 1 to 1e-10).
TEST(ZooGraphsAcceptanceTest, ConsensusKeepsTheAverage) {
  const RunResult r = RunGraphsWithTwoJobs(LoadScenario(kGraphScenarios + "zoo_consensus.json"));
  for (const char* name :
       {"gossip", "choco_gossip_top1pct", "powergossip", "powergossip_rank2_k2"}) {
    const RunSummary& s = SummaryNamed(r, name);
    EXPECT_EQ(s.status, "ok") << name;
    EXPECT_LT(*s.final_dist_to_opt_sq, 1e-21) << name;
    EXPECT_LT(*s.final_consensus_dist, 8740.0 / 100) << name;  // started at 8740
  }
  EXPECT_LT(*SummaryNamed(r, "gossip").final_consensus_dist, 1e-10);
  // Two half-iterations of rank 2 a step beat one of rank 1 per step.
  EXPECT_LT(*SummaryNamed(r, "powergossip_rank2_k2").final_consensus_dist,
            *SummaryNamed(r, "powergossip").final_consensus_dist);
}

// Linear regression, full gradients, constant steps: Q-GADMM's exact primal and vanishing
// quantization reach x*; the gossip methods settle at their constant-step neighbourhoods (D-PSGD
// 1.4e-5, CHOCO 4.4e-5, PowerGossip 6.2e-4, Q-SGADMM 3.8e-5 measured) and SDM-DSGD at its
// mask's (9.8e-3); ||x0 - x*||^2 is about 50.
TEST(ZooGraphsAcceptanceTest, ConvexMethodsReachTheOptimumOrTheirNeighbourhood) {
  const RunResult r = RunGraphsWithTwoJobs(LoadScenario(kGraphScenarios + "zoo_graphs.json"));
  EXPECT_LT(*SummaryNamed(r, "qgadmm").final_dist_to_opt_sq, 1e-12);
  const std::pair<const char*, double> neighbourhoods[] = {{"dpsgd", 1e-4},
                                                           {"choco", 1e-3},
                                                           {"powergossip", 1e-2},
                                                           {"qsgadmm", 1e-3},
                                                           {"sdm_dsgd", 0.1}};
  for (const auto& [name, bound] : neighbourhoods) {
    const RunSummary& s = SummaryNamed(r, name);
    EXPECT_EQ(s.status, "ok") << name;
    EXPECT_LT(*s.final_dist_to_opt_sq, bound) << name;
  }
}

// The MNIST MLP after 400 iterations on an 8-node ring: PowerGossip (rank 1) and CHOCO-SGD
// (4-bit qsgd; top-1%) within 2 points of D-PSGD's accuracy.
TEST(ZooGraphsAcceptanceTest, MnistPowerGossipAndChocoWithinTwoPointsOfDpsgd) {
  Scenario s = LoadScenario(kGraphScenarios + "zoo_graphs_mnist.json", {"/metrics_every=400"});
  const std::set<std::string> kept = {"dpsgd", "choco", "choco_top1pct", "powergossip"};
  std::erase_if(s.algorithms, [&](const AlgorithmEntry& e) { return !kept.contains(e.label); });
  ASSERT_EQ(s.algorithms.size(), kept.size());
  const RunResult r = RunGraphsWithTwoJobs(s);
  const double dpsgd = *SummaryNamed(r, "dpsgd").final_test_accuracy;
  EXPECT_GT(dpsgd, 0.85);
  for (const std::string& name : kept) {
    EXPECT_GT(*SummaryNamed(r, name).final_test_accuracy, dpsgd - 0.02) << name;
  }
}

}  // namespace
}  // namespace commsim
