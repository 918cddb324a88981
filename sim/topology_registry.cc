#include "sim/topology_registry.h"

#include "sim/topology_dumbbell.h"
#include "sim/topology_fat_tree.h"
#include "sim/topology_graph.h"
#include "sim/topology_regular.h"
#include "sim/topology_star.h"
#include "sim/topology_tree.h"

namespace commsim {
namespace {

Registry<TopologyBuilder> MakeRegistry() {
  Registry<TopologyBuilder> r;
  r.Add<StarBuilder, StarConfig>("star", "n workers and a server joined by one switch");
  r.Add<StarDirectBuilder, StarDirectConfig>("star_direct",
                                             "n workers, each with its own link to the server");
  r.Add<RingBuilder, RingConfig>("ring", "n nodes in a cycle");
  r.Add<TorusBuilder, TorusConfig>("torus", "n = rows x cols nodes on a 2-D grid with wrap-around");
  r.Add<CompleteBuilder, CompleteConfig>("complete", "n nodes, every pair linked");
  r.Add<ErdosRenyiBuilder, ErdosRenyiConfig>("erdos_renyi",
                                             "random G(n, p) graph, redrawn until connected");
  r.Add<ExplicitBuilder, ExplicitConfig>(
      "explicit", "n hosts (+ the server, + switches) joined by an edge list");
  r.Add<TreeBuilder, TreeConfig>(
      "tree", "racks of hosts under top-of-rack switches joined by one core switch");
  r.Add<FatTreeBuilder, FatTreeConfig>(
      "fat_tree", "k-ary fat tree: k pods of edge and aggregation switches, (k/2)^2 cores");
  r.Add<DumbbellBuilder, DumbbellConfig>("dumbbell",
                                         "two switches of hosts joined by one bottleneck link");
  return r;
}

}  // namespace

const Registry<TopologyBuilder>& TopologyRegistry() {
  static const Registry<TopologyBuilder> registry = MakeRegistry();
  return registry;
}

Topology BuildTopology(const ComponentSpec& spec, int n) {
  return TopologyRegistry().Make(spec)->Build(n);
}

}  // namespace commsim
