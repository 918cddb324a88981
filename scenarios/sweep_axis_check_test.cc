// A sweep axis that no entry reads is an error; one that some entries do not read is a note.
#include "scenarios/sweep_axis_check.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/error_test_util.h"

namespace commsim {
namespace {

using nlohmann::json;

// A sweep of `pointer` over two values on a star scenario with `algorithms`.
Sweep SweepOver(const std::string& pointer, const json& values, const json& algorithms) {
  const json base = {{"workers", 4},
                     {"iterations", 1},
                     {"model", {{"name", "synthetic_quadratic"}, {"dim", 100}}},
                     {"network", {{"topology", {{"name", "star"}, {"worker_bandwidth", "1Gbps"}}}}},
                     {"algorithms", algorithms}};
  const json doc = {{"name", "s"},
                    {"base", base},
                    {"axes", json::array({{{"pointer", pointer}, {"values", values}}})}};
  return ParseSweep(doc, "s.json", ".");
}

const json kOwnRing = {{"name", "allreduce_sgd"},
                       {"topology", {{"name", "ring"}, {"bandwidth", "1Gbps"}}}};

TEST(SweepAxisCheckTest, AnAxisNoEntryReadsIsAnErrorNamingTheAxis) {
  const Sweep sweep = SweepOver("/network/topology/server_bandwidth",
                                json::array({"100Mbps", "1Gbps"}), json::array({kOwnRing}));
  const std::string error = test_errors::ErrorOf([&] { SweepAxisNotes(sweep); });
  EXPECT_NE(error.find("s.json: /axes/0: axis server_bandwidth (/network/topology/"
                       "server_bandwidth) changes nothing any entry runs"),
            std::string::npos)
      << error;
}

TEST(SweepAxisCheckTest, AnAxisSomeEntriesDoNotReadIsANoteNamingThem) {
  const Sweep sweep =
      SweepOver("/network/topology/server_bandwidth", json::array({"100Mbps", "1Gbps"}),
                json::array({{{"name", "sgd"}}, kOwnRing}));
  const std::vector<std::string> notes = SweepAxisNotes(sweep);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("/axes/0: axis server_bandwidth"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("does not change allreduce_sgd"), std::string::npos) << notes[0];
  EXPECT_EQ(notes[0].find("sgd,"), std::string::npos) << notes[0];
}

TEST(SweepAxisCheckTest, LinksAnEntryInheritsCountAsRead) {
  // The ring takes worker_bandwidth from the scenario's star when it gives no bandwidth itself.
  const json ring = {{"name", "allreduce_sgd"}, {"topology", {{"name", "ring"}}}};
  const Sweep sweep = SweepOver("/network/topology/worker_bandwidth",
                                json::array({"100Mbps", "1Gbps"}), json::array({ring}));
  EXPECT_TRUE(SweepAxisNotes(sweep).empty());
}

TEST(SweepAxisCheckTest, AnAxisEveryEntryReadsGivesNoNote) {
  const Sweep sweep =
      SweepOver("/workers", json::array({2, 4}), json::array({{{"name", "sgd"}}, kOwnRing}));
  EXPECT_TRUE(SweepAxisNotes(sweep).empty());
}

}  // namespace
}  // namespace commsim
