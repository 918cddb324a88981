// The plug-in recipe of CONTRIBUTING.md, proven: a toy compressor, a toy parameter-server
// algorithm, a toy decentralized one and a toy collective one, each a config plus one class,
// registered with one line in a test registry and run through the shared drivers.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <memory>
#include <vector>

#include "algorithms/collective/collective_driver.h"
#include "algorithms/decentralized/decentralized_run.h"
#include "algorithms/decentralized/test_support.h"
#include "algorithms/ps/ps_driver.h"
#include "algorithms/registry.h"
#include "models/compute_time.h"
#include "sim/topology_regular.h"
#include "sim/topology_star.h"

namespace commsim {
namespace {

// Toy compressor: every value as its 64 raw bits (exact; 64d bits).
struct RawF64Config final : ConfigBase<RawF64Config> {
  void Describe(ParamVisitor&) override {}
};
class RawF64 final : public Compressor {
 public:
  explicit RawF64(const RawF64Config&) : Compressor("raw_f64", /*unbiased=*/true) {}
  COMMSIM_COMPRESSOR_MEMBERS;
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng&,
                     const DecodeTarget* target) const override {
    Message m{.payload_bits = 64 * x.size(), .words = {}};
    for (Eigen::Index j = 0; j < x.size(); ++j) m.words.push_back(std::bit_cast<uint64_t>(x[j]));
    DeliverDecoded(m, target);
    return m;
  }
};
void RawF64::DecodeInto(const Message& m, const DecodeTarget& target) const {
  testing::DecodeF64Words(m, target);
}
double RawF64::ErrorFactor(int64_t) const { return 0.0; }
Expectation RawF64::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  return {64.0 * static_cast<double>(x.size()), "64d (exact)", 0.0, static_cast<double>(x.size())};
}

const RawF64 kRaw{RawF64Config{}};

// Toy PS algorithm: gradients up, model down, both raw: plain gradient descent on the mean.
struct ToyPsConfig final : ConfigBase<ToyPsConfig> {
  void Describe(ParamVisitor&) override {}
};
class ToyPsRule final : public PsRule {
 public:
  using Config = ToyPsConfig;
  explicit ToyPsRule(const ToyPsConfig&) {}
  void Init(int workers, const Eigen::Ref<const Eigen::VectorXd>& x0, const Objective&) override {
    x_ = x0;
    sum_ = x0;
    replicas_.assign(workers, x0);
  }
  const Eigen::VectorXd& WorkerPoint(int w) const override { return replicas_[w]; }
  Message WorkerEncode(int, Eigen::Ref<Eigen::VectorXd> g, double, Rng& r) override {
    return kRaw.Encode(g, r);
  }
  void ServerReceive(int w, const Message& uplink) override {
    Eigen::VectorXd g(x_.size());
    kRaw.Decode(uplink, g);
    sum_ = w == 0 ? g : Eigen::VectorXd(sum_ + g);
  }
  Message ServerRound(double step, Rng& rng) override {
    x_ -= step * sum_ / static_cast<double>(replicas_.size());
    return kRaw.Encode(x_, rng);
  }
  void WorkerReceive(int w, const Message& downlink, double) override {
    kRaw.Decode(downlink, replicas_[w]);
  }
  const Eigen::VectorXd& Model() const override { return x_; }

 private:
  Eigen::VectorXd x_, sum_;
  std::vector<Eigen::VectorXd> replicas_;
};

