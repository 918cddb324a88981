// fat_tree: node and link counts per tier, bandwidths after oversubscription, routes with their
// hop counts and hashed equal-cost choices, racks, spread balance, and errors.
#include "sim/topology_fat_tree.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "sim/topology_test_util.h"

namespace commsim {
namespace {

using testing::BuildError;
using testing::HostsOfEachRack;
using testing::LinkBetween;
using testing::RackOfEachHost;
using testing::RouteNodes;
using NameList = std::vector<std::string>;

Topology FatTree(int n, int64_t k = 4, std::string server = "last") {
  FatTreeConfig c;
  c.k = k;
  c.server = std::move(server);
  return FatTreeBuilder(c).Build(n);
}

// Links from a node whose name starts with `lower` to one whose name starts with `upper`.
int CountUpLinks(const Topology& t, char lower, char upper) {
  int count = 0;
  for (const Link& l : t.links()) {
    if (t.node_name(l.from)[0] == lower && t.node_name(l.to)[0] == upper) ++count;
  }
  return count;
}

TEST(FatTreeTest, K6HasTheTextbookSwitchAndLinkCountsPerTier) {
  // k = 6: 6 pods x (3 edge + 3 aggregation) + 9 cores = 45 switches; 10 hosts use 10 of 54
  // slots. Edge-aggregation edges: 6 pods x 3 x 3 = 54; aggregation-core: 6 x 3 x 3 = 54.
  const Topology t = FatTree(10, 6, "none");
  EXPECT_EQ(t.num_hosts(), 10);
  EXPECT_EQ(t.num_nodes(), 10 + 45);
  EXPECT_FALSE(t.server().has_value());
  EXPECT_EQ(t.links().size(), 2u * (10 + 54 + 54));
  EXPECT_EQ(CountUpLinks(t, 'h', 'e'), 10);
  EXPECT_EQ(CountUpLinks(t, 'e', 'a'), 54);
  EXPECT_EQ(CountUpLinks(t, 'a', 'c'), 54);
  EXPECT_EQ(t.node_name(10), "e0.0");
  EXPECT_EQ(t.node_name(10 + 18), "a0.0");
  EXPECT_EQ(t.node_name(10 + 36 + 8), "c8");
  // Aggregation switch 2 of every pod reaches cores 6, 7, 8.
  EXPECT_GE(LinkBetween(t, "a4.2", "c6"), 0);
  EXPECT_GE(LinkBetween(t, "a4.2", "c8"), 0);
  EXPECT_EQ(LinkBetween(t, "a4.2", "c5"), -1);
}

TEST(FatTreeTest, OversubscriptionDividesTheLinksAboveTheEdge) {
  FatTreeConfig c;
  c.oversubscription = 4;
  c.host.bandwidth_bps = 1e9;
  c.aggregation.bandwidth_bps = 10e9;
  c.core.bandwidth_bps = 40e9;
  c.core.latency_s = 2e-6;
  const Topology t = FatTreeBuilder(c).Build(15);
  // Edge 0 is w0-e0.0 (link 0 up, 1 down); edge 16 is the first edge-aggregation edge.
  EXPECT_EQ(t.links()[0].bandwidth_bps, 1e9);
  EXPECT_EQ(t.node_name(t.links()[32].from), "e0.0");
  EXPECT_EQ(t.node_name(t.links()[32].to), "a0.0");
  EXPECT_EQ(t.links()[32].bandwidth_bps, 2.5e9);
  const Link& core = t.links()[LinkBetween(t, "c3", "a2.1")];
  EXPECT_EQ(core.bandwidth_bps, 10e9);
  EXPECT_EQ(core.latency_s, 2e-6);
}

TEST(FatTreeTest, RoutesClimbOnlyToTheLowestCommonTier) {
  const Topology t = FatTree(15);  // 15 workers + the server in slot 15: the 16 slots of k = 4
  EXPECT_EQ(t.server(), 15);
  EXPECT_EQ(RouteNodes(t, 0, 1), (NameList{"w0", "e0.0", "w1"}));
  EXPECT_EQ(RouteNodes(t, 14, 15), (NameList{"w14", "e3.1", "server"}));
  // Same pod, other edge: 4 hops through one of the pod's two aggregation switches.
  const NameList in_pod = RouteNodes(t, 0, 2);
  ASSERT_EQ(in_pod.size(), 5u);
  EXPECT_TRUE(in_pod[2] == "a0.0" || in_pod[2] == "a0.1") << in_pod[2];
  EXPECT_EQ(in_pod[3], "e0.1");
}

TEST(FatTreeTest, CrossPodRoutesTakeTheHashedAggregationAndCore) {
  // From w0 the route walks back from the destination's edge switch e<p>.0 (node 16 + 2p),
  // choosing aggregation a<p>.x with x = SpreadIndex(0, 16 + 2p, 2), then at a<p>.x (node
  // 24 + 2p + x) core index m = SpreadIndex(0, that node, 2), core x * 2 + m. The SplitMix64
  // finaliser of 0 * 2^32 + node, by hand (Python): node 18 -> x = 1; node 27 -> m = 0;
  // node 20 -> x = 0; node 28 -> m = 0; node 22 -> x = 1; node 31 -> m = 1.
  const Topology t = FatTree(15);
  EXPECT_EQ(RouteNodes(t, 0, 4), (NameList{"w0", "e0.0", "a0.1", "c2", "a1.1", "e1.0", "w4"}));
  EXPECT_EQ(RouteNodes(t, 0, 8), (NameList{"w0", "e0.0", "a0.0", "c0", "a2.0", "e2.0", "w8"}));
  EXPECT_EQ(RouteNodes(t, 0, 12), (NameList{"w0", "e0.0", "a0.1", "c3", "a3.1", "e3.0", "w12"}));
  EXPECT_EQ(SpreadIndex(0, 18, 2), 1);
  EXPECT_EQ(SpreadIndex(0, 27, 2), 0);
}

TEST(FatTreeTest, RoutesFromOneHostFormATreeAndRebuildIdentically) {
  const Topology a = FatTree(30, 6, "none");
  const Topology b = FatTree(30, 6, "none");
  for (int s = 0; s < a.num_hosts(); ++s) {
    std::map<int, int> link_into;  // node -> the one link routes from s enter it by
    for (int d = 0; d < a.num_hosts(); ++d) {
      const auto ra = a.Route(s, d);
      const auto rb = b.Route(s, d);
      ASSERT_EQ(std::vector<int>(ra.begin(), ra.end()), std::vector<int>(rb.begin(), rb.end()));
      for (int id : ra) {
        const auto [it, fresh] = link_into.emplace(a.links()[id].to, id);
        EXPECT_EQ(it->second, id) << "two routes from " << s << " enter node " << it->first;
      }
    }
  }
}

TEST(FatTreeTest, AllToAllSpreadsOverEveryCoreSwitch) {
  // k = 4, 16 hosts: 16 x 12 = 192 cross-pod routes, 48 per core if perfectly even. Without
  // spreading, the smallest-id tie-break sends all of them through c0.
  const Topology t = FatTree(16, 4, "none");
  std::map<std::string, int> through;
  for (int s = 0; s < 16; ++s) {
    for (int d = 0; d < 16; ++d) {
      for (int id : t.Route(s, d)) {
        const std::string& to = t.node_name(t.links()[id].to);
        if (to[0] == 'c') ++through[to];
      }
    }
  }
  ASSERT_EQ(through.size(), 4u);
  int total = 0;
  for (const auto& [core, routes] : through) {
    EXPECT_GE(routes, 24) << core;
    EXPECT_LE(routes, 72) << core;
    total += routes;
  }
  EXPECT_EQ(total, 192);
}

TEST(FatTreeTest, RackIsTheEdgeSwitch) {
  const Topology t = FatTree(6);  // 7 hosts: racks {0,1} {2,3} {4,5} {6 = server}
  EXPECT_EQ(RackOfEachHost(t), (std::vector<int>{0, 0, 1, 1, 2, 2, 3}));
  EXPECT_EQ(HostsOfEachRack(t), (std::vector<std::vector<int>>{{0, 1}, {2, 3}, {4, 5}, {6}}));
}

TEST(FatTreeTest, BadParametersAreNamed) {
  EXPECT_EQ(BuildError([] { return FatTree(4, 3); }), "topology fat_tree: k: must be even, got 3");
  EXPECT_EQ(BuildError([] { return FatTree(16); }),
            "topology fat_tree: k: k = 4 gives 16 host slots, too few for 16 workers + the "
            "server; k = 6 fits them");
  EXPECT_EQ(BuildError([] { return FatTree(16, 4, "none"); }), "");
  EXPECT_EQ(BuildError([] { return FatTree(55, 6, "none"); }),
            "topology fat_tree: k: k = 6 gives 54 host slots, too few for 55 hosts; k = 8 fits "
            "them");
  FatTreeConfig c;
  c.core.bandwidth_bps = 0;
  EXPECT_EQ(BuildError([&] { return FatTreeBuilder(c).Build(4); }),
            "topology fat_tree: core_bandwidth: must be > 0 bit/s, got 0");
  c = FatTreeConfig();
  c.oversubscription = 0.5;
  EXPECT_EQ(BuildError([&] { return FatTreeBuilder(c).Build(4); }),
            "topology fat_tree: oversubscription: must be >= 1, got 0.5");
  EXPECT_EQ(BuildError([] { return FatTree(4, 4, "core"); }),
            "topology fat_tree: server: expected one of last, none, got \"core\"");
  EXPECT_EQ(BuildError([] { return FatTree(0); }),
            "topology fat_tree: workers: must be >= 1, got 0");
  ParamProblems problems;
  c = FatTreeConfig();
  c.k = 5;
  c.Validate(problems);
  ASSERT_EQ(problems.problems().size(), 1u);
  EXPECT_EQ(problems.problems()[0].key, "k");
}

}  // namespace
}  // namespace commsim
