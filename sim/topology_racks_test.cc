// Racks of the kinds without switches in tiers (one rack holding every host), rack ids a builder
// hands to Topology::Create, and equal-cost spreading on a small hand-made graph.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/topology.h"
#include "sim/topology_registry.h"
#include "sim/topology_test_util.h"

namespace commsim {
namespace {

using testing::BuildError;
using testing::RouteNodes;

TEST(RacksTest, StarAndGraphKindsPutEveryHostInRackZero) {
  for (const char* kind : {"star", "star_direct", "ring", "torus", "complete"}) {
    const Topology t = BuildTopology(TopologyRegistry().DefaultSpec(kTopologyKind, kind), 4);
    EXPECT_EQ(t.num_racks(), 1) << kind;
    std::vector<int> all;
    for (int h = 0; h < t.num_hosts(); ++h) {
      EXPECT_EQ(t.rack(h), 0) << kind;
      all.push_back(h);
    }
    EXPECT_EQ(t.rack_hosts(0), all) << kind;
  }
}

// Hosts 0 and 1 joined through either of two switches (2 and 3), all links alike.
TopologyShape Diamond(bool spread) {
  TopologyShape s;
  s.kind = "test";
  s.num_hosts = 2;
  s.num_switches = 2;
  s.edges = {{0, 2, 1e9, 1e-6}, {0, 3, 1e9, 1e-6}, {2, 1, 1e9, 1e-6}, {3, 1, 1e9, 1e-6}};
  s.spread_equal_cost = spread;
  return s;
}

TEST(RacksTest, SpreadingPicksTheHashedOneOfEqualCostPaths) {
  // Without spreading the smallest node id (switch 2) wins both ways. With it, the route into
  // host d from s takes candidate SpreadIndex(s, d, 2) of {via 2, via 3}: by hand (SplitMix64's
  // finaliser of s * 2^32 + d, Python), (0, 1) -> 1 and (1, 0) -> 1.
  const Topology plain = Topology::Create(Diamond(false));
  EXPECT_EQ(RouteNodes(plain, 0, 1), (std::vector<std::string>{"h0", "s0", "h1"}));
  EXPECT_EQ(RouteNodes(plain, 1, 0), (std::vector<std::string>{"h1", "s0", "h0"}));
  EXPECT_EQ(SpreadIndex(0, 1, 2), 1);
  EXPECT_EQ(SpreadIndex(1, 0, 2), 1);
  const Topology spread = Topology::Create(Diamond(true));
  EXPECT_EQ(RouteNodes(spread, 0, 1), (std::vector<std::string>{"h0", "s1", "h1"}));
  EXPECT_EQ(RouteNodes(spread, 1, 0), (std::vector<std::string>{"h1", "s1", "h0"}));
}

TEST(RacksTest, CreateRefusesRackIdsWithGaps) {
  TopologyShape s = Diamond(false);
  s.racks = {1, 1};
  EXPECT_EQ(BuildError([&] { return Topology::Create(s); }),
            "topology test: rack 0 has no host (rack ids must be 0..R-1, each used)");
  s.racks = {0, 2};
  EXPECT_EQ(BuildError([&] { return Topology::Create(s); }),
            "topology test: host 1 has rack id 2, not in [0, 2)");
  s.racks = {0};
  EXPECT_EQ(BuildError([&] { return Topology::Create(s); }),
            "topology test: rack ids must be given for every host");
  s.racks = {1, 0};
  const Topology t = Topology::Create(s);
  EXPECT_EQ(t.rack(0), 1);
  EXPECT_EQ(t.rack_hosts(0), (std::vector<int>{1}));
}

}  // namespace
}  // namespace commsim
