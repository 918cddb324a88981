// `dumbbell`: two switches ("left", "right") joined by one bottleneck link, each with its own
// hosts on access links.
//
// Build(n): hosts are placed as in topology_fabric.h (`server` "last": the server is host n,
// after the workers). Hosts 0..L-1 are on the left switch and L..H-1 on the right, where
// L = `left`, or ceil(H / 2) when `left` is 0; both sides need a host (1 <= L <= H - 1). So the
// server, the last host, is on the right: `left` = n puts every worker on the left and an incast
// crosses the bottleneck. rack(h) is the side: 0 left, 1 right.
// Node ids: hosts 0..H-1, left switch H, right switch H + 1. Edges: host h's access edge is edge
// h (link 2h = host -> its switch); the bottleneck is edge H (link 2H = left -> right).
// Routes: 2 hops on one side, 3 across the bottleneck.
#ifndef COMMSIM_SIM_TOPOLOGY_DUMBBELL_H_
#define COMMSIM_SIM_TOPOLOGY_DUMBBELL_H_

#include <cstdint>
#include <string>

#include "base/params.h"
#include "sim/topology.h"
#include "sim/topology_fabric.h"
#include "sim/topology_links.h"

namespace commsim {

struct DumbbellConfig final : ConfigBase<DumbbellConfig> {
  int64_t left = 0;
  LinkValues access;
  LinkValues bottleneck;
  std::string server{kServerLast};
  void Describe(ParamVisitor& v) override;
};

Topology BuildDumbbell(const DumbbellConfig& config, int n);
using DumbbellBuilder = ConfigBuilder<DumbbellConfig, BuildDumbbell>;

}  // namespace commsim

#endif  // COMMSIM_SIM_TOPOLOGY_DUMBBELL_H_
