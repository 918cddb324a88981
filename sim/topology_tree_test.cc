// tree (two-level) and dumbbell: hand-written routes by link id, racks and sides, where the
// server sits, link bandwidths per tier, and errors.
#include "sim/topology_tree.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "sim/topology_dumbbell.h"
#include "sim/topology_test_util.h"

namespace commsim {
namespace {

using testing::BuildError;
using testing::HostsOfEachRack;
using testing::RackOfEachHost;
using testing::RouteLinks;
using testing::RouteNodes;
using NameList = std::vector<std::string>;
using RackList = std::vector<std::vector<int>>;

Topology Tree(int n, int64_t rack_size, std::string server = "core") {
  TreeConfig c;
  c.rack_size = rack_size;
  c.host.bandwidth_bps = 1e9;
  c.core.bandwidth_bps = 2.5e8;
  c.server_link.bandwidth_bps = 4e9;
  c.server = std::move(server);
  return TreeBuilder(c).Build(n);
}

TEST(TreeTest, CoreServerRoutesByLinkId) {
  // 10 workers in racks of 4: racks {0-3} {4-7} {8, 9}; the server is host 10 on the core.
  // Nodes: hosts 0..10, tor0..tor2 = 11..13, core = 14. Edges: worker i = edge i, server = edge
  // 10, tor r - core = edge 11 + r. Link 2e goes up, 2e + 1 down.
  const Topology t = Tree(10, 4);
  EXPECT_EQ(t.links().size(), 2u * 14);
  EXPECT_EQ(RouteLinks(t, 0, 1), (std::vector<int>{0, 3}));
  EXPECT_EQ(RouteLinks(t, 0, 4), (std::vector<int>{0, 22, 25, 9}));
  EXPECT_EQ(RouteLinks(t, 9, 10), (std::vector<int>{18, 26, 21}));
  EXPECT_EQ(RouteLinks(t, 10, 9), (std::vector<int>{20, 27, 19}));
  EXPECT_EQ(t.links()[0].bandwidth_bps, 1e9);
  EXPECT_EQ(t.links()[20].bandwidth_bps, 4e9);
  EXPECT_EQ(t.links()[22].bandwidth_bps, 2.5e8);
}

TEST(TreeTest, NoServerGivesHostsWithoutNeighbours) {
  const Topology t = Tree(5, 2, "none");
  for (int h = 0; h < t.num_hosts(); ++h) EXPECT_TRUE(t.neighbours(h).empty()) << h;
}

TEST(TreeTest, BadParametersAreNamed) {
  EXPECT_EQ(BuildError([] { return Tree(4, 0); }),
            "topology tree: rack_size: must be in [1, 65536], got 0");
  TreeConfig c;
  c.core.bandwidth_bps = 0;
  EXPECT_EQ(BuildError([&] { return TreeBuilder(c).Build(4); }),
            "topology tree: core_bandwidth: must be > 0 bit/s, got 0");
  EXPECT_EQ(BuildError([] { return Tree(4, 2, "middle"); }),
            "topology tree: server: expected one of core, last, none, got \"middle\"");
}

Topology Dumbbell(int n, int64_t left, std::string server = "last") {
  DumbbellConfig c;
  c.left = left;
  c.access.bandwidth_bps = 1e9;
  c.bottleneck.bandwidth_bps = 1e8;
  c.server = std::move(server);
  return DumbbellBuilder(c).Build(n);
}

// Where the hosts and the server sit (a dumbbell's two sides are its racks), counted by hand:
//   tree core server: racks of 4 {0-3} {4-7} {8, 9}, the server (host 10) a rack of its own;
//     15 nodes = 11 hosts, tor0..tor2, core;
//   tree last server: 8 workers and the server in the next slot: {0,1,2} {3,4,5} {6,7,server};
//   tree without a server: hosts h0..h4 in racks of 2;
//   dumbbell: 4 workers + the server = 5 hosts; left = ceil(5 / 2) = 3: w0 w1 w2 | w3 server.
// rack(h) must agree with rack_hosts(r), and the host count is the racks' sum.
TEST(TreeAndDumbbellTest, RacksAndTheServerFollowTheSlots) {
  struct Layout {
    std::string what;
    Topology t;
    int nodes;
    std::optional<int> server;
    RackList racks;  // every host once, in host order
  };
  const Layout layouts[] = {
      {"tree, core server", Tree(10, 4), 15, 10, {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}, {10}}},
      {"tree, last server", Tree(8, 3, "last"), 13, 8, {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}},
      {"tree, no server", Tree(5, 2, "none"), 9, std::nullopt, {{0, 1}, {2, 3}, {4}}},
      {"dumbbell, half on each side", Dumbbell(4, 0), 7, 4, {{0, 1, 2}, {3, 4}}},
  };
  for (const Layout& l : layouts) {
    SCOPED_TRACE(l.what);
    EXPECT_EQ(l.t.num_nodes(), l.nodes);
    EXPECT_EQ(l.t.server(), l.server);
    EXPECT_EQ(HostsOfEachRack(l.t), l.racks);
    std::vector<int> rack_of_host;
    for (size_t r = 0; r < l.racks.size(); ++r) {
      rack_of_host.resize(rack_of_host.size() + l.racks[r].size(), static_cast<int>(r));
    }
    EXPECT_EQ(RackOfEachHost(l.t), rack_of_host);
  }
}

// The nodes a route visits, by name: up to the rack's switch, across the core (the dumbbell's
// bottleneck) only between racks, down to the host.
TEST(TreeAndDumbbellTest, RoutesVisitTheSwitchesByName) {
  struct NamedRoute {
    Topology t;
    int src, dst;
    NameList nodes;
  };
  const NamedRoute routes[] = {
      {Tree(10, 4), 0, 4, {"w0", "tor0", "core", "tor1", "w4"}},
      {Tree(8, 3, "last"), 0, 8, {"w0", "tor0", "core", "tor2", "server"}},
      {Tree(8, 3, "last"), 7, 8, {"w7", "tor2", "server"}},
      {Tree(5, 2, "none"), 0, 4, {"h0", "tor0", "core", "tor2", "h4"}},
      {Dumbbell(4, 0), 0, 1, {"w0", "left", "w1"}},
      {Dumbbell(4, 0), 3, 4, {"w3", "right", "server"}},
  };
  for (const NamedRoute& r : routes) {
    EXPECT_EQ(RouteNodes(r.t, r.src, r.dst), r.nodes)
        << r.t.kind() << " " << r.src << " -> " << r.dst;
  }
}

TEST(DumbbellTest, IncastCrossesTheOneBottleneckLink) {
  // left = 4: every worker on the left, the server alone on the right. Nodes: hosts 0..4, left
  // 5, right 6; the bottleneck is edge 5 (link 10 = left -> right, 11 back).
  const Topology t = Dumbbell(4, 4);
  for (int w = 0; w < 4; ++w) {
    EXPECT_EQ(RouteLinks(t, w, 4), (std::vector<int>{2 * w, 10, 9})) << w;
    EXPECT_EQ(RouteLinks(t, 4, w), (std::vector<int>{8, 11, 2 * w + 1})) << w;
  }
  EXPECT_EQ(t.links()[10].bandwidth_bps, 1e8);
  EXPECT_EQ(t.links()[9].bandwidth_bps, 1e9);
}

TEST(DumbbellTest, BadSplitsAreNamed) {
  EXPECT_EQ(BuildError([] { return Dumbbell(4, 5); }),
            "topology dumbbell: left: must be 0 (half) or in [1, 4] so both sides have a host "
            "(4 workers + the server), got 5");
  EXPECT_EQ(BuildError([] { return Dumbbell(1, 0, "none"); }),
            "topology dumbbell: workers: needs 2 hosts, one per side, got 1 host");
  EXPECT_EQ(BuildError([] { return Dumbbell(1, 0); }), "");
  DumbbellConfig c;
  c.bottleneck.bandwidth_bps = 0;
  EXPECT_EQ(BuildError([&] { return DumbbellBuilder(c).Build(4); }),
            "topology dumbbell: bottleneck_bandwidth: must be > 0 bit/s, got 0");
}

}  // namespace
}  // namespace commsim
