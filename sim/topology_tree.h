// `tree`: a two-level tree. Racks of `rack_size` host slots, each under a top-of-rack (ToR)
// switch; every ToR has one link to a single core switch.
//
// Build(n): hosts fill the slots in order (see topology_fabric.h): host h is in rack
// h / rack_size, so there are ceil(slots / rack_size) racks and only the last may be partial.
// `server`: "core" (the default) hangs the server (host n) off the core switch by its own link
// (server_bandwidth, server_latency), in a rack of its own (the last rack id); "last" puts it in
// the slot after the workers; "none" builds no server.
// Node ids: hosts 0..H-1, ToR r is H + r ("tor<r>"), the core is H + R ("core").
// Edges (link 2i = host/ToR -> upward): host h's edge is edge h (to its ToR, or to the core for a
// "core" server); then ToR r's edge to the core is edge H + r.
// A rack's hosts share its ToR-core link, so the rack is oversubscribed rack_size *
// host_bandwidth / core_bandwidth : 1. Routes are unique: 2 hops within a rack, 4 across racks,
// 3 between a rack and a "core" server.
#ifndef COMMSIM_SIM_TOPOLOGY_TREE_H_
#define COMMSIM_SIM_TOPOLOGY_TREE_H_

#include <cstdint>
#include <string>

#include "base/params.h"
#include "sim/topology.h"
#include "sim/topology_fabric.h"
#include "sim/topology_links.h"

namespace commsim {

struct TreeConfig final : ConfigBase<TreeConfig> {
  int64_t rack_size = 4;
  LinkValues host;
  LinkValues core;
  std::string server{kServerCore};
  LinkValues server_link;  // the fields server_bandwidth and server_latency
  void Describe(ParamVisitor& v) override;
};

Topology BuildTree(const TreeConfig& config, int n);
using TreeBuilder = ConfigBuilder<TreeConfig, BuildTree>;

}  // namespace commsim

#endif  // COMMSIM_SIM_TOPOLOGY_TREE_H_
