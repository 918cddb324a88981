// DecentralizedAlgorithm<Rule>: a NodeRule type as an Algorithm (one registry line each), and
// RunDecentralized, the Run() every decentralized algorithm shares — checks the topology, builds
// the mixing matrix and its spectrum, the compressor and the initial point, times the rounds on the
// network (round_driver.h) and evaluates the per-iteration metrics.
//
// Metrics of a recorded iteration (x-bar = (1/n) sum_i x_i):
//   loss            F(x-bar) + R(x-bar) + mu ||x-bar||_1  (loss_at "average"), or the mean of the
//                   same over the nodes' x_i (loss_at "nodes")
//   dist_to_opt_sq  ||x-bar - x*||^2 when the objective knows x*
//   test_accuracy   at x-bar
//   consensus_dist  (1/n) sum_i ||x_i - x-bar||^2
//   density         fraction of nonzero entries of x-bar; extra "node_density": the mean over nodes
//                   of the fraction of nonzeros of x_i
// Summary extras: spectral_gap (1 - |lambda_2(W)|), rho (max(|lambda_2|, |lambda_n|)), and the
// rule's own (NodeRule::SummaryExtras).
// Starts: every node at the objective's InitialPoint, or at Objective::WorkerStart(i) when the
// problem gives node i its own (the consensus problem).
// Trajectories (algorithms/trajectory.h): with setup.record the round driver records every node's
// message of every round; with setup.replay a ReplayNodeRule (node_replay.h) plays them.
// Bad input (UserError, prefixed with the entry's label): a topology with a server or whose host
// count differs from the problem's workers, a node with no neighbours, a disconnected graph, a
// mixing kind whose degree requirement fails.
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_DECENTRALIZED_RUN_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_DECENTRALIZED_RUN_H_

#include <fmt/format.h>

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/decentralized/mixing.h"
#include "algorithms/decentralized/node_rule.h"
#include "base/error.h"
#include "base/params.h"
#include "sim/topology.h"

namespace commsim {

// Choices of the loss_at field.
std::span<const std::string_view> LossAtChoices();

// Fields every decentralized config shares.
struct DecentralizedOptions {
  std::string mixing = "auto";
  std::string graph = "auto";
  std::string loss_at = "average";
  double mu = 0.0;  // l1 weight added to the model's own for the proximal step and the loss
  // Declares mixing, graph and loss_at (mu is declared by the algorithms that expose it).
  void Describe(ParamVisitor& v);
};

using RuleFactory = std::function<std::unique_ptr<NodeRule>(
    const NodeRuleContext& context, const Eigen::Ref<const Eigen::VectorXd>& x0)>;

// Checks what RunDecentralized needs before anything runs and returns the mixing matrix; throws
// the UserErrors listed above.
MixingMatrix CheckDecentralized(const RunSetup& setup, std::string_view algorithm,
                                const DecentralizedOptions& options);

void RunDecentralized(const RunSetup& setup, std::string_view algorithm,
                      const DecentralizedOptions& options, const ComponentSpec& compressor,
                      const RuleFactory& make_rule, std::vector<IterationRecord>* records,
                      RunSummary* summary);

// The decentralized family's driver for RuleAlgorithm (algorithms/algorithm.h): Rule is a
// NodeRule whose Rule::Config has the fields `compressor` (ComponentSpec: how messages are
// encoded) and `common` (DecentralizedOptions); Rule(const Rule::Config&, const
// NodeRuleContext&, x0) builds the rule of every node.
struct DecentralizedFamily {
  static constexpr Family kFamily = Family::kDecentralized;
  using RuleFactory = commsim::RuleFactory;
  template <class Rule>
  static RuleFactory Factory(const typename Rule::Config& config) {
    return [config](const NodeRuleContext& context, const Eigen::Ref<const Eigen::VectorXd>& x0) {
      return std::make_unique<Rule>(config, context, x0);
    };
  }
  // Also runs the config's own CheckSetup(setup, mixing) when it has one (throws UserError).
  template <class Config>
  static void Check(const Config& config, const RunSetup& setup, std::string_view name) {
    const MixingMatrix mixing = CheckDecentralized(setup, name, config.common);
    if constexpr (requires { config.CheckSetup(setup, mixing); }) {
      try {
        config.CheckSetup(setup, mixing);
      } catch (const UserError& e) {
        throw UserError(fmt::format("{} ({}): {}", setup.label, name, e.what()));
      }
    }
  }
  template <class Rule>
  static void Run(const typename Rule::Config& config, const RunSetup& setup, std::string_view name,
                  std::vector<IterationRecord>* records, RunSummary* summary) {
    const RuleFactory make_rule = [&config](const NodeRuleContext& context,
                                            const Eigen::Ref<const Eigen::VectorXd>& x0) {
      return std::make_unique<Rule>(config, context, x0);
    };
    RunDecentralized(setup, name, config.common, config.compressor, make_rule, records, summary);
  }
};
template <class Rule>
using DecentralizedAlgorithm = RuleAlgorithm<Rule, DecentralizedFamily>;

// Choices of the graph field: "auto", "topology", and LogicalGraphKinds().
std::span<const std::string_view> GraphChoices();

// The gossip nodes of a topology: its hosts, without the server if it has one (a star's server
// sits at host index n, after the workers 0..n-1, so node i is host i either way).
int GossipNodes(const Topology& topology);

// The mixing matrix of `mixing_kind` over the gossip graph `graph`:
//   topology  the hosts' own neighbour lists (Topology::neighbours); needs a peer-to-peer topology
//   ring | torus | complete  a logical graph over the gossip nodes, whose messages are routed over
//             the physical topology (e.g. a ring of workers talking through a star's switch)
//   auto      topology when the topology has no server and joins some hosts directly, else ring
//             (stars, tree, fat_tree, dumbbell)
// Throws UserError for a bad graph (see BuildMixing) or graph "topology" on a topology with a
// server.
MixingMatrix MixingForTopology(std::string_view mixing_kind, std::string_view graph,
                               const Topology& topology);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_DECENTRALIZED_RUN_H_
