// Host slots of the switched-fabric kinds (`tree`, `fat_tree`, `dumbbell`): which hosts fill them
// and how the parameter server is placed.
//
// Build(n) of a fabric kind: the n workers are hosts 0..n-1 and fill the kind's host slots in
// order. The `server` choice places one more host, host n (server() == n):
//   "last": the server takes the next slot after the workers (so slots hold n + 1 hosts);
//   "core": (tree only) the server hangs off the core switch, in a rack of its own;
//   "none": no server, n hosts (for decentralized algorithms, which gossip over a logical
//           `graph`: switched fabrics join no two hosts directly).
// Host names: w<i> for worker i and "server" with a server, else h<i>. With a server, neighbours
// form the parameter-server star (each worker has {server}), as in `star`; without one, hosts
// have no direct neighbours.
#ifndef COMMSIM_SIM_TOPOLOGY_FABRIC_H_
#define COMMSIM_SIM_TOPOLOGY_FABRIC_H_

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "sim/topology.h"
#include "sim/topology_links.h"

namespace commsim {

inline constexpr std::string_view kServerLast = "last";
inline constexpr std::string_view kServerCore = "core";
inline constexpr std::string_view kServerNone = "none";

// "last", "none": the choices of fat_tree and dumbbell. "core", "last", "none": tree.
std::span<const std::string_view> SlotServerChoices();
std::span<const std::string_view> TreeServerChoices();

// The hosts of a fabric built for n workers with the given server choice.
struct FabricHosts {
  int workers = 0;
  bool has_server = false;
  bool server_in_slot = false;  // "last": the server fills a slot
  int total() const { return workers + (has_server ? 1 : 0); }
  int in_slots() const { return workers + (server_in_slot ? 1 : 0); }
  // "16 workers + the server" / "16 hosts", for error messages.
  std::string Describe() const;
};

// The links of one tier of a fabric and the prefix of their fields ("host": host_bandwidth, ...).
struct TierLinks {
  std::string_view prefix;
  const LinkValues& links;
};

// Checks each tier's links (LinkValues::Check), then n and the server choice. Throws UserError
// naming `kind` and the field, in that order: a bad tier, n < 1, a choice outside `choices`.
FabricHosts PlaceHosts(std::string_view kind, int n, std::string_view server,
                       std::span<const std::string_view> choices,
                       std::initializer_list<TierLinks> tiers);

// A shape with the hosts, their names, the server and its neighbours set; the builder adds
// switches (num_switches, their names after the hosts'), edges and racks.
TopologyShape FabricShape(std::string kind, const FabricHosts& hosts);

}  // namespace commsim

#endif  // COMMSIM_SIM_TOPOLOGY_FABRIC_H_
