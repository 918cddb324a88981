#include "algorithms/decentralized/decentralized_run.h"

#include <fmt/format.h>

#include <array>

#include "algorithms/decentralized/mixing.h"
#include "algorithms/decentralized/round_driver.h"
#include "algorithms/registry.h"
#include "algorithms/run_recorder.h"
#include "models/objective.h"
#include "sim/check.h"
#include "sim/error.h"
#include "sim/topology.h"

namespace commsim {
namespace {

constexpr std::array<std::string_view, 2> kLossAt = {"average", "nodes"};

double NonzeroFraction(const Eigen::Ref<const Eigen::VectorXd>& x) {
  return x.size() == 0 ? 0.0
                       : static_cast<double>((x.array() != 0.0).count()) /
                             static_cast<double>(x.size());
}

}  // namespace

std::span<const std::string_view> LossAtChoices() { return kLossAt; }

void DecentralizedOptions::Describe(ParamVisitor& v) {
  v.Text("mixing", mixing, MixingKinds(),
         "gossip weights W: auto = metropolis (= 1/3 on a ring, 1/5 on a torus, 1/n complete)");
  v.Text("loss_at", loss_at, kLossAt,
         "evaluate the loss at the node average x-bar, or average it over the nodes' models");
}

MixingMatrix MixingForTopology(std::string_view kind, const Topology& topology) {
  if (topology.server().has_value()) {
    throw UserError(fmt::format(
        "topology '{}' has a parameter server; decentralized algorithms need a peer-to-peer graph "
        "(ring, torus, complete, erdos_renyi or explicit)",
        topology.kind()));
  }
  std::vector<std::vector<int>> neighbours(topology.num_hosts());
  for (int h = 0; h < topology.num_hosts(); ++h) neighbours[h] = topology.neighbours(h);
  return BuildMixing(kind, neighbours);
}

void RunDecentralized(const RunSetup& setup, std::string_view algorithm,
                      const DecentralizedOptions& options, const ComponentSpec& compressor_spec,
                      const RuleFactory& make_rule, std::vector<IterationRecord>* records,
                      RunSummary* summary) {
  COMMSIM_CHECK(setup.objective != nullptr && setup.topology != nullptr, "incomplete RunSetup");
  const Objective& objective = *setup.objective;
  MixingMatrix mixing;
  try {
    mixing = MixingForTopology(options.mixing, *setup.topology);
    if (setup.topology->num_hosts() != objective.num_workers()) {
      throw UserError(fmt::format("the topology has {} nodes but the problem is split over {} "
                                  "workers",
                                  setup.topology->num_hosts(), objective.num_workers()));
    }
  } catch (const UserError& e) {
    throw UserError(fmt::format("{} ({}): {}", setup.label, algorithm, e.what()));
  }
  const std::unique_ptr<Compressor> compressor = CompressorRegistry().Make(compressor_spec);

  RunRecorder recorder(setup, std::string(algorithm), std::string(kDecentralizedFamily));
  const MixingMatrix::Spectrum spectrum = mixing.ComputeSpectrum();
  recorder.SetSummaryExtra("spectral_gap", spectrum.spectral_gap);
  recorder.SetSummaryExtra("rho", spectrum.rho);

  const int64_t dim = objective.dim();
  Eigen::VectorXd x0(dim);
  Rng init_rng(setup.seed, 0, "init");
  objective.InitialPoint(init_rng, x0);
  NodeRuleContext context{.mixing = &mixing, .compressor = compressor.get(),
                          .objective = &objective, .dim = dim, .step = setup.step,
                          .batch = setup.batch, .prox_l1 = objective.l1() + options.mu,
                          .seed = setup.seed};
  const std::unique_ptr<NodeRule> rule = make_rule(context, x0);
  const int n = rule->num_nodes();

  Eigen::VectorXd mean(dim);
  const double mu = options.mu;
  const bool at_nodes = options.loss_at == "nodes";
  auto evaluate = [&](IterationRecord& r) {
    mean.setZero();
    for (int i = 0; i < n; ++i) mean += rule->x(i);
    mean /= n;
    double consensus = 0, node_density = 0, loss = 0;
    for (int i = 0; i < n; ++i) {
      consensus += (rule->x(i) - mean).squaredNorm();
      node_density += NonzeroFraction(rule->x(i));
      if (at_nodes) loss += objective.Loss(rule->x(i)) + mu * rule->x(i).lpNorm<1>();
    }
    r.loss = at_nodes ? loss / n : objective.Loss(mean) + mu * mean.lpNorm<1>();
    if (const Optimum* opt = objective.optimum()) r.dist_to_opt_sq = (mean - opt->x).squaredNorm();
    r.test_accuracy = objective.TestAccuracy(mean);
    r.consensus_dist = consensus / n;
    r.density = NonzeroFraction(mean);
    r.extra["node_density"] = node_density / n;
  };
  recorder.Start(evaluate);
  RunRounds(setup, mixing, *rule, recorder, evaluate);
  recorder.Finish(records, summary);
}

}  // namespace commsim
