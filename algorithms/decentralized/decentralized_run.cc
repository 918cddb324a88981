#include "algorithms/decentralized/decentralized_run.h"

#include <fmt/format.h>

#include <array>

#include "algorithms/decentralized/mixing.h"
#include "algorithms/decentralized/node_replay.h"
#include "algorithms/decentralized/node_work.h"
#include "algorithms/decentralized/round_driver.h"
#include "algorithms/run_recorder.h"
#include "algorithms/sync_rounds.h"
#include "base/check.h"
#include "base/error.h"
#include "compression/codec/link_compressor.h"
#include "compression/registry.h"
#include "models/objective.h"
#include "sim/topology.h"

namespace commsim {
namespace {

constexpr std::array<std::string_view, 2> kLossAt = {"average", "nodes"};
constexpr std::array<std::string_view, 5> kGraphChoices = {"auto", "topology", "ring", "torus",
                                                           "complete"};

double NonzeroFraction(const Eigen::Ref<const Eigen::VectorXd>& x) {
  return x.size() == 0
             ? 0.0
             : static_cast<double>((x.array() != 0.0).count()) / static_cast<double>(x.size());
}

}  // namespace

std::span<const std::string_view> LossAtChoices() { return kLossAt; }
std::span<const std::string_view> GraphChoices() { return kGraphChoices; }

int GossipNodes(const Topology& topology) {
  return static_cast<int>(topology.WorkerHosts().size());
}

void DecentralizedOptions::Describe(ParamVisitor& v) {
  v.Text("mixing", mixing, MixingKinds(),
         "gossip weights W: auto = metropolis (= 1/3 on a ring, 1/5 on a torus, 1/n complete)");
  v.Text("graph", graph, kGraphChoices,
         "who gossips with whom: the topology's links, or a logical ring/torus/complete graph "
         "routed over it (auto: topology, or ring on a topology with a server or without "
         "host-to-host links)");
  v.Text("loss_at", loss_at, kLossAt,
         "evaluate the loss at the node average x-bar, or average it over the nodes' models");
}

MixingMatrix MixingForTopology(std::string_view mixing_kind, std::string_view graph,
                               const Topology& topology) {
  const bool has_server = topology.server().has_value();
  bool host_links = false;  // fabrics (tree, fat_tree, dumbbell) join no two hosts directly
  for (int h = 0; h < topology.num_hosts() && !host_links; ++h) {
    host_links = !topology.neighbours(h).empty();
  }
  if (graph == "auto") graph = has_server || !host_links ? "ring" : "topology";
  if (graph != "topology")
    return BuildMixing(mixing_kind, LogicalGraph(graph, GossipNodes(topology)));
  if (has_server) {
    throw UserError(fmt::format(
        "topology '{}' has a parameter server, so its links do not form a gossip graph; use a "
        "peer-to-peer topology (ring, torus, complete, erdos_renyi, explicit) or set \"graph\" "
        "to ring, torus or complete to gossip over the workers through it",
        topology.kind()));
  }
  std::vector<std::vector<int>> neighbours(topology.num_hosts());
  for (int h = 0; h < topology.num_hosts(); ++h) neighbours[h] = topology.neighbours(h);
  return BuildMixing(mixing_kind, neighbours);
}

MixingMatrix CheckDecentralized(const RunSetup& setup, std::string_view algorithm,
                                const DecentralizedOptions& options) {
  COMMSIM_CHECK(setup.objective != nullptr && setup.topology != nullptr, "incomplete RunSetup");
  CheckThreadsForCodec(setup);
  try {
    if (GossipNodes(*setup.topology) != setup.objective->num_workers()) {
      throw UserError(
          fmt::format("the topology has {} nodes but the problem is split over {} "
                      "workers",
                      GossipNodes(*setup.topology), setup.objective->num_workers()));
    }
    return MixingForTopology(options.mixing, options.graph, *setup.topology);
  } catch (const UserError& e) {
    throw UserError(fmt::format("{} ({}): {}", setup.label, algorithm, e.what()));
  }
}

void RunDecentralized(const RunSetup& setup, std::string_view algorithm,
                      const DecentralizedOptions& options, const ComponentSpec& compressor_spec,
                      const RuleFactory& make_rule, std::vector<IterationRecord>* records,
                      RunSummary* summary) {
  const Objective& objective = *setup.objective;
  const MixingMatrix mixing = CheckDecentralized(setup, algorithm, options);
  const std::unique_ptr<Compressor> compressor = MakeLinkCompressor(compressor_spec);

  RunRecorder recorder(setup, std::string(algorithm), Family::kDecentralized);
  const MixingMatrix::Spectrum spectrum = mixing.ComputeSpectrum();
  recorder.SetSummaryExtra("spectral_gap", spectrum.spectral_gap);
  recorder.SetSummaryExtra("rho", spectrum.rho);

  const int64_t dim = objective.dim();
  Eigen::VectorXd x0(dim);
  Rng init_rng(setup.seed, 0, "init");
  objective.InitialPoint(init_rng, x0);
  NodeRuleContext context{.mixing = &mixing,
                          .compressor = compressor.get(),
                          .objective = &objective,
                          .dim = dim,
                          .step = setup.step,
                          .batch = setup.batch,
                          .prox_l1 = objective.l1() + options.mu,
                          .seed = setup.seed,
                          .threads = RunThreads(setup, mixing.num_nodes())};
  std::unique_ptr<NodeRule> rule = make_rule(context, x0);
  const int n = rule->num_nodes();
  for (int i = 0; i < n; ++i) {
    if (const Eigen::VectorXd* start = objective.WorkerStart(i)) rule->SetX(i, *start);
  }
  for (const auto& [name, value] : rule->SummaryExtras()) recorder.SetSummaryExtra(name, value);
  if (setup.replay != nullptr) {  // the real rule only tells when its nodes send
    rule = std::make_unique<ReplayNodeRule>(*setup.replay, mixing, *rule);
  }

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
