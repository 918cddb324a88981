// Test helpers for the topology builders' tests (sim/topology_*_test.cc only).
#ifndef COMMSIM_SIM_TOPOLOGY_TEST_UTIL_H_
#define COMMSIM_SIM_TOPOLOGY_TEST_UTIL_H_

#include <functional>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/error_test_util.h"
#include "sim/topology.h"

namespace commsim::testing {

// The link ids of the route from `src` to `dst`, in order.
inline std::vector<int> RouteLinks(const Topology& t, int src, int dst) {
  const auto r = t.Route(src, dst);
  return std::vector<int>(r.begin(), r.end());
}

// The names of the nodes a route visits, source first; a broken chain of links shows as "?".
inline std::vector<std::string> RouteNodes(const Topology& t, int src, int dst) {
  std::vector<std::string> nodes = {t.node_name(src)};
  int at = src;
  for (int id : t.Route(src, dst)) {
    const Link& l = t.links()[id];
    nodes.push_back(l.from == at ? t.node_name(l.to) : "?");
    at = l.to;
  }
  return nodes;
}

// The UserError message of `build`, or "" when it does not throw.
inline std::string BuildError(const std::function<Topology()>& build) {
  return test_errors::ErrorOf([&] { build(); }, "");
}

// rack(h) of every host, in host order.
inline std::vector<int> RackOfEachHost(const Topology& t) {
  std::vector<int> racks;
  for (int h = 0; h < t.num_hosts(); ++h) racks.push_back(t.rack(h));
  return racks;
}

// rack_hosts(r) of every rack, in rack order (so one list per rack: num_racks() of them).
inline std::vector<std::vector<int>> HostsOfEachRack(const Topology& t) {
  std::vector<std::vector<int>> hosts;
  for (int r = 0; r < t.num_racks(); ++r) hosts.push_back(t.rack_hosts(r));
  return hosts;
}

// Links whose two ends are named `from` and `to`, by name.
inline int LinkBetween(const Topology& t, const std::string& from, const std::string& to) {
  for (size_t id = 0; id < t.links().size(); ++id) {
    const Link& l = t.links()[id];
    if (t.node_name(l.from) == from && t.node_name(l.to) == to) return static_cast<int>(id);
  }
  return -1;
}

}  // namespace commsim::testing

#endif  // COMMSIM_SIM_TOPOLOGY_TEST_UTIL_H_
