// Runs `commsim net` on the example specs of the switched-fabric topologies (tree, fat_tree,
// dumbbell): the end of an incast with whole messages against its closed form, and the errors a
// bad fabric spec gives, with file and JSON pointer.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "app/binary_test_util.h"

namespace {

using commsim::testing::RunCommsim;

void ExpectEnd(const std::string& spec, const std::string& end) {
  const auto r = RunCommsim("net " + spec);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find(end), std::string::npos) << r.out;
}

TEST(NetTopologiesTest, DumbbellIncastQueuesAtTheBottleneck) {
  // 4 workers on the left, the server on the right; M = 8e6 bits, access 1 Gbps / 10 us,
  // bottleneck 100 Mbps / 100 us. The 4 messages reach the left switch together at M/B_a + l_a,
  // cross the bottleneck one after another (4 M/B_b), and the last one takes the server's link:
  // 2 (8 ms + 10 us) + 4 * 80 ms + 100 us = 0.33612 s.
  ExpectEnd("scenarios/net/dumbbell_incast.json", "# end 0.33612 s, 4 messages");
}

TEST(NetTopologiesTest, TreeIncastQueuesAtTheOversubscribedCoreLinks) {
  // 8 workers in 2 racks of 4, the server on the core; host links 1 Gbps / 10 us, ToR-core
  // 250 Mbps / 20 us (16:1), core-server 1 Gbps / 10 us; M = 8e6 bits. Each ToR sends its 4
  // messages up in 4 x 32 ms; the last two (one per rack) reach the core together and leave on
  // the server link back to back: 8 ms + 10 us + 128 ms + 20 us + 2 x 8 ms + 10 us = 0.15204 s.
  ExpectEnd("scenarios/net/tree_incast.json", "# end 0.15204 s, 8 messages");
}

TEST(NetTopologiesTest, FatTreeIncastIsBoundByTheServersLink) {
  // k = 4, 15 workers + the server in slot 15 (beside w14 under e3.1); host links 1 Gbps / 10 us,
  // the tiers above 10 Gbps / 1 us; M = 8e6 bits. w14's message reaches e3.1 first (8 ms +
  // 10 us); every other one crosses the fabric in under 10 ms more, before the server's link
  // frees, so that link sends all 15 back to back: 8 ms + 10 us + 15 x 8 ms + 10 us = 0.12802 s.
  ExpectEnd("scenarios/net/fat_tree_incast.json", "# end 0.12802 s, 15 messages");
}

TEST(NetTopologiesTest, BadFabricSpecsNameFileAndField) {
  const std::string path = std::string(COMMSIM_BINARY) + ".bad_fabric_spec.json";
  std::ofstream(path) << R"({"workers": 4, "topology": {"name": "fat_tree", "k": 3}})";
  auto r = RunCommsim("net " + path);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find(path + ": /topology/k: must be even, got 3"), std::string::npos) << r.out;
  std::ofstream(path) << R"({"workers": 16, "topology": {"name": "fat_tree"}})";
  r = RunCommsim("net " + path);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find(path + ": /topology: topology fat_tree: k: k = 4 gives 16 host slots, "
                              "too few for 16 workers + the server; k = 6 fits them"),
            std::string::npos)
      << r.out;
  std::ofstream(path) << R"({"workers": 4, "topology": {"name": "tree", "core_bandwidth": 0}})";
  r = RunCommsim("net " + path);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find(path + ": /topology/core_bandwidth: "), std::string::npos) << r.out;
  std::remove(path.c_str());
}

}  // namespace
