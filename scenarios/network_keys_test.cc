#include "scenarios/network_keys.h"

#include <gtest/gtest.h>

#include <string>

#include "base/error.h"
#include "base/error_test_util.h"
#include "scenarios/net_spec.h"
#include "scenarios/runner.h"
#include "scenarios/scenario.h"
#include "scenarios/timing_scenario_test_util.h"

namespace commsim {
namespace {

using nlohmann::json;

Scenario ParseNetwork(const json& network) {
  json doc = {{"algorithms", json::array({json{{"name", "sgd"}}})}};
  if (!network.is_null()) doc["network"] = network;
  return ParseScenario(doc, "s.json", "");
}

std::string Error(const json& network) {
  return test_errors::ErrorOf([&] { ParseNetwork(network); });
}

TEST(NetworkKeysTest, WithoutModelOrMtuTheModelIsFlow) {
  const Scenario s = ParseNetwork(nullptr);
  EXPECT_EQ(s.network.model, NetworkModel::kFlow);
  EXPECT_EQ(s.network.protocol.kind, ProtocolKind::kNone);
  EXPECT_EQ(s.resolved["network"]["model"], "flow");
}

// Files written before models existed keep their meaning: mtu 0 = whole messages, > 0 = packets.
TEST(NetworkKeysTest, AnMtuWithoutAModelKeepsItsOldMeaning) {
  EXPECT_EQ(ParseNetwork({{"mtu", 0}}).network.model, NetworkModel::kMessage);
  const Scenario p = ParseNetwork({{"mtu", "1500B"}});
  EXPECT_EQ(p.network.model, NetworkModel::kPacket);
  EXPECT_EQ(p.network.mtu_bits, 12000);
  EXPECT_EQ(p.network.queue, QueueDiscipline::kFairQueue);
  EXPECT_EQ(p.resolved["network"]["model"], "packet");
  // A model given explicitly wins over the mtu rule.
  EXPECT_EQ(ParseNetwork({{"mtu", 0}, {"model", "packet"}}).network.model, NetworkModel::kPacket);
  EXPECT_EQ(ParseNetwork({{"mtu", 12000}, {"model", "flow"}}).network.model, NetworkModel::kFlow);
}

TEST(NetworkKeysTest, ReadsProtocolFramingAndQueue) {
  const Scenario s = ParseNetwork({{"model", "packet"},
                                   {"queue", "fifo"},
                                   {"protocol", "tcp"},
                                   {"framing", "ppp"},
                                   {"tcp_timestamps", false}});
  EXPECT_EQ(s.network.queue, QueueDiscipline::kFifo);
  EXPECT_EQ(s.network.protocol.kind, ProtocolKind::kTcp);
  EXPECT_EQ(s.network.protocol.framing, Framing::kPpp);
  EXPECT_FALSE(s.network.protocol.tcp_timestamps);
  // The resolved form reads back to the same options.
  const Scenario again = ParseScenario(s.resolved, "r.json", "");
  EXPECT_EQ(again.resolved, s.resolved);
  EXPECT_EQ(again.network.protocol.framing, Framing::kPpp);
}

TEST(NetworkKeysTest, AnMtuWithoutRoomForTheHeadersIsAnError) {
  EXPECT_EQ(Error({{"protocol", "tcp"}, {"mtu", "40B"}}),
            "s.json: /network/mtu: protocol \"tcp\" needs a whole number of bytes, more than its "
            "IP and transport headers, got 320 bits");
  EXPECT_NE(Error({{"model", "fluid"}}).find("s.json: /network/model: "), std::string::npos);
  EXPECT_NE(Error({{"framing", "token_ring"}}).find("/network/framing"), std::string::npos);
}

TEST(NetworkKeysTest, TcpStartUpNeedsTcpAndSlowStartNeedsTheFlowModel) {
  EXPECT_EQ(Error({{"tcp_handshake", true}}),
            "s.json: /network/tcp_handshake: needs protocol \"tcp\", got protocol \"none\"");
  EXPECT_EQ(Error({{"protocol", "tcp"}, {"model", "packet"}, {"tcp_slow_start", true}}),
            "s.json: /network/tcp_slow_start: only the flow model simulates slow start, got model "
            "\"packet\"");
  const Scenario s =
      ParseNetwork({{"protocol", "tcp"}, {"tcp_handshake", true}, {"tcp_slow_start", true}});
  EXPECT_TRUE(s.network.protocol.tcp_handshake);
  EXPECT_TRUE(s.network.protocol.tcp_slow_start);
}

TEST(NetworkKeysTest, NetSpecTakesTheSameKeysAtTheTopLevel) {
  const NetSpec spec = ParseNetSpec(json{{"model", "flow"}, {"protocol", "roce"}}, "n.json");
  EXPECT_EQ(spec.network.model, NetworkModel::kFlow);
  EXPECT_EQ(spec.network.protocol.kind, ProtocolKind::kRoce);
  EXPECT_EQ(ResolvedNetSpec(spec)["model"], "flow");
  EXPECT_EQ(ParseNetSpec(json::object(), "n.json").network.model, NetworkModel::kFlow);
  EXPECT_EQ(ParseNetSpec(json{{"mtu", 0}}, "n.json").network.model, NetworkModel::kMessage);
}

// PS round on a star (every link B, l), fixed compute, flow model: the n uploads share the server
// link (2l + n M/B), the n unicast copies too (2l + n M/B), a multicast runs at B (2l + M/B).
// With TCP over Ethernet, M = 400,000 bytes is 277 segments of 70 header bytes: 419,390 bytes.
TEST(NetworkKeysTest, FlowModelPsIterationTimeMatchesTheClosedForm) {
  const int n = 8;
  const double bw = 1e9, lat = 50e-6, m = 32.0 * 100000, m_tcp = 419390.0 * 8;
  struct Case {
    std::string downlink, protocol;
    double expected;
  };
  const Case cases[] = {
      {"unicast", "none", 0.05 + 2 * (2 * lat + n * m / bw)},
      {"multicast", "none", 0.05 + (2 * lat + n * m / bw) + (2 * lat + m / bw)},
      {"unicast", "tcp", 0.05 + 2 * (2 * lat + n * m_tcp / bw)},
  };
  for (const Case& c : cases) {
    const json doc = {{"workers", n},
                      {"iterations", 2},
                      {"model", {{"name", "synthetic_quadratic"}, {"dim", 100000}}},
                      {"network",
                       {{"topology", test_scenarios::UniformStar(bw, lat)},
                        {"model", "flow"},
                        {"protocol", c.protocol},
                        {"downlink", c.downlink}}},
                      {"compute", {{"mode", "fixed"}, {"seconds", 0.05}}},
                      {"algorithms", json::array({json{{"name", "sgd"}}})}};
    const RunResult r = RunScenario(ParseScenario(doc, "t", "."), {});
    EXPECT_NEAR(r.records[0].back().iter_time_s, c.expected, 1e-9 * c.expected)
        << c.downlink << " " << c.protocol;
  }
}

}  // namespace
}  // namespace commsim
