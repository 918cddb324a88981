#include "sim/topology_dumbbell.h"

#include <fmt/format.h>

#include <utility>

namespace commsim {
namespace {

constexpr char kKind[] = "dumbbell";

}  // namespace

void DumbbellConfig::Describe(ParamVisitor& v) {
  v.Int("left", left, Range::Closed(0, Topology::kMaxHosts),
        "hosts 0..left-1 sit on the left switch, the rest on the right (0 = half, rounded up)");
  access.Describe(v, "access", "bandwidth of each host-switch link, each direction",
                  "one-way latency of each host link");
  bottleneck.Describe(v, "bottleneck", "bandwidth of the left-right link, each direction",
                      "one-way latency of the left-right link");
  v.Text("server", server, SlotServerChoices(),
         "last: the server is the last host (on the right); none: no server");
}

Topology BuildDumbbell(const DumbbellConfig& config, int n) {
  const FabricHosts hosts =
      PlaceHosts(kKind, n, config.server, SlotServerChoices(),
                 {{"access", config.access}, {"bottleneck", config.bottleneck}});
  const int h = hosts.total();
  if (h < 2) {
    ThrowTopologyError(kKind, "workers",
                       fmt::format("needs 2 hosts, one per side, got {}", hosts.Describe()));
  }
  const int64_t left = config.left == 0 ? (h + 1) / 2 : config.left;
  if (left < 1 || left > h - 1) {
    ThrowTopologyError(kKind, "left",
                       fmt::format("must be 0 (half) or in [1, {}] so both sides have a host ({}), "
                                   "got {}",
                                   h - 1, hosts.Describe(), config.left));
  }
  TopologyShape shape = FabricShape(kKind, hosts);
  shape.num_switches = 2;
  for (int host = 0; host < h; ++host) {
    const int side = host < left ? 0 : 1;
    shape.edges.push_back(config.access.Join(host, h + side));
    shape.racks.push_back(side);
  }
  shape.edges.push_back(config.bottleneck.Join(h, h + 1));
  shape.node_names.push_back("left");
  shape.node_names.push_back("right");
  return Topology::Create(std::move(shape));
}

}  // namespace commsim
