// Silent wrong results and sharp edges, through the binary: certain limit breaches refused up
// front, traces with a checksum, keys that do nothing, accuracy targets on regressions, exact
// linspace, exit code 1 for every usage error, CSV cells escaped against formula injection, the
// file in every scenario error, signed point numbers.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "app/binary_test_util.h"
#include "base/file_test_util.h"
#include "scenarios/trace_file.h"

namespace {

namespace fs = std::filesystem;
using commsim::test_files::Read;
using commsim::testing::ExpectCommsim;
using commsim::testing::RunCommsim;
using nlohmann::json;

// A small linear-regression scenario (4 workers on a star, 1 ms of compute, sgd) with `changes`
// merged on top (json merge patch).
json SmallScenario(const json& changes = json::object()) {
  json s = {{"name", "tiny"},
            {"workers", 4},
            {"iterations", 20},
            {"model", {{"name", "linear_regression"}}},
            {"data", {{"name", "synthetic_regression"}, {"samples", 200}, {"features", 20}}},
            {"compute", {{"mode", "fixed"}, {"seconds", "1ms"}}},
            {"algorithms", json::array({"sgd"})}};
  s.merge_patch(changes);
  return s;
}

class SemanticsCommandTest : public commsim::test_files::TempDirTest {
 protected:
  // Writes `doc` as `name` in the test folder; returns its path.
  std::string Write(const std::string& name, const json& doc) {
    std::ofstream(P(name)) << doc.dump(2);
    return P(name);
  }
};

TEST_F(SemanticsCommandTest, SimulatedTimeBeyondTheLimitIsRefusedWithTheNumbers) {
  // 1e12 iterations x 1 ms = 1e9 s of compute alone, beyond int64 picoseconds (9.22e6 s).
  const std::string f = Write(
      "s.json", SmallScenario({{"iterations", 1'000'000'000'000}, {"metrics_every", 1'000'000}}));
  ExpectCommsim("validate " + f, 1,
                {f + ": /iterations: 1000000000000 iterations need at least 1e+09 s of simulated "
                     "time (at least 0.001 s of compute per iteration: the slowest worker's, "
                     "from /compute), more than simulated time can reach (9.22e+06 s"});
  // The slowest worker sets the bound: 2000 iterations x 1 ms x slowdown 5e6 = 1e7 s.
  const std::string g = Write(
      "g.json", SmallScenario({{"iterations", 2000},
                               {"compute", {{"slowdown", json::array({1, 1, 1, 5'000'000})}}}}));
  ExpectCommsim("validate " + g, 1, {"/iterations: 2000 iterations need at least 1e+07 s"});
  // Just under the limit (2000 x 4000 s = 8e6 s) is accepted, and so is any length with jitter: no
  // bound is certain then.
  const std::string h = Write(
      "h.json", SmallScenario({{"iterations", 2000},
                               {"compute", {{"slowdown", json::array({1, 1, 1, 4'000'000})}}}}));
  ExpectCommsim("validate " + h, 0, {"ok"});
  const std::string j = Write("j.json", SmallScenario({{"iterations", 1'000'000'000'000},
                                                       {"metrics_every", 1'000'000},
                                                       {"limits", {{"max_events", 1e15}}},
                                                       {"compute", {{"jitter", 0.1}}}}));
  ExpectCommsim("validate " + j, 0, {"ok"});
}

TEST_F(SemanticsCommandTest, EventsBeyondMaxEventsAreRefusedNamingTheLimit) {
  // 4 workers compute once each per iteration: 20 iterations are at least 80 events.
  const std::string f = Write("s.json", SmallScenario({{"limits", {{"max_events", 79}}}}));
  ExpectCommsim("validate " + f, 1,
                {f + ": /iterations: 20 iterations x 4 workers need at least 80 simulated events",
                 "more than limits.max_events = 79; raise /limits/max_events"});
  const std::string g = Write("g.json", SmallScenario({{"limits", {{"max_events", 80}}}}));
  ExpectCommsim("validate " + g, 0, {"ok"});
  // The default limit (1e10) against 2e9 iterations x 8 workers.
  const std::string h = Write("h.json", SmallScenario({{"iterations", 2'000'000'000},
                                                       {"workers", 8},
                                                       {"metrics_every", 1000},
                                                       {"compute", {{"seconds", 0}}}}));
  ExpectCommsim("validate " + h, 1, {"at least 1.6e+10 simulated events"});
}

TEST_F(SemanticsCommandTest, EveryShippedScenarioAndSweepStillValidates) {
  int files = 0;
  for (const auto& e :
       fs::recursive_directory_iterator(fs::path(COMMSIM_SOURCE_DIR) / "scenarios")) {
    const std::string path = e.path().string();
    if (e.path().extension() != ".json" || path.find("fuzz_corpus") != std::string::npos ||
        path.find("golden") != std::string::npos ||
        path.find("/scenarios/net/") != std::string::npos) {  // `commsim net` specs
      continue;
    }
    const auto r = RunCommsim("validate " + path);
    EXPECT_EQ(r.status, 0) << path << "\n" << r.out;
    ++files;
  }
  EXPECT_GT(files, 10);
}

TEST_F(SemanticsCommandTest, AChangedCutExtendedOrOldTraceIsRefused) {
  const std::string f = Write("s.json", SmallScenario({{"algorithms", json::array({"qsgd"})}}));
  ASSERT_EQ(RunCommsim("run " + f + " -q --no-plots --trace --out " + P("t")).status, 0);
  const std::string good = Read(P("t/trace.txt"));
  ASSERT_EQ(good.rfind("commsim-trace 2 bytes ", 0), 0u) << good.substr(0, 80);
  const std::string retime = "retime " + P("bad.txt") + " -q --no-plots --out " + P("r");
  // One digit of the first recorded loss: a valid trace, but not the one written.
  std::string changed = good;
  const size_t record = changed.find("\nrecord 0 ");
  ASSERT_NE(record, std::string::npos);
  char& digit = changed[record + 10];
  digit = digit == '9' ? '8' : static_cast<char>(digit + 1);
  std::ofstream(P("bad.txt")) << changed;
  ExpectCommsim(retime, 1,
                {P("bad.txt") + ": changed since commsim wrote it: its content's crc32"});
  std::ofstream(P("bad.txt")) << good.substr(0, good.size() - 5);
  ExpectCommsim(retime, 1, {P("bad.txt") + ": cut short: "});
  std::ofstream(P("bad.txt")) << good << "end\n";
  ExpectCommsim(retime, 1, {P("bad.txt") + ": extended: "});
  std::ofstream(P("bad.txt")) << "commsim-trace 1" << good.substr(good.find('\n'));
  ExpectCommsim(retime, 1,
                {P("bad.txt") + ":1: trace version 1 has no checksum",
                 "write the trace again with `commsim run --trace`"});
  EXPECT_FALSE(fs::exists(P("r")));
  std::ofstream(P("bad.txt")) << good;
  ExpectCommsim(retime, 0, {});
}

TEST_F(SemanticsCommandTest, AReplayThatDoesNotEndOkIsLearnedAgainWithANote) {
  const std::string f = Write("s.json", SmallScenario({{"algorithms", json::array({"qsgd"})}}));
  ASSERT_EQ(RunCommsim("run " + f + " -q --no-plots --trace --out " + P("t")).status, 0);
  // 20 iterations of 1e6 s of compute pass the 9.22e6 s limit; with jitter that is not certain
  // up front, so the replay runs and stops with a simulation limit, then the full run does too.
  ExpectCommsim("retime " + P("t/trace.txt") +
                    " -q --no-plots --set /compute/seconds=1e6 --set /compute/jitter=0.01 --out " +
                    P("r"),
                3,
                {"note: " + P("t/trace.txt") +
                     ": entry 0 (qsgd): its trajectory did not replay "
                     "(error: ",
                 "it was learned again in full"});
}

TEST_F(SemanticsCommandTest, KeysWithoutEffectAreErrorsOrNotes) {
  const std::string queue =
      Write("queue.json", SmallScenario({{"network", {{"model", "flow"}, {"queue", "fifo"}}}}));
  ExpectCommsim("validate " + queue, 0,
                {"note: " + queue +
                     ": /network/queue: has no effect under network model "
                     "\"flow\"",
                 ": ok"});
  const std::string packet =
      Write("packet.json", SmallScenario({{"network", {{"model", "packet"}, {"queue", "fifo"}}}}));
  EXPECT_EQ(RunCommsim("validate " + packet).out.find("note:"), std::string::npos);
  const std::string broadcast =
      Write("broadcast.json", SmallScenario({{"network", {{"broadcast", true}}},
                                             {"algorithms", json::array({"sgd", "qsgd"})}}));
  ExpectCommsim("validate " + broadcast, 1,
                {broadcast + ": /network/broadcast: true has no effect: broadcast is how "
                             "decentralized entries send"});
  const std::string multicast = Write(
      "multicast.json",
      SmallScenario({{"network", {{"downlink", "multicast"}, {"topology", {{"name", "ring"}}}}},
                     {"algorithms", json::array({"dpsgd"})}}));
  ExpectCommsim("validate " + multicast, 1,
                {multicast + ": /network/downlink: \"multicast\" has no effect: the downlink is a "
                             "parameter server's message"});
}

TEST_F(SemanticsCommandTest, AnAccuracyTargetOnARegressionIsRefused) {
  const std::string f = Write("s.json", SmallScenario({{"target_accuracy", 0.9}}));
  ExpectCommsim("run " + f + " -q --no-plots --out " + P("r"), 1,
                {f + ": /target_accuracy: model \"linear_regression\" on data "
                     "\"synthetic_regression\" has no test accuracy"});
  EXPECT_FALSE(fs::exists(P("r")));
}

TEST_F(SemanticsCommandTest, LinspaceOnAnIntegerKeyIsExact) {
  json sweep = commsim::testing::TinySweep("lin");
  sweep["axes"] = json::array(
      {{{"name", "every"}, {"pointer", "/metrics_every"}, {"linspace", {1, 250, 250}}}});
  const std::string f = Write("sweep.json", sweep);
  ExpectCommsim("validate " + f, 0, {"ok (sweep of 250 points)"});
}

TEST_F(SemanticsCommandTest, EveryUsageErrorExitsOne) {
  ExpectCommsim("run --no-such-flag", 1, {"--no-such-flag"});
  ExpectCommsim("frobnicate", 1, {"frobnicate"});
  ExpectCommsim("sweep", 1, {"FILE is required"});
  ExpectCommsim("run --jobs x", 1, {"--jobs"});
  ExpectCommsim(
      "sweep " + std::string(COMMSIM_SOURCE_DIR) + "/scenarios/bandwidth_sweep.json -j 999", 1,
      {"--jobs"});
  ExpectCommsim("--help", 0, {"Usage"});
  ExpectCommsim("compress --help", 0, {"=gaussian", "--seed UINT=1"});
  ExpectCommsim("--version", 0, {"commsim"});
}

TEST_F(SemanticsCommandTest, SweepCsvEscapesFormulaCellsAndReadsThemBack) {
  json sweep = commsim::testing::TinySweep("inject", {.iterations = 4, .points = 2});
  sweep["axes"][0]["name"] = "=HYPERLINK(1)";
  const std::string f = Write("sweep.json", sweep);
  const auto r = RunCommsim("sweep " + f + " -q --no-plots --out " + P("out"));
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string csv = Read(P("out/sweep.csv"));
  EXPECT_EQ(csv.rfind("point,\"'=HYPERLINK(1)\",", 0), 0u) << csv.substr(0, 200);
  EXPECT_NE(Read(P("out/axes.csv")).find("\n\"'=HYPERLINK(1)\",/network/"), std::string::npos);
  // A resumed sweep reads its point files back and writes the same sweep.csv.
  ASSERT_EQ(RunCommsim("sweep " + f + " -q --no-plots --out " + P("out")).status, 0);
  EXPECT_EQ(Read(P("out/sweep.csv")), csv);
}

TEST_F(SemanticsCommandTest, AComputeSlowdownErrorNamesTheFile) {
  const std::string f =
      Write("s.json", SmallScenario({{"compute", {{"slowdown", json::array({1, 2, 3})}}}}));
  ExpectCommsim("validate " + f, 1,
                {f + ": /compute/slowdown: has 3 entries, expected 1 or one per worker (4)"});
}

TEST_F(SemanticsCommandTest, ANegativePointIsRefusedAsGiven) {
  const std::string f = Write("sweep.json", commsim::testing::TinySweep("neg"));
  const std::string out =
      ExpectCommsim("sweep-point " + f + " --point -1 --out " + P("out"), 1,
                    {f + ": point -1 does not exist (the sweep has points 0..3)"});
  EXPECT_EQ(out.find("18446744073709551615"), std::string::npos) << out;
}

}  // namespace
