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
  host.Describe(v, "host", "bandwidth of each host-ToR link, each direction",
                "one-way latency of each host link");
  core.Describe(v, "core", "bandwidth of each ToR-core link, each direction",
                "one-way latency of each ToR-core link");
  v.Text("server", server, TreeServerChoices(),
         "core: the server hangs off the core switch; last: it takes the slot after the workers; "
         "none: no server");
  server_link.Describe(v, "server", "bandwidth of the core-server link (server \"core\")",
                       "one-way latency of the core-server link (server \"core\")");
}

Topology BuildTree(const TreeConfig& config, int n) {
  if (config.rack_size < 1 || config.rack_size > Topology::kMaxHosts) {
    ThrowTopologyError(
        kKind, "rack_size",
        fmt::format("must be in [1, {}], got {}", Topology::kMaxHosts, config.rack_size));
  }
  const FabricHosts hosts =
      PlaceHosts(kKind, n, config.server, TreeServerChoices(),
                 {{"host", config.host}, {"core", config.core}, {"server", config.server_link}});
  const int h = hosts.total();
  const int slots = hosts.in_slots();
  const int rack_size = static_cast<int>(config.rack_size);
  const int racks = (slots + rack_size - 1) / rack_size;
  const int core = h + racks;
  TopologyShape shape = FabricShape(kKind, hosts);
  shape.num_switches = racks + 1;
  for (int host = 0; host < slots; ++host) {
    shape.edges.push_back(config.host.Join(host, h + host / rack_size));
    shape.racks.push_back(host / rack_size);
  }
  if (slots < h) {  // the server hangs off the core
    shape.edges.push_back(config.server_link.Join(slots, core));
    shape.racks.push_back(racks);
  }
  for (int r = 0; r < racks; ++r) {
    shape.edges.push_back(config.core.Join(h + r, core));
    shape.node_names.push_back(fmt::format("tor{}", r));
  }
  shape.node_names.push_back("core");
  return Topology::Create(std::move(shape));
}

}  // namespace commsim
