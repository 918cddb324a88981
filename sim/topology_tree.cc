#include "sim/topology_tree.h"

#include <fmt/format.h>

#include <utility>

namespace commsim {
namespace {

constexpr char kKind[] = "tree";

}  // namespace

void TreeConfig::Describe(ParamVisitor& v) {
  v.Int("rack_size", rack_size, Range::Closed(1, Topology::kMaxHosts),
        "host slots per rack (per top-of-rack switch)");
  DescribeLink(v, "host", host_bandwidth_bps, host_latency_s,
               "bandwidth of each host-ToR link, each direction",
               "one-way latency of each host link");
  DescribeLink(v, "core", core_bandwidth_bps, core_latency_s,
               "bandwidth of each ToR-core link, each direction",
               "one-way latency of each ToR-core link");
  v.Text("server", server, TreeServerChoices(),
         "core: the server hangs off the core switch; last: it takes the slot after the workers; "
         "none: no server");
  DescribeLink(v, "server", server_bandwidth_bps, server_latency_s,
               "bandwidth of the core-server link (server \"core\")",
               "one-way latency of the core-server link (server \"core\")");
}

namespace {

void CheckTree(const TreeConfig& config) {
  if (config.rack_size < 1 || config.rack_size > Topology::kMaxHosts) {
    ThrowTopologyError(
        kKind, "rack_size",
        fmt::format("must be in [1, {}], got {}", Topology::kMaxHosts, config.rack_size));
  }
  CheckLink(kKind, "host", config.host_bandwidth_bps, config.host_latency_s);
  CheckLink(kKind, "core", config.core_bandwidth_bps, config.core_latency_s);
  CheckLink(kKind, "server", config.server_bandwidth_bps, config.server_latency_s);
}

}  // namespace

Topology BuildTree(const TreeConfig& config, int n) {
  CheckTree(config);
  const FabricHosts hosts = PlaceHosts(kKind, n, config.server, TreeServerChoices());
  const int h = hosts.total();
  const int slots = hosts.in_slots();
  const int rack_size = static_cast<int>(config.rack_size);
  const int racks = (slots + rack_size - 1) / rack_size;
  const int core = h + racks;
  TopologyShape shape = FabricShape(kKind, hosts);
  shape.num_switches = racks + 1;
  for (int host = 0; host < slots; ++host) {
    shape.edges.push_back(
        {host, h + host / rack_size, config.host_bandwidth_bps, config.host_latency_s});
    shape.racks.push_back(host / rack_size);
  }
  if (slots < h) {  // the server hangs off the core
    shape.edges.push_back({slots, core, config.server_bandwidth_bps, config.server_latency_s});
    shape.racks.push_back(racks);
  }
  for (int r = 0; r < racks; ++r) {
    shape.edges.push_back({h + r, core, config.core_bandwidth_bps, config.core_latency_s});
    shape.node_names.push_back(fmt::format("tor{}", r));
  }
  shape.node_names.push_back("core");
  return Topology::Create(std::move(shape));
}

}  // namespace commsim
