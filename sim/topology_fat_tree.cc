#include "sim/topology_fat_tree.h"

#include <fmt/format.h>

#include <cmath>
#include <utility>

namespace commsim {
namespace {

constexpr char kKind[] = "fat_tree";

int64_t Slots(int64_t k) { return k * k * k / 4; }

// The smallest even k whose fat tree has at least `hosts` slots.
int64_t SmallestK(int hosts) {
  int64_t k = 2;
  while (Slots(k) < hosts) k += 2;
  return k;
}

std::string KProblem(int64_t k) {
  if (k < 2 || k > FatTreeConfig::kMaxK) {
    return fmt::format("must be in [2, {}], got {}", FatTreeConfig::kMaxK, k);
  }
  if (k % 2 != 0) return fmt::format("must be even, got {}", k);
  return "";
}

}  // namespace

void FatTreeConfig::Describe(ParamVisitor& v) {
  v.Int("k", k, Range::Closed(2, kMaxK),
        "switch ports (even): k pods, (k/2)^2 core switches, k^3/4 host slots");
  v.Real("oversubscription", oversubscription, Range::AtLeast(1),
         "divides the edge-aggregation and aggregation-core bandwidths (r:1 at the edge)");
  host.Describe(v, "host", "bandwidth of each host-edge link, each direction",
                "one-way latency of each host link");
  aggregation.Describe(v, "aggregation",
                       "bandwidth of each edge-aggregation link before oversubscription",
                       "one-way latency of each edge-aggregation link");
  core.Describe(v, "core", "bandwidth of each aggregation-core link before oversubscription",
                "one-way latency of each aggregation-core link");
  v.Text("server", server, SlotServerChoices(),
         "last: the server takes the slot after the workers; none: no server");
}

void FatTreeConfig::Validate(ParamProblems& problems) const {
  const std::string problem = KProblem(k);
  if (!problem.empty()) problems.Add("k", problem);
}

namespace {

void CheckFatTree(const FatTreeConfig& config) {
  const FatTreeConfig& c = config;
  const std::string problem = KProblem(c.k);
  if (!problem.empty()) ThrowTopologyError(kKind, "k", problem);
  if (!(c.oversubscription >= 1) || !std::isfinite(c.oversubscription)) {
    ThrowTopologyError(kKind, "oversubscription",
                       fmt::format("must be >= 1, got {}", c.oversubscription));
  }
}

}  // namespace

Topology BuildFatTree(const FatTreeConfig& config, int n) {
  CheckFatTree(config);
  const FabricHosts hosts = PlaceHosts(
      kKind, n, config.server, SlotServerChoices(),
      {{"host", config.host}, {"aggregation", config.aggregation}, {"core", config.core}});
  const int k = static_cast<int>(config.k);
  const int half = k / 2;
  const int h = hosts.total();
  if (h > Slots(k)) {
    ThrowTopologyError(kKind, "k",
                       fmt::format("k = {} gives {} host slots, too few for {}; k = {} fits them",
                                   k, Slots(k), hosts.Describe(), SmallestK(h)));
  }
  TopologyShape shape = FabricShape(kKind, hosts);
  shape.spread_equal_cost = true;
  const int edge0 = h;
  const int agg0 = h + k * half;
  const int core0 = h + k * k;
  shape.num_switches = k * k + half * half;
  for (int host = 0; host < h; ++host) {
    shape.edges.push_back(config.host.Join(host, edge0 + host / half));
    shape.racks.push_back(host / half);
  }
  const double agg_bps = config.aggregation.bandwidth_bps / config.oversubscription;
  const double core_bps = config.core.bandwidth_bps / config.oversubscription;
  for (int pod = 0; pod < k; ++pod) {
    for (int e = 0; e < half; ++e) {
      for (int a = 0; a < half; ++a) {
        shape.edges.push_back(
            {edge0 + pod * half + e, agg0 + pod * half + a, agg_bps, config.aggregation.latency_s});
      }
    }
  }
  for (int pod = 0; pod < k; ++pod) {
    for (int a = 0; a < half; ++a) {
      for (int m = 0; m < half; ++m) {
        shape.edges.push_back(
            {agg0 + pod * half + a, core0 + a * half + m, core_bps, config.core.latency_s});
      }
    }
  }
  for (int pod = 0; pod < k; ++pod) {
    for (int e = 0; e < half; ++e) shape.node_names.push_back(fmt::format("e{}.{}", pod, e));
  }
  for (int pod = 0; pod < k; ++pod) {
    for (int a = 0; a < half; ++a) shape.node_names.push_back(fmt::format("a{}.{}", pod, a));
  }
  for (int c = 0; c < half * half; ++c) shape.node_names.push_back(fmt::format("c{}", c));
  return Topology::Create(std::move(shape));
}

}  // namespace commsim
