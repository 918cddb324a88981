// Routes walked back through per-anchor candidate tables (Topology::Route) against a plain
// reference: a Dijkstra from the source itself over the same integer weights (latency in ps x
// nodes + 1 per hop), each node's predecessor taken among its shortest-path links sorted by
// (from node, link id): the first, or SpreadIndex's pick. Random graphs where many hosts hang
// off one switch (so they share an anchor) and others have several links (their own anchor).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "base/error_test_util.h"
#include "base/rng.h"
#include "sim/time.h"
#include "sim/topology.h"
#include "sim/topology_fat_tree.h"
#include "sim/topology_star.h"

namespace commsim {
namespace {

std::vector<int> ReferenceRoute(const Topology& t, bool spread, int src, int dst) {
  const std::vector<Link>& links = t.links();
  const int nodes = t.num_nodes();
  std::vector<int64_t> weight(links.size());
  for (size_t id = 0; id < links.size(); ++id) {
    weight[id] = SimTime::FromSeconds(links[id].latency_s).ps() * nodes + 1;
  }
  const int64_t inf = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> dist(nodes, inf);
  std::vector<bool> done(nodes, false);
  dist[src] = 0;
  for (int round = 0; round < nodes; ++round) {
    int u = -1;
    for (int v = 0; v < nodes; ++v) {
      if (!done[v] && dist[v] != inf && (u < 0 || dist[v] < dist[u])) u = v;
    }
    if (u < 0) break;
    done[u] = true;
    for (size_t id = 0; id < links.size(); ++id) {
      if (links[id].from == u)
        dist[links[id].to] = std::min(dist[links[id].to], dist[u] + weight[id]);
    }
  }
  std::vector<int> route;
  for (int v = dst; v != src;) {
    std::vector<int> c;
    for (size_t id = 0; id < links.size(); ++id) {
      if (links[id].to == v && dist[links[id].from] + weight[id] == dist[v]) c.push_back(int(id));
    }
    std::stable_sort(c.begin(), c.end(),
                     [&](int x, int y) { return links[x].from < links[y].from; });
    const int link = c[spread ? SpreadIndex(src, v, static_cast<int>(c.size())) : 0];
    route.insert(route.begin(), link);
    v = links[link].from;
  }
  return route;
}

TEST(TopologyRoutesTest, RoutesMatchAPerSourceDijkstraOnRandomGraphs) {
  int compared = 0;
  for (uint64_t trial = 0; trial < 150; ++trial) {
    Rng rng(DeriveSeed(9, trial, "routes"));
    TopologyShape shape;
    shape.kind = "random";
    shape.num_hosts = 2 + static_cast<int>(rng.UniformInt(10));
    shape.num_switches = 1 + static_cast<int>(rng.UniformInt(5));
    shape.spread_equal_cost = rng.UniformInt(2) == 1;
    const int nodes = shape.num_hosts + shape.num_switches;
    const double latencies[] = {0.0, 1e-6, 1e-6, 2e-6, 3e-6};
    auto edge = [&](int a, int b) {
      shape.edges.push_back({a, b, 1e9, latencies[rng.UniformInt(5)]});
    };
    // Switches form a random connected graph with extra edges; each host hangs off one switch,
    // and about a third of the hosts get a second link.
    for (int s = 1; s < shape.num_switches; ++s) {
      edge(shape.num_hosts + s, shape.num_hosts + static_cast<int>(rng.UniformInt(s)));
    }
    for (int k = 0; k < shape.num_switches; ++k) {
      const int a = shape.num_hosts + static_cast<int>(rng.UniformInt(shape.num_switches));
      const int b = shape.num_hosts + static_cast<int>(rng.UniformInt(shape.num_switches));
      if (a != b) edge(a, b);
    }
    for (int h = 0; h < shape.num_hosts; ++h) {
      edge(h, shape.num_hosts + static_cast<int>(rng.UniformInt(shape.num_switches)));
      const int other = static_cast<int>(rng.UniformInt(nodes));
      if (rng.UniformInt(3) == 0 && other != h) edge(h, other);
    }
    const bool spread = shape.spread_equal_cost;
    const Topology t = Topology::Create(shape);
    for (int s = 0; s < t.num_hosts(); ++s) {
      for (int d = 0; d < t.num_hosts(); ++d) {
        ASSERT_EQ(t.Route(s, d), ReferenceRoute(t, spread, s, d))
            << "trial " << trial << " route " << s << " -> " << d;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 5000);
}

TEST(TopologyRoutesTest, FatTreeRoutesMatchTheReference) {
  FatTreeConfig config;
  config.k = 4;
  config.host.latency_s = 1e-6;
  config.aggregation.latency_s = 2e-6;
  const Topology t = FatTreeBuilder(config).Build(15);  // 15 workers and the server
  for (int s = 0; s < t.num_hosts(); ++s) {
    for (int d = 0; d < t.num_hosts(); ++d) {
      ASSERT_EQ(t.Route(s, d), ReferenceRoute(t, true, s, d)) << s << " -> " << d;
    }
  }
}

// 16,384 workers on a star share one table (the switch's): routes go worker -> switch -> server.
TEST(TopologyRoutesTest, AStarOf16384WorkersRoutesThroughItsSwitch) {
  const Topology t = StarBuilder(StarConfig{}).Build(16384);
  EXPECT_EQ(t.num_hosts(), 16385);
  const std::vector<int> up = t.Route(16383, 16384);
  ASSERT_EQ(up.size(), 2u);
  EXPECT_EQ(t.links()[up[0]].from, 16383);
  EXPECT_EQ(t.links()[up[1]].to, 16384);
  EXPECT_EQ(t.links()[up[0]].to, t.links()[up[1]].from);
}

}  // namespace
}  // namespace commsim
