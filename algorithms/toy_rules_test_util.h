// The toy algorithms of CONTRIBUTING.md's plug-in recipe, one per family, each a config plus one
// rule class, in a test registry of one line each (ToyAlgorithmRegistry). They follow the rules a
// shipped algorithm follows, so the suites that cover every registered rule (the threading suites
// of the three drivers: registered_rules_test_util.h) run over them too, and
// plugin_recipe_test.cc runs them through the drivers against closed forms.
#ifndef COMMSIM_ALGORITHMS_TOY_RULES_TEST_UTIL_H_
#define COMMSIM_ALGORITHMS_TOY_RULES_TEST_UTIL_H_

#include <vector>

#include "algorithms/collective/collective_driver.h"
#include "algorithms/decentralized/decentralized_run.h"
#include "algorithms/ps/ps_driver.h"
#include "algorithms/registry.h"
#include "compression/compressors/raw_f64_test_util.h"

namespace commsim::testing {

inline const RawF64& Raw() {
  static const RawF64 raw{RawF64Config{}};
  return raw;
}

// Toy PS algorithm: gradients up, model down, both raw: plain gradient descent on the mean.
struct ToyPsConfig final : ConfigBase<ToyPsConfig> {
  void Describe(ParamVisitor&) override {}
};
class ToyPsRule final : public PsRule {
 public:
  using Config = ToyPsConfig;
  explicit ToyPsRule(const ToyPsConfig&) {}
  void Init(int workers, const Eigen::Ref<const Eigen::VectorXd>& x0, const Objective&) override {
    x_ = x0;  // x0 may sit in sum_ (ServerScratch): read it before writing sum_
    replicas_.assign(workers, x_);
    sum_.setZero(x_.size());
  }
  const Eigen::VectorXd& WorkerPoint(int w) const override { return replicas_[w]; }
  Message WorkerEncode(int, Eigen::Ref<Eigen::VectorXd> g, double, Rng& r) override {
    return Raw().Encode(g, r);
  }
  void ServerReceive(int w, const Message& uplink) override {
    Eigen::VectorXd g(x_.size());
    Raw().Decode(uplink, g);
    sum_ = w == 0 ? g : Eigen::VectorXd(sum_ + g);
  }
  Message ServerRound(double step, Rng& rng) override {
    x_ -= step * sum_ / static_cast<double>(replicas_.size());
    return Raw().Encode(x_, rng);
  }
  void WorkerReceive(int w, const Message& downlink, double) override {
    Raw().Decode(downlink, replicas_[w]);
  }
  const Eigen::VectorXd& Model() const override { return x_; }
  // sum_ is the server's alone and rewritten from the first uplink on: the driver may use it as
  // a gradient buffer between rounds.
  Eigen::VectorXd* ServerScratch() override { return &sum_; }

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
      : context_(context), x_(context.mixing->num_nodes(), x0) {
    for (int i = 0; i < num_nodes(); ++i) {
      x_[i].setConstant(static_cast<double>(i));  // node i starts at (i, ..., i)
      got_.emplace_back(context.mixing->neighbours(i).size(), Eigen::VectorXd(x0.size()));
      rngs_.emplace_back(context.seed, i, "compress");
    }
  }
  int num_nodes() const override { return static_cast<int>(x_.size()); }
  bool sends_before_compute() const override { return true; }
  Message Step(int node, int64_t, int) override {
    return context_.compressor->Encode(x_[node], rngs_[node]);
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
  std::vector<Rng> rngs_;  // one per node: Step runs the nodes side by side
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

// The recipe's registry: one line per toy algorithm.
inline const Registry<Algorithm>& ToyAlgorithmRegistry() {
  static const Registry<Algorithm> registry = [] {
    Registry<Algorithm> r;
    AddAlgorithm<PsAlgorithm<ToyPsRule>>(
        r, {.name = "toy_ps", .color = "#123456", .help = "gradient descent, raw messages"});
    AddAlgorithm<DecentralizedAlgorithm<ToyGossipRule>>(
        r, {.name = "toy_gossip", .baseline = true, .color = "#654321", .help = "gossip"});
    AddAlgorithm<CollectiveAlgorithm<ToyAllReduceRule>>(
        r, {.name = "toy_allreduce", .color = "#abcdef", .help = "all-reduce, then a step"});
    return r;
  }();
  return registry;
}

}  // namespace commsim::testing

#endif  // COMMSIM_ALGORITHMS_TOY_RULES_TEST_UTIL_H_
