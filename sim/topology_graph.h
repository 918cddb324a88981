// General-graph topologies: `erdos_renyi` (random, connected) and `explicit` (an edge list).
//
// erdos_renyi, Build(n): each pair i < j is an edge with probability p, drawn in lexicographic
//   order from Rng(DeriveSeed(seed, 0, "erdos_renyi")); a disconnected draw is discarded and the
//   same stream draws again, up to 1000 times (then UserError: p is too small for n).
// explicit, Build(n): h hosts plus `switches` switch nodes (ids h .. h + switches - 1), where
//   h = n without a server (`server` = -1) and h = n + 1 with one: n workers plus the server,
//   which may be any host 0..n (as a star's n workers and its server). `edges` lists node-id pairs
//   flat ([a0, b0, a1, b1, ...]); `bandwidths`/`latencies` optionally give one value per edge,
//   else `bandwidth`/`latency` apply. The graph must be connected. neighbours = hosts joined by an
//   edge.
#ifndef COMMSIM_SIM_TOPOLOGY_GRAPH_H_
#define COMMSIM_SIM_TOPOLOGY_GRAPH_H_

#include <cstdint>
#include <vector>

#include "base/params.h"
#include "sim/topology.h"
#include "sim/topology_links.h"

namespace commsim {

struct ErdosRenyiConfig final : UniformLinksConfig<ErdosRenyiConfig> {
  static constexpr int kMaxDraws = 1000;  // graphs drawn before giving up on a connected one
  double p = 0.5;
  int64_t seed = 1;
  void Describe(ParamVisitor& v) override;
};

Topology BuildErdosRenyi(const ErdosRenyiConfig& config, int n);
using ErdosRenyiBuilder = ConfigBuilder<ErdosRenyiConfig, BuildErdosRenyi>;

struct ExplicitConfig final : UniformLinksConfig<ExplicitConfig> {
  static constexpr int64_t kMaxSwitches = 100000;  // as many as the largest worker count
  std::vector<double> edges;                       // node-id pairs, flattened
  int64_t switches = 0;
  int64_t server = -1;
  std::vector<double> bandwidths_bps;
  std::vector<double> latencies_s;
  void Describe(ParamVisitor& v) override;
  void Validate(ParamProblems& problems) const override;
};

Topology BuildExplicit(const ExplicitConfig& config, int n);
using ExplicitBuilder = ConfigBuilder<ExplicitConfig, BuildExplicit>;

}  // namespace commsim

#endif  // COMMSIM_SIM_TOPOLOGY_GRAPH_H_
