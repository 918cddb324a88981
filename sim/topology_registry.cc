#include "sim/topology_registry.h"

#include "sim/topology_graph.h"
#include "sim/topology_regular.h"
#include "sim/topology_star.h"

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
  r.Add<ExplicitBuilder, ExplicitConfig>("explicit", "n hosts (+ the server, + switches) joined by an edge list");
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
