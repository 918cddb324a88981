#include "sim/topology.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/error.h"
#include "base/error_test_util.h"
#include "sim/topology_graph.h"
#include "sim/topology_registry.h"
#include "sim/topology_regular.h"
#include "sim/topology_star.h"
#include "sim/topology_test_util.h"

namespace commsim {
namespace {

using testing::RouteLinks;

// Every route starts at src, ends at dst, and each link starts where the previous one ended.
void ExpectRoutesAreChains(const Topology& t) {
  for (int s = 0; s < t.num_hosts(); ++s) {
    for (int d = 0; d < t.num_hosts(); ++d) {
      const std::vector<int> r = t.Route(s, d);
      if (s == d) {
        EXPECT_TRUE(r.empty());
        continue;
      }
      ASSERT_FALSE(r.empty());
      int at = s;
      for (int id : r) {
        EXPECT_EQ(t.links()[id].from, at);
        at = t.links()[id].to;
      }
      EXPECT_EQ(at, d);
    }
  }
}

std::string ErrorOf(const TopologyBuilder& b, int n) {
  return test_errors::ErrorOf([&] { b.Build(n); });
}

TEST(TopologyTest, StarLayoutLinksAndRoutes) {
  StarConfig c;
  c.workers.worker_bandwidth_bps = 1e9;
  c.server_bandwidth_bps = 1e10;
  const Topology t = StarBuilder(c).Build(3);
  EXPECT_EQ(t.num_hosts(), 4);
  EXPECT_EQ(t.num_nodes(), 5);
  EXPECT_EQ(t.server(), 3);
  EXPECT_EQ(t.node_name(3), "server");
  EXPECT_EQ(t.node_name(4), "switch");
  ASSERT_EQ(t.links().size(), 8u);
  EXPECT_EQ(t.links()[6].from, 3);  // server -> switch
  EXPECT_EQ(t.links()[6].bandwidth_bps, 1e10);
  EXPECT_EQ(t.links()[2].bandwidth_bps, 1e9);
  EXPECT_EQ(RouteLinks(t, 1, 3), (std::vector<int>{2, 7}));
  EXPECT_EQ(RouteLinks(t, 3, 2), (std::vector<int>{6, 5}));
  EXPECT_EQ(RouteLinks(t, 0, 2), (std::vector<int>{0, 5}));
  EXPECT_EQ(t.neighbours(0), std::vector<int>{3});
  EXPECT_EQ(t.neighbours(3), (std::vector<int>{0, 1, 2}));
  ExpectRoutesAreChains(t);
}

TEST(TopologyTest, StarDirectAndPerWorkerLists) {
  StarDirectConfig c;
  c.workers.worker_bandwidths_bps = {1e6, 2e6};
  c.workers.worker_latencies_s = {1e-3, 2e-3};
  const Topology t = StarDirectBuilder(c).Build(2);
  EXPECT_EQ(t.num_nodes(), 3);
  EXPECT_EQ(RouteLinks(t, 1, 2), std::vector<int>{2});
  EXPECT_EQ(t.links()[3].bandwidth_bps, 2e6);
  EXPECT_EQ(t.links()[3].latency_s, 2e-3);
  EXPECT_EQ(RouteLinks(t, 0, 1), (std::vector<int>{0, 3}));
}

// Links (two per edge, one each way) and one node's neighbours of the regular kinds, counted by
// hand; every route is a chain of links.
TEST(TopologyTest, LinkCountsAndNeighboursOfTheRegularKinds) {
  ErdosRenyiConfig every_edge;
  every_edge.p = 1.0;
  struct Shape {
    std::string what;
    Topology t;
    size_t links;
    int node;
    std::vector<int> neighbours;
  };
  const Shape shapes[] = {
      {"ring of 6", RingBuilder(RingConfig{}).Build(6), 12, 0, {1, 5}},
      {"ring of 2: one edge", RingBuilder(RingConfig{}).Build(2), 2, 0, {1}},
      {"ring of 1: no edge", RingBuilder(RingConfig{}).Build(1), 0, 0, {}},
      {"torus 3 x 4 (the squarest)", TorusBuilder(TorusConfig{}).Build(12), 48, 0, {1, 3, 4, 8}},
      {"torus 2 x 2: duplicates merged", TorusBuilder(TorusConfig{}).Build(4), 8, 0, {1, 2}},
      {"complete on 5", CompleteBuilder(CompleteConfig{}).Build(5), 20, 2, {0, 1, 3, 4}},
      {"erdos_renyi p = 1 on 6", ErdosRenyiBuilder(every_edge).Build(6), 30, 0, {1, 2, 3, 4, 5}},
  };
  for (const Shape& s : shapes) {
    SCOPED_TRACE(s.what);
    EXPECT_EQ(s.t.links().size(), s.links);
    EXPECT_EQ(s.t.neighbours(s.node), s.neighbours);
    ExpectRoutesAreChains(s.t);
  }
}

TEST(TopologyTest, RingRoutesShortestWayWithSmallestPredecessorTieBreak) {
  const Topology t = RingBuilder(RingConfig{}).Build(6);
  EXPECT_EQ(RouteLinks(t, 0, 2), (std::vector<int>{0, 2}));
  // 0 -> 3: 0-1-2-3 and 0-5-4-3 tie; 3's predecessor is the smaller id, 2.
  EXPECT_EQ(RouteLinks(t, 0, 3), (std::vector<int>{0, 2, 4}));
  EXPECT_EQ(RouteLinks(t, 0, 4), (std::vector<int>{11, 9}));  // 0->5 is edge 5 reversed
}

TEST(TopologyTest, RoutesMinimiseLatencyNotHops) {
  ExplicitConfig c;
  c.edges = {0, 2, 0, 1, 1, 2};
  c.latencies_s = {5e-3, 1e-3, 1e-3};
  const Topology t = ExplicitBuilder(c).Build(3);
  EXPECT_EQ(RouteLinks(t, 0, 2), (std::vector<int>{2, 4}));
  c.latencies_s = {2e-3, 1e-3, 1e-3};  // equal latency: fewer hops wins
  EXPECT_EQ(RouteLinks(ExplicitBuilder(c).Build(3), 0, 2), std::vector<int>{0});
}

TEST(TopologyTest, TorusGivesEveryNodeFourNeighbours) {
  const Topology t = TorusBuilder(TorusConfig{}).Build(12);  // squarest: 3 x 4
  for (int h = 0; h < 12; ++h) EXPECT_EQ(t.neighbours(h).size(), 4u);
}

TEST(TopologyTest, ErdosRenyiIsSeededAndConnected) {
  ErdosRenyiConfig c;
  c.p = 0.3;
  c.seed = 11;
  const Topology a = ErdosRenyiBuilder(c).Build(20);
  const Topology b = ErdosRenyiBuilder(c).Build(20);
  ASSERT_EQ(a.links().size(), b.links().size());
  for (size_t i = 0; i < a.links().size(); ++i) EXPECT_EQ(a.links()[i].to, b.links()[i].to);
  ExpectRoutesAreChains(a);  // connected: every pair has a route
}

TEST(TopologyTest, ExplicitWithSwitchesAndServer) {
  ExplicitConfig c;
  c.edges = {0, 3, 1, 3, 2, 3};  // three hosts on one switch
  c.switches = 1;
  c.server = 2;
  // Two workers plus the server make three hosts (0, 1 and the server 2); the switch is node 3.
  const Topology t = ExplicitBuilder(c).Build(2);
  EXPECT_EQ(t.num_hosts(), 3);
  EXPECT_EQ(t.num_nodes(), 4);
  EXPECT_EQ(t.server(), 2);
  EXPECT_EQ(RouteLinks(t, 0, 2), (std::vector<int>{0, 5}));
  EXPECT_TRUE(t.neighbours(0).empty());  // hosts are joined only through the switch
}

// The error of building n nodes with Builder from a default Config changed by `edit`.
template <class Builder, class Config>
std::string ErrorAfter(void (*edit)(Config&), int n) {
  Config c;
  edit(c);
  return ErrorOf(Builder(c), n);
}

// One row per bad configuration: the error names the kind, the field and what was wrong.
TEST(TopologyTest, BadInputNamesTheField) {
  struct Case {
    std::string error, expected;
  };
  const Case cases[] = {
      {ErrorAfter<RingBuilder, RingConfig>([](RingConfig& c) { c.links.bandwidth_bps = 0; }, 4),
       "topology ring: bandwidth: must be > 0 bit/s, got 0"},
      {ErrorAfter<RingBuilder, RingConfig>([](RingConfig& c) { c.links.bandwidth_bps = -1e9; }, 4),
       "topology ring: bandwidth: must be > 0 bit/s, got -1000000000"},
      {ErrorAfter<StarBuilder, StarConfig>([](StarConfig& c) { c.server_latency_s = -1e-6; }, 4),
       "topology star: server_latency: must be in [0, 9200000] s (the simulated-time limit), "
       "got -1e-06"},
      {ErrorOf(StarBuilder(StarConfig{}), 0), "topology star: workers: must be >= 1, got 0"},
      // Hosts with two links each need a route table each: 11,600 of them exceed the limit,
      // refused before any table is built.
      {ErrorOf(RingBuilder(RingConfig{}), 11600),
       "topology ring: 11600 hosts of 11600 nodes with more than one link each need a route "
       "table of 11601 entries each, more than the 134217728 in all a topology may have; hosts "
       "that each hang off one switch share their switch's table"},
      {ErrorOf(RingBuilder(RingConfig{}), 65537),
       "topology ring: 65537 hosts is more than the 65536 a topology may have"},
      {ErrorOf(CompleteBuilder(CompleteConfig{}), -2),
       "topology complete: nodes: must be >= 1, got -2"},
      {ErrorAfter<StarDirectBuilder, StarDirectConfig>(
           [](StarDirectConfig& c) {
             c.workers.worker_bandwidths_bps = {1e6, 2e6};
             c.workers.worker_latencies_s = {1e-3};
           },
           2),
       "topology star_direct: worker_latencies: expected 2 values (one per worker) or none, "
       "got 1"},
      {ErrorAfter<TorusBuilder, TorusConfig>([](TorusConfig& c) { c.rows = 5; }, 12),
       "topology torus: rows: 5 does not divide the node count 12"},
      {ErrorAfter<ErdosRenyiBuilder, ErdosRenyiConfig>([](ErdosRenyiConfig& c) { c.p = 0.001; },
                                                       30),
       "topology erdos_renyi: p: 0.001 is too small: no connected graph on 30 nodes in 1000 "
       "draws"},
      {ErrorAfter<ExplicitBuilder, ExplicitConfig>(
           [](ExplicitConfig& c) {
             c.edges = {0, 1, 2, 3};
           },
           4),
       "topology explicit: the graph is disconnected: h0 cannot reach h2"},
      {ErrorAfter<ExplicitBuilder, ExplicitConfig>(
           [](ExplicitConfig& c) {
             c.edges = {0, 1, 2};
           },
           4),
       "topology explicit: edges: expected node-id pairs (an even count), got 3 values"},
      {ErrorAfter<ExplicitBuilder, ExplicitConfig>(
           [](ExplicitConfig& c) {
             c.edges = {0, 7};
           },
           4),
       "topology explicit: edges[0]: node 7 is not in [0, 4) (4 hosts + 0 switches)"},
      {ErrorAfter<ExplicitBuilder, ExplicitConfig>(
           [](ExplicitConfig& c) {
             c.edges = {0, 1, 1, 2, 2, 3};
             c.bandwidths_bps = {1e9, -5, 1e9};
           },
           4),
       "topology explicit: bandwidths[1]: must be > 0 bit/s, got -5"},
  };
  for (const Case& c : cases) EXPECT_EQ(c.error, c.expected);
}

TEST(TopologyRegistryTest, EveryKindBuildsAConnectedDefault) {
  const Registry<TopologyBuilder>& r = TopologyRegistry();
  EXPECT_EQ(r.names(),
            (std::vector<std::string>{"star", "star_direct", "ring", "torus", "complete",
                                      "erdos_renyi", "explicit", "tree", "fat_tree", "dumbbell"}));
  for (const std::string& name : r.names()) {
    if (name == "explicit") continue;  // its default has no edges
    const Topology t = BuildTopology(r.DefaultSpec(kTopologyKind, name), 6);
    EXPECT_EQ(t.kind(), name);
    EXPECT_GE(t.num_hosts(), 6);
    ExpectRoutesAreChains(t);
  }
  EXPECT_EQ(BuildTopology(r.DefaultSpec(kTopologyKind, "explicit"), 1).num_nodes(), 1);
}

}  // namespace
}  // namespace commsim
