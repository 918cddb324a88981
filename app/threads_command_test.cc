// `--threads` through the binary: shipped scenarios (reduced) give byte-identical run folders and
// traces with 1 and 3 threads, also where worker event order differs from worker order (jitter,
// stragglers), with shards and layer-wise overlap, and in a diverging run, for the three families
// (parameter server, decentralized, collective); a sweep gives the same
// sweep.csv (with and without trajectory reuse); bad values and the measured codec mode with
// threads are refused clearly.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "app/binary_test_util.h"
#include "base/file_test_util.h"

namespace {

namespace fs = std::filesystem;
using commsim::test_files::Read;
using commsim::testing::RunCommsim;

using ThreadsCommandTest = commsim::test_files::TempDirTest;

// Runs `args` with --threads 1 and --threads 3 into the folder `dir`; every output but run.json
// (wall times) must match. Returns `dir` (runs in 1/ and 3/).
fs::path ExpectSameForOneAndThreeThreads(const fs::path& dir, const std::string& args) {
  const std::string name = dir.filename().string();
  fs::create_directories(dir);
  for (const char* threads : {"1", "3"}) {
    const auto r = RunCommsim(args + " --quiet --no-plots --trace --threads " + threads +
                              " --out " + (dir / threads).string());
    EXPECT_EQ(r.status, 0) << name << ", --threads " << threads << ": " << r.out;
  }
  for (const char* file : {"metrics.csv", "summary.csv", "summary.json", "trace.txt"}) {
    EXPECT_TRUE(fs::exists(dir / "1" / file)) << name << ": " << file;
    EXPECT_EQ(Read(dir / "1" / file), Read(dir / "3" / file)) << name << ": " << file;
  }
  return dir;
}

TEST_F(ThreadsCommandTest, ShippedScenariosAreByteIdenticalWithOneAndThreeThreads) {
  // Every PS rule on a linear model; 20 workers.
  ExpectSameForOneAndThreeThreads(dir_ / "quickstart",
                                  "run scenarios/quickstart.json --set /iterations=12");
  // Mini-batches drawn from each worker's stream on an MLP (the batch Rngs must stay per worker).
  ExpectSameForOneAndThreeThreads(
      dir_ / "mnist",
      "run scenarios/dore_mnist.json --set /iterations=4 --set /metrics_every=2 "
      "--set /data/max_samples=2000");
  // Workers start encoding in another order than their numbers (jitter and a straggler), two
  // server shards and layer-wise overlap (buckets).
  ExpectSameForOneAndThreeThreads(
      dir_ / "jitter",
      "run scenarios/quickstart.json --set /iterations=8 --set /workers=4 "
      "--set /compute/jitter=0.3 "
      "--set '/compute/slowdown=[3, 1, 1, 0.5]' --set /network/topology/servers=2 "
      "--set /compute/overlap=layerwise --set /compute/bucket=6400");
}

TEST_F(ThreadsCommandTest, DecentralizedAndCollectiveScenariosAreByteIdenticalWithOneAndThree) {
  // D-PSGD, CHOCO and MALCOM on a ring of 8, nodes finishing their compute out of order.
  ExpectSameForOneAndThreeThreads(dir_ / "decentralized",
                                  "run scenarios/decentralized_quick.json --set /iterations=6 "
                                  "--set /compute/jitter=0.3");
  // Ring all-reduce (bucketed: layer-wise overlap), all-gather with and without error feedback,
  // PowerSGD, next to the PS entries, at d = 4000.
  ExpectSameForOneAndThreeThreads(
      dir_ / "collective",
      "run scenarios/deploy_resnet18_1gbps.json --set /iterations=2 "
      "--set /model/profile= --set /model/dim=4000 --set /compute/jitter=0.3 "
      "--set /compute/overlap=layerwise --set /compute/bucket=32000");
}

// Three bandwidths, all PS entries: with reuse the first point learns and the others replay its
// trajectories (also through the threaded driver); without reuse every point learns.
std::string ThreadsSweepJson() {
  nlohmann::json sweep = commsim::testing::TinySweep(
      "threads_sweep", {.workers = 5, .iterations = 6, .metrics_every = 2, .features = 100});
  sweep["base"].merge_patch(nlohmann::json::parse(R"({
    "partition": {"name": "iid"},
    "network": {"topology": {"worker_bandwidth": "1Gbps", "server_bandwidth": "1Gbps"}},
    "compute": {"jitter": 0.2},
    "step": {"size": 0.1},
    "algorithms": [{"name": "qsgd"}, {"name": "memsgd"}, {"name": "dore"}]
  })"));
  sweep["axes"] = nlohmann::json::parse(R"([{"name": "bandwidth",
    "pointer": "/network/topology/server_bandwidth", "values": ["10Mbps", "100Mbps", "1Gbps"]}])");
  return sweep.dump();
}

