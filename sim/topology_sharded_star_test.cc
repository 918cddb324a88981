// The sharded star (servers > 1, dedicated or colocated): hosts, servers, links and routes,
// written out by hand from the layout in sim/topology_star.h.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/error_test_util.h"
#include "sim/topology_star.h"
#include "sim/topology_test_util.h"

namespace commsim {
namespace {

// 3 workers and 2 dedicated servers: hosts 0-2 work, hosts 3 and 4 serve, the switch is node 5;
// edge k is host k's (links 2k up, 2k + 1 down); the servers' edges take the server values.
TEST(ShardedStarTest, DedicatedServersAreHostsAfterTheWorkersEachWithItsOwnLink) {
  StarConfig c;
  c.workers.worker_bandwidth_bps = 1e9;
  c.server_bandwidth_bps = 1e10;
  c.servers = 2;
  const Topology t = StarBuilder(c).Build(3);
  EXPECT_EQ(t.num_hosts(), 5);
  EXPECT_EQ(t.num_nodes(), 6);
  EXPECT_EQ(t.servers(), (std::vector<int>{3, 4}));
  EXPECT_EQ(t.server(), 3);
  EXPECT_FALSE(t.colocated());
  EXPECT_EQ(t.WorkerHosts(), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(t.node_name(3), "server0");
  EXPECT_EQ(t.node_name(4), "server1");
  EXPECT_EQ(t.node_name(5), "switch");
  ASSERT_EQ(t.links().size(), 10u);
  for (int link : {6, 7, 8, 9}) EXPECT_EQ(t.links()[link].bandwidth_bps, 1e10) << link;
  EXPECT_EQ(t.links()[0].bandwidth_bps, 1e9);
  EXPECT_EQ(testing::RouteLinks(t, 1, 4), (std::vector<int>{2, 9}));
  EXPECT_EQ(testing::RouteLinks(t, 4, 0), (std::vector<int>{8, 1}));
  EXPECT_EQ(t.neighbours(0), (std::vector<int>{3, 4}));
  EXPECT_EQ(t.neighbours(4), (std::vector<int>{0, 1, 2}));
}

// Colocated: no server hosts; shard s sits on worker s, the switch is node n, and there are only
// the workers' edges.
TEST(ShardedStarTest, ColocatedServersAreTheFirstWorkers) {
  StarConfig c;
  c.servers = 2;
  c.colocated = true;
  const Topology t = StarBuilder(c).Build(3);
  EXPECT_EQ(t.num_hosts(), 3);
  EXPECT_EQ(t.num_nodes(), 4);
  EXPECT_EQ(t.servers(), (std::vector<int>{0, 1}));
  EXPECT_TRUE(t.colocated());
  EXPECT_EQ(t.WorkerHosts(), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(t.node_name(3), "switch");
  EXPECT_EQ(t.links().size(), 6u);
  EXPECT_EQ(testing::RouteLinks(t, 0, 1), (std::vector<int>{0, 3}));
  EXPECT_EQ(t.neighbours(0), (std::vector<int>{1, 2}));  // the other workers, server 1 among them
  EXPECT_EQ(t.neighbours(2), (std::vector<int>{0, 1}));  // the two servers
}

// One server, colocated or not, is the star of old for the dedicated case.
TEST(ShardedStarTest, OneDedicatedServerIsThePlainStar) {
  StarConfig c;
  const Topology t = StarBuilder(c).Build(4);
  EXPECT_EQ(t.servers(), std::vector<int>{4});
  EXPECT_EQ(t.node_name(4), "server");
  EXPECT_EQ(t.WorkerHosts(), (std::vector<int>{0, 1, 2, 3}));
}

TEST(ShardedStarTest, MoreColocatedServersThanWorkersIsAnErrorNamingTheKey) {
  StarConfig c;
  c.servers = 5;
  c.colocated = true;
  const std::string e = test_errors::ErrorOf([&] { StarBuilder(c).Build(4); });
  EXPECT_NE(e.find("servers"), std::string::npos) << e;
  EXPECT_NE(e.find("at most 4"), std::string::npos) << e;
  EXPECT_NE(e.find("got 5"), std::string::npos) << e;
}

}  // namespace
}  // namespace commsim
