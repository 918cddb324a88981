// `fat_tree`: the k-ary fat tree of data-centre fabrics (k even): k pods, each with k/2 edge and
// k/2 aggregation switches joined as a complete bipartite graph, and (k/2)^2 core switches; each
// edge switch has k/2 host slots, so k^3/4 slots in all.
//
// Build(n): hosts fill the slots in order (see topology_fabric.h; `server` "last" puts the
// server in slot n): host h sits under edge switch h / (k/2), which is also its rack(h).
// Fewer hosts than slots leave the last slots empty; more is a UserError naming k and the
// smallest k that fits. Aggregation switch a of every pod (a in 0..k/2-1) links to core
// switches a*(k/2) .. a*(k/2) + k/2 - 1.
// Node ids: hosts 0..H-1; edge switch e of pod p is H + p*(k/2) + e ("e<p>.<e>"); aggregation
// switch a of pod p is H + k^2/2 + p*(k/2) + a ("a<p>.<a>"); core c is H + k^2 + c ("c<c>").
// Edges (link 2i = the lower node -> the upper one): host h's edge is edge h; then edge-
// aggregation edges ordered by (pod, edge, aggregation); then aggregation-core edges ordered by
// (pod, aggregation, core).
// Bandwidths: host links run at host_bandwidth; edge-aggregation links at
// aggregation_bandwidth / oversubscription; aggregation-core links at core_bandwidth /
// oversubscription. With equal tier bandwidths B and ratio r, an edge switch's k/2 hosts share
// k/2 uplinks of B/r (r:1 oversubscribed at the edge); the aggregation tier is 1:1.
// Routes: shortest by latency, then fewer hops (up to the lowest common tier and down: 2 hops
// under one edge switch, 4 within a pod, 6 across pods), spread over the equal-cost
// aggregation and core switches by SpreadIndex (sim/topology.h): a fixed hash of (source host,
// switch), so routes from one host still form a tree.
#ifndef COMMSIM_SIM_TOPOLOGY_FAT_TREE_H_
#define COMMSIM_SIM_TOPOLOGY_FAT_TREE_H_

#include <cstdint>
#include <string>

#include "base/params.h"
#include "sim/topology.h"
#include "sim/topology_fabric.h"
#include "sim/topology_links.h"

namespace commsim {

struct FatTreeConfig final : ConfigBase<FatTreeConfig> {
  static constexpr int64_t kMaxK = 64;  // 65536 slots: more than Topology::kMaxHosts
  int64_t k = 4;
  double oversubscription = 1;
  LinkValues host;
  LinkValues aggregation;  // before oversubscription
  LinkValues core;         // before oversubscription
  std::string server{kServerLast};
  void Describe(ParamVisitor& v) override;
  void Validate(ParamProblems& problems) const override;
};

Topology BuildFatTree(const FatTreeConfig& config, int n);
using FatTreeBuilder = ConfigBuilder<FatTreeConfig, BuildFatTree>;

}  // namespace commsim

#endif  // COMMSIM_SIM_TOPOLOGY_FAT_TREE_H_
