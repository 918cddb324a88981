// The registry of topology kinds (one line per kind in topology_registry.cc).
//
// Each entry's config holds link parameters and shape only; the node or worker count comes from
// the caller (the scenario's `workers`), see TopologyBuilder::Build in sim/topology.h.
#ifndef COMMSIM_SIM_TOPOLOGY_REGISTRY_H_
#define COMMSIM_SIM_TOPOLOGY_REGISTRY_H_

#include <string>

#include "base/params.h"
#include "base/registry.h"
#include "sim/topology.h"

namespace commsim {

inline constexpr char kTopologyKind[] = "topology";

const Registry<TopologyBuilder>& TopologyRegistry();

// Builds the topology `spec` describes for n workers (star kinds) or nodes (others).
// REQUIRES: spec names a registered kind and holds its config. Throws UserError for bad values.
Topology BuildTopology(const ComponentSpec& spec, int n);

// The kinds that give a parameter-server algorithm its server, and the graph kinds a
// decentralized one gossips on, as one phrase each for messages and docs, read from the registry
// (a kind's default built at 4 hosts, and its `server` key): e.g. "star, star_direct, tree,
// fat_tree, dumbbell, or explicit with \"server\"".
std::string ServerTopologyList();
std::string GraphTopologyList();

}  // namespace commsim

#endif  // COMMSIM_SIM_TOPOLOGY_REGISTRY_H_
