// The plug-in recipe of CONTRIBUTING.md, proven: a toy compressor, a toy parameter-server
// algorithm, a toy decentralized one and a toy collective one, each a config plus one class,
// registered with one line in a test registry (compression/compressors/raw_f64_test_util.h,
// algorithms/toy_rules_test_util.h) and run through the shared drivers here. The contract suite
// (compressor_contract_test.cc) and the three drivers' threading suites
// (registered_rules_test_util.h) cover the toys as they cover every shipped component.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/decentralized/test_support.h"
#include "algorithms/registered_rules_test_util.h"
#include "algorithms/toy_rules_test_util.h"
#include "models/compute_time.h"
#include "sim/topology_regular.h"
#include "sim/topology_star.h"

namespace commsim {
namespace {

struct RecipeOutcome {
  std::vector<IterationRecord> records;
  RunSummary summary;
  double d0 = 0;  // ||x_0 - x*||^2 of the objective (x_0 = 0)
};

// Runs registry entry `name` for `iterations` on `topology` with the test quadratic of n workers
// and dimension `dim` (seed 5), step 1/4; checks that the run ends "ok" in family `family`.
RecipeOutcome RunToy(const Registry<Algorithm>& registry, std::string_view name,
                     std::string_view family, const Topology& topology, int n, int dim,
                     int64_t iterations) {
  const testing::QuadraticObjective objective(n, dim, 5);
  const ComputeTimeModel compute(ComputeTimeConfig{}, objective.flops_per_sample(), n, 1);
  RunSetup setup;
  setup.label = std::string(name);
  setup.objective = &objective;
  setup.topology = &topology;
  setup.compute = &compute;
  setup.iterations = iterations;
  setup.step.size = 0.25;
  const std::unique_ptr<Algorithm> algorithm =
      registry.Make(registry.DefaultSpec("algorithm", name));
  algorithm->Check(setup);
  RecipeOutcome out;
  algorithm->Run(setup, &out.records, &out.summary);
  EXPECT_EQ(out.summary.status, kStatusOk);
  EXPECT_EQ(out.summary.family, family);
  out.d0 = objective.optimum()->x.squaredNorm();
  return out;
}

// Gradient descent with step 1/4 on grad_w = x - c_w from x_0 = 0: x_k - x* = 0.75^k (x_0 - x*),
// so dist_to_opt_sq of record k is 0.75^(2k) d0, checked up to rel_tol d0.
void ExpectGradientDescentAtRateThreeQuarters(const RecipeOutcome& out, int64_t iterations,
                                              double rel_tol) {
  ASSERT_EQ(out.records.size(), static_cast<size_t>(iterations + 1));
  for (int64_t k = 0; k <= iterations; ++k) {
    EXPECT_NEAR(*out.records[k].dist_to_opt_sq, std::pow(0.75, 2 * k) * out.d0, rel_tol * out.d0)
        << k;
  }
}

TEST(PluginRecipeTest, AToyCompressorIsOneRegistryLine) {
  const Registry<Compressor>& compressors = testing::ToyCompressorRegistry();
  const std::unique_ptr<Compressor> q =
      compressors.Make(compressors.DefaultSpec("compressor", "raw_f64"));
  const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(5, -1.0, 1.0 / 3.0);
  Rng rng(1);
  const Message m = q->Encode(x, rng);
  EXPECT_EQ(m.payload_bits, 5 * 64);
  Eigen::VectorXd y(5);
  q->Decode(m, y);
  EXPECT_EQ(y, x);  // bit for bit
}

TEST(PluginRecipeTest, AToyPsAlgorithmIsOneRegistryLineAndRunsThroughTheDriver) {
  const Registry<Algorithm>& registry = testing::ToyAlgorithmRegistry();
  const int n = 3, dim = 4;
  const RecipeOutcome out =
      RunToy(registry, "toy_ps", "parameter_server", StarBuilder(StarConfig{}).Build(n), n, dim, 6);
  ExpectGradientDescentAtRateThreeQuarters(out, 6, 1e-12);
  // Uplinks and downlinks are 64 bits per value: n (up) + n (down) messages of 64d bits.
  EXPECT_EQ(out.records[1].bits_up, n * 64 * dim);
  EXPECT_EQ(out.records[1].bits_down, n * 64 * dim);
  EXPECT_EQ(registry.Make(registry.DefaultSpec("algorithm", "toy_ps"))->info().color, "#123456");
}

TEST(PluginRecipeTest, AToyDecentralizedAlgorithmIsOneRegistryLineAndRunsThroughTheDriver) {
  const Registry<Algorithm>& registry = testing::ToyAlgorithmRegistry();
  const int n = 4, dim = 2;
  const RecipeOutcome out = RunToy(registry, "toy_gossip", "decentralized",
                                   RingBuilder(RingConfig{}).Build(n), n, dim, 2);
  EXPECT_TRUE(registry.Make(registry.DefaultSpec("algorithm", "toy_gossip"))->info().baseline);
  // Ring of 4 with metropolis weights 1/3: one round maps node values (0,1,2,3) to
  // ((3+0+1)/3, (0+1+2)/3, (1+2+3)/3, (2+3+0)/3); the mean 1.5 stays, so the consensus distance
  // (1/n) sum_i ||x_i - mean||^2 over both coordinates is 2/4 * sum_i (v_i - 1.5)^2.
  const std::vector<double> v1 = {4.0 / 3, 1.0, 2.0, 5.0 / 3};
  double c1 = 0;
  for (double v : v1) c1 += 2 * (v - 1.5) * (v - 1.5);
  EXPECT_NEAR(*out.records[1].consensus_dist, c1 / 4, 1e-12);
  // Identity (fp32) messages: 32d bits to each of 2 neighbours per node.
  EXPECT_EQ(out.records[1].bits_up, n * 2 * 32 * dim);
}

TEST(PluginRecipeTest, AToyCollectiveAlgorithmIsOneRegistryLineAndRunsThroughTheDriver) {
  const Registry<Algorithm>& registry = testing::ToyAlgorithmRegistry();
  const int n = 3, dim = 4;
  const RecipeOutcome out = RunToy(registry, "toy_allreduce", "collective",
                                   RingBuilder(RingConfig{}).Build(n), n, dim, 6);
  // The default 32-bit wire rounds the gradients: the rate holds up to ~1e-7.
  ExpectGradientDescentAtRateThreeQuarters(out, 6, 1e-6);
  // Ring of 3: every worker sends 2 (n - 1) = 4 chunks of d/n values (4 values: 2, 1, 1) at 32
  // bits: over the workers 2 (n - 1) x 32 d bits.
  EXPECT_EQ(out.records[1].bits_up, 2 * (n - 1) * 32 * dim);
}

// The suites that cover every registered rule find the toys as they find the shipped rules.
TEST(PluginRecipeTest, TheThreadingSuitesFindEveryToyRule) {
  auto names = [](const auto& rules) {
    std::vector<std::string> out;
    for (const auto& rule : rules) out.push_back(rule.name);
    return out;
  };
  auto has = [](const std::vector<std::string>& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  EXPECT_TRUE(has(names(testing::RegisteredRules<PsFamily>()), "toy_ps"));
  EXPECT_TRUE(has(names(testing::RegisteredRules<DecentralizedFamily>()), "toy_gossip"));
  EXPECT_TRUE(has(names(testing::RegisteredRules<CollectiveFamily>()), "toy_allreduce"));
  EXPECT_FALSE(has(names(testing::RegisteredRules<PsFamily>()), "toy_gossip"));
}

}  // namespace
}  // namespace commsim