// Toy decentralized algorithm: gossip the models with the configured compressor, no gradient.
struct ToyGossipConfig final : ConfigBase<ToyGossipConfig> {
  ToyGossipConfig() : compressor(CompressorSpec("identity")) {}
  ComponentSpec compressor;
  DecentralizedOptions common;
  void Describe(ParamVisitor& v) override {
    v.Component("compressor", compressor, "how models are sent");
    common.Describe(v);
  }
};
class ToyGossipRule final : public NodeRule {
 public:
  using Config = ToyGossipConfig;
  ToyGossipRule(const ToyGossipConfig&, const NodeRuleContext& context,
                const Eigen::Ref<const Eigen::VectorXd>& x0)
      : context_(context), x_(context.mixing->num_nodes(), x0), rng_(1) {
    for (int i = 0; i < num_nodes(); ++i) {
      x_[i].setConstant(static_cast<double>(i));  // node i starts at (i, ..., i)
      got_.emplace_back(context.mixing->neighbours(i).size(), Eigen::VectorXd(x0.size()));
    }
  }
  int num_nodes() const override { return static_cast<int>(x_.size()); }
  bool sends_before_compute() const override { return true; }
  Message Step(int node, int64_t, int) override {
    return context_.compressor->Encode(x_[node], rng_);
  }
  void Deliver(int node, int slot, const Message& m) override {
    context_.compressor->Decode(m, got_[node][slot]);
  }
  void Combine(int node, int64_t) override {
    const MixingMatrix& w = *context_.mixing;
    x_[node] *= w.self_weight(node);
    for (size_t k = 0; k < got_[node].size(); ++k) {
      x_[node] += w.weight(node, static_cast<int>(k)) * got_[node][k];
    }
  }
  const Eigen::VectorXd& x(int node) const override { return x_[node]; }
  void SetX(int node, const Eigen::Ref<const Eigen::VectorXd>& x) override { x_[node] = x; }

 private:
  NodeRuleContext context_;
  std::vector<Eigen::VectorXd> x_;
  std::vector<std::vector<Eigen::VectorXd>> got_;
  Rng rng_;
};

// Toy collective algorithm: all-reduce the gradients (the collective options say how), then
// gradient descent on the mean.
struct ToyAllReduceConfig final : ConfigBase<ToyAllReduceConfig> {
  CollectiveOptions common;
  void Describe(ParamVisitor& v) override { common.Describe(v); }
};
class ToyAllReduceRule final : public SharedModelRule {
 public:
  using Config = ToyAllReduceConfig;
  explicit ToyAllReduceRule(const ToyAllReduceConfig&) {}
  std::vector<CollectivePhase> Phases(int64_t dim, const LayerProfile*) const override {
    return {{.kind = PhaseKind::kAllReduce, .length = dim}};
  }
  void Input(int, int, const Eigen::Ref<const Eigen::VectorXd>& grad, double,
             Eigen::Ref<Eigen::VectorXd> out) override {
    out = grad;
  }
  void AllReduced(int, int, const Eigen::Ref<const Eigen::VectorXd>& sum) override { sum_ = sum; }
  void EndRound(double step) override { x_ -= step * sum_ / static_cast<double>(workers_); }

 private:
  Eigen::VectorXd sum_;
};

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
  Registry<Compressor> compressors;
  compressors.Add<RawF64, RawF64Config>("raw_f64", "every value as 64 raw bits");
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
  Registry<Algorithm> registry;
  AddAlgorithm<PsAlgorithm<ToyPsRule>>(
      registry, {.name = "toy_ps", .color = "#123456", .help = "gradient descent, raw messages"});
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
  Registry<Algorithm> registry;
  AddAlgorithm<DecentralizedAlgorithm<ToyGossipRule>>(
      registry, {.name = "toy_gossip", .baseline = true, .color = "#654321", .help = "gossip"});
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
  Registry<Algorithm> registry;
  AddAlgorithm<CollectiveAlgorithm<ToyAllReduceRule>>(
      registry, {.name = "toy_allreduce", .color = "#abcdef", .help = "all-reduce, then a step"});
  const int n = 3, dim = 4;
  const RecipeOutcome out = RunToy(registry, "toy_allreduce", "collective",
                                   RingBuilder(RingConfig{}).Build(n), n, dim, 6);
  // The default 32-bit wire rounds the gradients: the rate holds up to ~1e-7.
  ExpectGradientDescentAtRateThreeQuarters(out, 6, 1e-6);
  // Ring of 3: every worker sends 2 (n - 1) = 4 chunks of d/n values (4 values: 2, 1, 1) at 32
  // bits: over the workers 2 (n - 1) x 32 d bits.
  EXPECT_EQ(out.records[1].bits_up, 2 * (n - 1) * 32 * dim);
}

}  // namespace
}  // namespace commsim