TEST_F(ThreadsCommandTest, ASweepCsvIsTheSameWithOneAndThreeThreads) {
  const std::string file = (dir_ / "sweep.json").string();
  std::ofstream(file) << ThreadsSweepJson();
  for (const std::string reuse : {"", "--no-reuse"}) {
    for (const std::string threads : {"1", "3"}) {
      const auto r =
          RunCommsim("sweep " + file + " --jobs 2 --no-plots --quiet " + reuse + " --threads " +
                     threads + " --out " + (dir_ / (threads + reuse)).string());
      ASSERT_EQ(r.status, 0) << threads << reuse << ": " << r.out;
      EXPECT_NE(r.out.find(reuse.empty() ? "re-timed" : "off (--no-reuse)"), std::string::npos)
          << r.out;
    }
    const std::string one = Read(dir_ / ("1" + reuse) / "sweep.csv");
    EXPECT_FALSE(one.empty());
    EXPECT_EQ(one, Read(dir_ / ("3" + reuse) / "sweep.csv")) << reuse;
  }
}

TEST_F(ThreadsCommandTest, ADivergingRunStopsTheSameWithOneAndThreeThreads) {
  const fs::path dir = ExpectSameForOneAndThreeThreads(
      dir_ / "diverged", "run scenarios/quickstart.json --set /iterations=30 --set /step/size=40");
  const std::string summary = Read(dir / "3" / "summary.csv");
  EXPECT_NE(summary.find("diverged"), std::string::npos) << "the run did not diverge";
}

TEST_F(ThreadsCommandTest, BadThreadCountsAreRefusedWithTheValue) {
  for (const char* bad : {"0", "abc", "-2", "257", "2x"}) {
    const auto r = RunCommsim(std::string("run scenarios/quickstart.json --quiet --threads ") +
                              bad + " --out " + (dir_ / "out").string());
    EXPECT_NE(r.status, 0) << bad;
    EXPECT_NE(r.out.find(std::string("--threads: expected a whole number of threads from 1 to "
                                     "256, got '") +
                         bad + "'"),
              std::string::npos)
        << bad << ": " << r.out;
    EXPECT_FALSE(fs::exists(dir_ / "out")) << bad;
  }
}

// A run with measured codec times and `threads` threads, and what it must print.
struct MeasuredCodecCase {
  const char* scenario;
  const char* threads;
  int status;
  const char* message;
};

TEST_F(ThreadsCommandTest, MeasuredCodecTimesNeedOneThread) {
  const MeasuredCodecCase cases[] = {
      {"quickstart", "2", 1,
       "/algorithms/0: codec mode \"measured\" times every encode in wall time, which encodes "
       "running in parallel would distort; run it with --threads 1 (got --threads 2)"},
      {"decentralized_quick", "2", 1, "codec mode \"measured\" times every encode in wall time"},
      {"quickstart", "1", 0, ""},
  };
  for (const MeasuredCodecCase& c : cases) {
    SCOPED_TRACE(std::string(c.scenario) + ", --threads " + c.threads);
    const fs::path out = dir_ / (std::string(c.scenario) + c.threads);
    const auto r = RunCommsim(std::string("run scenarios/") + c.scenario +
                              ".json --quiet --no-plots --set /iterations=2 --set "
                              "'/codec={\"mode\": \"measured\"}' --threads " +
                              c.threads + " --out " + out.string());
    EXPECT_EQ(r.status, c.status) << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << r.out;
    EXPECT_EQ(fs::exists(out), c.status == 0);
  }
}

}  // namespace
