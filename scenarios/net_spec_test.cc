#include "scenarios/net_spec.h"

#include <gtest/gtest.h>

#include <string>

#include "base/error.h"
#include "base/error_test_util.h"
#include "sim/topology_star.h"

namespace commsim {
namespace {

using nlohmann::json;

std::string NetSpecErrorOf(const std::string& text) {
  return test_errors::ErrorOf([&] { ParseNetSpec(json::parse(text), "spec.json"); });
}

TEST(NetSpecTest, ReadsEveryFieldWithUnits) {
  const NetSpec spec = ParseNetSpec(json::parse(R"({
      "workers": 6, "mtu": "1500B", "pattern": "ps_round", "message": "1MB",
      "topology": {"name": "star", "server_bandwidth": "10Gbps", "worker_latency": "5us"}})"),
                                    "spec.json");
  EXPECT_EQ(spec.workers, 6);
  EXPECT_EQ(spec.network.mtu_bits, 12000);
  EXPECT_EQ(spec.network.model, NetworkModel::kPacket);  // an mtu without a model: packets
  EXPECT_EQ(spec.pattern, TrafficPattern::kPsRound);
  EXPECT_EQ(spec.message_bits, 8'000'000);
  ASSERT_EQ(spec.topology.name, "star");
  const auto& star = static_cast<const StarConfig&>(*spec.topology.config);
  EXPECT_EQ(star.server_bandwidth_bps, 1e10);
  EXPECT_DOUBLE_EQ(star.workers.worker_latency_s, 5e-6);
  const Topology t = BuildNetTopology(spec);
  EXPECT_EQ(t.num_hosts(), 7);
  const json resolved = ResolvedNetSpec(spec);
  EXPECT_EQ(resolved["pattern"], "ps_round");
  EXPECT_EQ(resolved["topology"]["name"], "star");
  // The resolved form reads back to the same spec.
  const NetSpec again = ParseNetSpec(resolved, "resolved.json");
  EXPECT_EQ(again.network.mtu_bits, spec.network.mtu_bits);
  EXPECT_EQ(again.network.model, spec.network.model);
  EXPECT_EQ(ResolvedNetSpec(again), resolved);
}

TEST(NetSpecTest, DefaultsAreAnIncastOnAStar) {
  const NetSpec spec = ParseNetSpec(json::object(), "spec.json");
  EXPECT_EQ(spec.pattern, TrafficPattern::kIncast);
  EXPECT_EQ(spec.topology.name, "star");
}

TEST(NetSpecTest, BadInputNamesFileFieldAndExpectation) {
  std::string e = NetSpecErrorOf(R"({"topology": {"name": "ring", "bandwidth": 0}})");
  EXPECT_NE(e.find("spec.json: /topology/bandwidth: "), std::string::npos) << e;
  EXPECT_NE(e.find("> 0"), std::string::npos) << e;
  e = NetSpecErrorOf(R"({"topology": {"name": "star", "worker_bandwidth": -5}})");
  EXPECT_NE(e.find("spec.json: /topology/worker_bandwidth: "), std::string::npos) << e;
  e = NetSpecErrorOf(R"({"topology": {"name": "ring", "latency": "-2us"}})");
  EXPECT_NE(e.find("spec.json: /topology/latency: "), std::string::npos) << e;
  e = NetSpecErrorOf(R"({"topology": "rign"})");
  EXPECT_NE(e.find("spec.json: /topology: unknown topology \"rign\"; did you mean \"ring\"?"),
            std::string::npos)
      << e;
  e = NetSpecErrorOf(R"({"workers": 0})");
  EXPECT_NE(e.find("spec.json: /workers: "), std::string::npos) << e;
  e = NetSpecErrorOf(R"({"workers": 4, "pattern": "neighbours",
                  "topology": {"name": "explicit", "edges": [0, 1, 2, 3]}})");
  EXPECT_EQ(e,
            "spec.json: /topology: topology explicit: the graph is disconnected: h0 cannot "
            "reach h2");
  e = NetSpecErrorOf(R"({"workers": 4, "topology": {"name": "star", "worker_latencies": [1e-6]}})");
  EXPECT_EQ(e,
            "spec.json: /topology: topology star: worker_latencies: expected 4 values (one per "
            "worker) or none, got 1");
  e = NetSpecErrorOf(R"({"pattern": "incast", "topology": "ring"})");
  EXPECT_EQ(e,
            "spec.json: /pattern: \"incast\" needs a topology with a server (star, "
            "star_direct, tree, fat_tree, dumbbell, or explicit with \"server\"), got ring");
  e = NetSpecErrorOf(R"({"pattern": "alltoall", "mesage": 5})");
  EXPECT_NE(e.find("spec.json: /pattern: "), std::string::npos) << e;
  EXPECT_NE(e.find("spec.json: /mesage: "), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean \"message\""), std::string::npos) << e;
}

}  // namespace
}  // namespace commsim
