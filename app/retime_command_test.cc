// `commsim run --trace`, `commsim retime` and sweep trajectory reuse through the binary: a
// re-timed trace writes the same files as running the scenario on that network; a sweep writes
// the same sweep.csv with and without reuse, and reuses only when its axes are timing keys.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "app/binary_test_util.h"
#include "base/file_test_util.h"
#include "scenarios/trace_file.h"

namespace {

namespace fs = std::filesystem;
using commsim::test_files::Read;
using commsim::testing::RunCommsim;

// Two parameter-server entries (qsgd: message sizes vary), a decentralized one on its own ring,
// and one that diverges (a run that did not end ok leaves no trajectory: it always runs in full);
// gradient buckets and codec time on the timeline.
constexpr const char* kScenario = R"({
  "name": "traced", "seed": 4, "workers": 4, "iterations": 8, "metrics_every": 4,
  "model": {"name": "synthetic_quadratic", "dim": 2000, "samples_per_worker": 32, "noise": 0.3},
  "batch": 4, "step": {"size": 0.005},
  "network": {"model": "packet", "protocol": "udp",
              "topology": {"name": "star", "worker_bandwidth": "1Gbps"}},
  "compute": {"mode": "fixed", "seconds": "1ms", "overlap": "layerwise", "bucket": 16000},
  "codec": {"mode": "model", "device": "cpu_core"},
  "algorithms": ["qsgd", "dore",
                 {"name": "dpsgd", "topology": {"name": "ring"}},
                 {"name": "sgd", "label": "diverges", "step": {"size": 1e6}}]
})";

class RetimeCommandTest : public commsim::test_files::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    std::ofstream(P("s.json")) << kScenario;
  }
  void ExpectSameRunFiles(const std::string& a, const std::string& b) {
    for (const char* f : {"metrics.csv", "summary.csv", "summary.json", "scenario.resolved.json"}) {
      EXPECT_EQ(Read(P(a) + "/" + f), Read(P(b) + "/" + f)) << f;
    }
  }
};

TEST_F(RetimeCommandTest, RetimeOnAnotherNetworkWritesWhatTheFullRunWrites) {
  const std::string run = "run " + P("s.json") + " --no-plots -q --out ";
  ASSERT_EQ(RunCommsim(run + P("traced") + " --trace").status, 0);
  ASSERT_TRUE(fs::exists(P("traced/trace.txt")));
  ASSERT_EQ(RunCommsim(run + P("plain")).status, 0);
  EXPECT_FALSE(fs::exists(P("plain/trace.txt")));
  ExpectSameRunFiles("traced", "plain");  // tracing changes nothing else

  const std::string set =
      " --set /network/topology/worker_bandwidth=20Mbps --set /network/model=flow"
      " --set /header_bits=320 --set /codec/device=v100";
  ASSERT_EQ(RunCommsim(run + P("slow") + set).status, 0);
  const auto r =
      RunCommsim("retime " + P("traced/trace.txt") + " --no-plots --out " + P("retimed") + set);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("3 of 4 entries have a trajectory"), std::string::npos) << r.out;
  ExpectSameRunFiles("slow", "retimed");
  EXPECT_NE(Read(P("slow/metrics.csv")), Read(P("plain/metrics.csv")));
}

TEST_F(RetimeCommandTest, ATraceOfAScenarioInTheWorkingFolderRetimes) {
  const std::string cd = "cd " + P("") + " &&";
  ASSERT_EQ(RunCommsim("run s.json --no-plots -q --trace --out t", cd).status, 0);
  const auto r = RunCommsim("retime t/trace.txt --no-plots -q --out r", cd);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(Read(P("t/metrics.csv")), Read(P("r/metrics.csv")));
}

TEST_F(RetimeCommandTest, RetimeRefusesKeysThatChangeLearningAndBadTraces) {
  ASSERT_EQ(RunCommsim("run " + P("s.json") + " --no-plots -q --trace --out " + P("t")).status, 0);
  auto r = RunCommsim("retime " + P("t/trace.txt") + " --set /seed=2 --out " + P("x"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("--set /seed=2: retime changes timing keys only"), std::string::npos)
      << r.out;
  r = RunCommsim("retime " + P("t/trace.txt") + " --set /compute/overlap=none --out " + P("x"));
  EXPECT_EQ(r.status, 1) << r.out;
  std::ofstream(P("bad.txt")) << commsim::ResealTrace(
      "commsim-trace 2\nbase_dir \"/\"\nscenario {}\nentry 0 qsgd\n");
  r = RunCommsim("retime " + P("bad.txt") + " --out " + P("x"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find(P("bad.txt") + ":4: expected `end`, got the end of the file (truncated?)"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(P("x")));
}

// The shipped bandwidth_sweep at reduced size: d = 20,000 without the ResNet-18 profile, 2
// iterations, 4 points; `axis` is the sweep's second axis.
std::string SmallBandwidthSweep(const std::string& axis) {
  return fmt::format(R"({{
  "name": "bw", "base": "{}/scenarios/bandwidth_sweep_base.json",
  "set": {{"/iterations": 2, "/model": {{"name": "synthetic_quadratic", "dim": 20000,
           "samples_per_worker": 128}},
          "/algorithms": ["sgd", "qsgd", "memsgd", "diana", "doublesqueeze", "dore"]}},
  "combine": "zip",
  "axes": [{{"name": "bandwidth", "pointer": "/network/topology/server_bandwidth",
             "logspace": ["10Mbps", "10Gbps", 4]}}, {}]
}})",
                     COMMSIM_SOURCE_DIR, axis);
}

TEST_F(RetimeCommandTest, SweepCsvIsTheSameWithAndWithoutReuse) {
  fs::copy_file(fs::path(COMMSIM_SOURCE_DIR) / "scenarios/dore_resnet18_bandwidth.json",
                P("bandwidth_sweep_base.json"));
  for (
      const auto& [axis, reused] :
      {std::pair<std::string, std::string>{
           R"({"pointer": "/network/topology/worker_bandwidth", "logspace": ["10Mbps", "10Gbps", 4]})",
           "trajectory reuse: 18 entries re-timed from 6 recorded trajectories"},
       {R"({"pointer": "/seed", "values": [1, 2, 3, 4]})",
        "trajectory reuse: off (axis seed (/seed) is not a timing key)"}}) {
    std::string text = SmallBandwidthSweep(axis);
    const std::string dir = COMMSIM_SOURCE_DIR;
    text.replace(text.find(dir + "/scenarios/"), dir.size() + 11, P(""));
    std::ofstream(P("sweep.json")) << text;
    const std::string sweep = "sweep " + P("sweep.json") + " --no-plots --quiet -j 2 --restart";
    const auto with = RunCommsim(sweep + " --out " + P("with"));
    ASSERT_EQ(with.status, 0) << with.out;
    EXPECT_NE(with.out.find(reused), std::string::npos) << with.out;
    const auto without = RunCommsim(sweep + " --no-reuse --out " + P("without"));
    ASSERT_EQ(without.status, 0) << without.out;
    EXPECT_NE(without.out.find("trajectory reuse: off (--no-reuse)"), std::string::npos);
    EXPECT_EQ(Read(P("with/sweep.csv")), Read(P("without/sweep.csv"))) << axis;
    for (int k = 0; k < 4; ++k) {
      const std::string f = fmt::format("/points/{}.csv", k);
      EXPECT_EQ(Read(P("with") + f), Read(P("without") + f)) << axis << f;
    }
  }
}

}  // namespace
