#include "sim/topology_graph.h"

#include <fmt/format.h>

#include <cmath>
#include <numeric>
#include <utility>

#include "base/rng.h"

namespace commsim {
namespace {

bool Connected(int n, const std::vector<Edge>& edges) {
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  int components = n;
  for (const Edge& e : edges) {
    const int a = find(e.a);
    const int b = find(e.b);
    if (a != b) {
      parent[a] = b;
      --components;
    }
  }
  return components == 1;
}

}  // namespace

void ErdosRenyiConfig::Describe(ParamVisitor& v) {
  v.Real("p", p, Range::OpenClosed(0, 1), "probability of each edge");
  v.Int("seed", seed, Range::NonNegative(), "seed of the graph draw");
  links.Describe(v);
}

Topology BuildErdosRenyi(const ErdosRenyiConfig& config, int n) {
  TopologyShape shape = UniformShape("erdos_renyi", n, config.links);
  if (!(config.p > 0 && config.p <= 1)) {
    ThrowTopologyError("erdos_renyi", "p", fmt::format("must be in (0, 1], got {}", config.p));
  }
  Rng rng(static_cast<uint64_t>(config.seed), 0, "erdos_renyi");
  for (int draw = 0; draw < ErdosRenyiConfig::kMaxDraws; ++draw) {
    shape.edges.clear();
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        if (rng.Bernoulli(config.p)) {
          shape.edges.push_back(config.links.Join(i, j));
        }
      }
    }
    if (Connected(n, shape.edges)) return Topology::Create(std::move(shape));
  }
  ThrowTopologyError("erdos_renyi", "p",
                     fmt::format("{} is too small: no connected graph on {} nodes in {} draws",
                                 config.p, n, ErdosRenyiConfig::kMaxDraws));
}

void ExplicitConfig::Describe(ParamVisitor& v) {
  v.RealList("edges", edges, Range::NonNegative(),
             "node-id pairs, flattened: [a0, b0, a1, b1, ...]; hosts first, then switches");
  v.Int("switches", switches, Range::Closed(0, kMaxSwitches), "switch nodes after the hosts");
  v.Int("server", server, Range::AtLeast(-1), "host index of the parameter server (-1 = none)");
  links.Describe(v);
  v.RealList("bandwidths", bandwidths_bps, Range::Positive(),
             "per-edge bandwidths (empty = bandwidth for all)", Unit::kBitsPerSecond);
  v.RealList("latencies", latencies_s, LatencyRange(),
             "per-edge latencies (empty = latency for all)", Unit::kSeconds);
}

void ExplicitConfig::Validate(ParamProblems& problems) const {
  if (edges.size() % 2 != 0) {
    problems.Add("edges", fmt::format("expected node-id pairs (an even count), got {} values",
                                      edges.size()));
  }
  for (size_t i = 0; i < edges.size(); ++i) {
    if (edges[i] != std::floor(edges[i])) {
      problems.Add("edges", fmt::format("entry {} is {}, expected a node id", i, edges[i]));
    }
  }
  const size_t count = edges.size() / 2;
  for (const auto& [key, list] :
       {std::pair{"bandwidths", &bandwidths_bps}, std::pair{"latencies", &latencies_s}}) {
    if (!list->empty() && list->size() != count) {
      problems.Add(key, fmt::format("expected {} values (one per edge) or none, got {}", count,
                                    list->size()));
    }
  }
}

Topology BuildExplicit(const ExplicitConfig& config, int n) {
  TopologyShape shape = UniformShape("explicit", n, config.links);
  ParamProblems problems;
  config.Validate(problems);
  if (!problems.empty()) {
    ThrowTopologyError("explicit", problems.problems()[0].key, problems.problems()[0].message);
  }
  constexpr int64_t kMaxSwitches = ExplicitConfig::kMaxSwitches;
  if (config.switches < 0 || config.switches > kMaxSwitches) {
    ThrowTopologyError("explicit", "switches",
                       fmt::format("must be in [0, {}], got {}", kMaxSwitches, config.switches));
  }
  // With a server, the n workers and the server are n + 1 hosts (as in a star).
  const int hosts = config.server >= 0 ? n + 1 : n;
  const int64_t nodes = hosts + config.switches;
  if (config.server < -1 || config.server >= hosts) {
    ThrowTopologyError("explicit", "server",
                       fmt::format("must be -1 or a host in [0, {}] ({} workers + the server), "
                                   "got {}",
                                   n, n, config.server));
  }
  shape.num_hosts = hosts;
  shape.num_switches = static_cast<int>(config.switches);
  if (config.server >= 0) shape.servers = {static_cast<int>(config.server)};
  for (size_t k = 0; k < config.edges.size() / 2; ++k) {
    const double a = config.edges[2 * k];
    const double b = config.edges[2 * k + 1];
    for (double end : {a, b}) {
      if (end < 0 || end >= static_cast<double>(nodes)) {
        ThrowTopologyError("explicit", fmt::format("edges[{}]", k),
                           fmt::format("node {} is not in [0, {}) ({} hosts + {} switches)", end,
                                       nodes, hosts, config.switches));
      }
    }
    Edge e = config.links.Join(static_cast<int>(a), static_cast<int>(b));
    if (!config.bandwidths_bps.empty()) e.bandwidth_bps = config.bandwidths_bps[k];
    if (!config.latencies_s.empty()) e.latency_s = config.latencies_s[k];
    CheckBandwidth("explicit", fmt::format("bandwidths[{}]", k), e.bandwidth_bps);
    CheckLatency("explicit", fmt::format("latencies[{}]", k), e.latency_s);
    shape.edges.push_back(e);
  }
  return Topology::Create(std::move(shape));
}

}  // namespace commsim
