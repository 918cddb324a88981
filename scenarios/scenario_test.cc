#include "scenarios/scenario.h"

#include <gtest/gtest.h>

#include "base/error.h"

namespace commsim {
namespace {

using nlohmann::json;

TEST(ScenarioTest, EntryTopologiesInheritLinkParametersAcrossKinds) {
  const json ring = {{"name", "ring"}, {"bandwidth", 5e6}, {"latency", 2e-3}};
  // A star entry under a ring network: every link takes the ring's values.
  EXPECT_EQ(InheritedLinks(ring, "star"), (json{{"worker_bandwidth", 5e6},
                                                {"worker_latency", 2e-3},
                                                {"server_bandwidth", 5e6},
                                                {"server_latency", 2e-3}}));
  const json star = {{"name", "star"},
                     {"worker_bandwidth", 1e8},
                     {"worker_latency", 1e-3},
                     {"server_bandwidth", 4e8},
                     {"server_latency", 3e-3},
                     {"worker_bandwidths", json::array()},
                     {"worker_latencies", {1e-3, 2e-3}}};
  // A torus under a star: the workers' links; its shape (rows) is never inherited.
  EXPECT_EQ(InheritedLinks(star, "torus"), (json{{"bandwidth", 1e8}, {"latency", 1e-3}}));
  // star_direct under a star: the worker links and their per-worker lists, no server link.
  EXPECT_EQ(InheritedLinks(star, "star_direct"), (json{{"worker_bandwidth", 1e8},
                                                       {"worker_latency", 1e-3},
                                                       {"worker_bandwidths", json::array()},
                                                       {"worker_latencies", {1e-3, 2e-3}}}));
  EXPECT_EQ(InheritedLinks(star, "no_such_topology"), json::object());
}

TEST(ScenarioTest, AnEntrysOwnLinkValuesWinAndTheResolvedFormShowsTheResult) {
  const Scenario s = ParseScenario(json::parse(R"({
      "network": {"topology": {"name": "star", "worker_bandwidth": "100Mbps"}},
      "algorithms": [{"name": "dpsgd", "topology": {"name": "ring", "latency": "1ms"}}]})"),
                                   "s.json", "");
  const json topology = s.resolved["algorithms"][0]["topology"];
  EXPECT_EQ(topology["bandwidth"], 1e8);  // inherited
  EXPECT_EQ(topology["latency"], 1e-3);   // its own
}

TEST(ScenarioTest, TargetKeysAreOptionalAndExclusive) {
  const Scenario none = ParseScenario(json::parse(R"({"algorithms": ["sgd"]})"), "s.json", "");
  EXPECT_FALSE(none.target_loss.has_value());
  EXPECT_FALSE(none.resolved.contains("target_loss"));
  EXPECT_EQ(none.resolved["divergence_factor"], 1e3);
  const Scenario loss =
      ParseScenario(json::parse(R"({"algorithms": ["sgd"], "target_loss": 0.5})"), "s.json", "");
  EXPECT_EQ(loss.target_loss, 0.5);
  EXPECT_EQ(loss.resolved["target_loss"], 0.5);
  try {
    ParseScenario(json::parse(R"({"algorithms": ["sgd"], "target_loss": 1, "target_accuracy": 1})"),
                  "s.json", "");
    FAIL() << "expected a UserError";
  } catch (const UserError& e) {
    EXPECT_EQ(std::string(e.what()),
              "s.json: /target_accuracy: give target_loss or target_accuracy, not both");
  }
}

}  // namespace
}  // namespace commsim
