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
#include "sim/file_test_util.h"

namespace {

namespace fs = std::filesystem;
using commsim::test_files::Read;
using commsim::testing::RunCommsim;

fs::path ThreadsTempDir(const std::string& name) {
  return commsim::test_files::FreshDir("commsim_threads_" + name);
}

// Runs `args` with --threads 1 and --threads 3; every output but run.json (wall times) must match.
// Returns the folder (runs in 1/ and 3/).
fs::path ExpectSameForOneAndThreeThreads(const std::string& name, const std::string& args) {
  const fs::path dir = ThreadsTempDir(name);
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

TEST(ThreadsCommandTest, ShippedScenariosAreByteIdenticalWithOneAndThreeThreads) {
  // Every PS rule on a linear model; 20 workers.
  ExpectSameForOneAndThreeThreads("quickstart",
                                  "run scenarios/quickstart.json --set /iterations=12");
  // Mini-batches drawn from each worker's stream on an MLP (the batch Rngs must stay per worker).
  ExpectSameForOneAndThreeThreads(
      "mnist", "run scenarios/dore_mnist.json --set /iterations=4 --set /metrics_every=2 "
                 "--set /data/max_samples=2000");
  // Workers start encoding in another order than their numbers (jitter and a straggler), two
  // server shards and layer-wise overlap (buckets).
  ExpectSameForOneAndThreeThreads(
      "jitter", "run scenarios/quickstart.json --set /iterations=8 --set /workers=4 "
                "--set /compute/jitter=0.3 "
                "--set '/compute/slowdown=[3, 1, 1, 0.5]' --set /network/topology/servers=2 "
                "--set /compute/overlap=layerwise --set /compute/bucket=6400");
}

TEST(ThreadsCommandTest, DecentralizedAndCollectiveScenariosAreByteIdenticalWithOneAndThree) {
  // D-PSGD, CHOCO and MALCOM on a ring of 8, nodes finishing their compute out of order.
  ExpectSameForOneAndThreeThreads(
      "decentralized", "run scenarios/decentralized_quick.json --set /iterations=6 "
                       "--set /compute/jitter=0.3");
  // Ring all-reduce (bucketed: layer-wise overlap), all-gather with and without error feedback,
  // PowerSGD, next to the PS entries, at d = 4000.
  ExpectSameForOneAndThreeThreads(
      "collective", "run scenarios/deploy_resnet18_1gbps.json --set /iterations=2 "
                    "--set /model/profile= --set /model/dim=4000 --set /compute/jitter=0.3 "
                    "--set /compute/overlap=layerwise --set /compute/bucket=32000");
}

// Three bandwidths, all PS entries: with reuse the first point learns and the others replay its
// trajectories (also through the threaded driver); without reuse every point learns.
constexpr const char* kThreadsSweep = R"({
  "name": "threads_sweep",
  "base": {
    "name": "tiny", "seed": 3, "workers": 5, "iterations": 6, "metrics_every": 2,
    "model": {"name": "linear_regression"},
    "data": {"name": "synthetic_regression", "samples": 200, "features": 100, "noise": 0.1},
    "partition": {"name": "iid"},
    "network": {"topology": {"name": "star", "worker_bandwidth": "1Gbps",
                             "server_bandwidth": "1Gbps"}},
    "compute": {"mode": "fixed", "seconds": "1ms", "jitter": 0.2},
    "step": {"size": 0.1},
    "algorithms": [{"name": "qsgd"}, {"name": "memsgd"}, {"name": "dore"}]
  },
  "axes": [{"name": "bandwidth", "pointer": "/network/topology/server_bandwidth",
            "values": ["10Mbps", "100Mbps", "1Gbps"]}]
})";

TEST(ThreadsCommandTest, ASweepCsvIsTheSameWithOneAndThreeThreads) {
  const fs::path dir = ThreadsTempDir("sweep");
  const std::string file = (dir / "sweep.json").string();
  std::ofstream(file) << kThreadsSweep;
  for (const std::string reuse : {"", "--no-reuse"}) {
    for (const std::string threads : {"1", "3"}) {
      const auto r = RunCommsim("sweep " + file + " --jobs 2 --no-plots --quiet " + reuse +
                                " --threads " + threads + " --out " +
                                (dir / (threads + reuse)).string());
      ASSERT_EQ(r.status, 0) << threads << reuse << ": " << r.out;
      EXPECT_NE(r.out.find(reuse.empty() ? "re-timed" : "off (--no-reuse)"), std::string::npos)
          << r.out;
    }
    const std::string one = Read(dir / ("1" + reuse) / "sweep.csv");
    EXPECT_FALSE(one.empty());
    EXPECT_EQ(one, Read(dir / ("3" + reuse) / "sweep.csv")) << reuse;
  }
}

TEST(ThreadsCommandTest, ADivergingRunStopsTheSameWithOneAndThreeThreads) {
  const fs::path dir = ExpectSameForOneAndThreeThreads(
      "diverged", "run scenarios/quickstart.json --set /iterations=30 --set /step/size=40");
  const std::string summary = Read(dir / "3" / "summary.csv");
  EXPECT_NE(summary.find("diverged"), std::string::npos) << "the run did not diverge";
}

TEST(ThreadsCommandTest, BadThreadCountsAreRefusedWithTheValue) {
  for (const char* bad : {"0", "abc", "-2", "257", "2x"}) {
    const auto r = RunCommsim(std::string("run scenarios/quickstart.json --quiet --threads ") +
                              bad + " --out " + (ThreadsTempDir("bad") / "out").string());
    EXPECT_NE(r.status, 0) << bad;
    EXPECT_NE(r.out.find(std::string("--threads: expected a whole number of threads from 1 to "
                                     "256, got '") + bad + "'"),
              std::string::npos)
        << bad << ": " << r.out;
    EXPECT_FALSE(fs::exists(ThreadsTempDir("bad") / "out")) << bad;
  }
}

TEST(ThreadsCommandTest, MeasuredCodecTimesNeedOneThread) {
  const fs::path out = ThreadsTempDir("measured") / "out";
  const auto r = RunCommsim(
      "run scenarios/quickstart.json --quiet --no-plots --set /iterations=2 "
      "--set '/codec={\"mode\": \"measured\"}' --threads 2 --out " + out.string());
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("/algorithms/0: codec mode \"measured\" times every encode in wall time, "
                       "which encodes running in parallel would distort; run it with --threads 1 "
                       "(got --threads 2)"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(out));
  const auto gossip = RunCommsim(
      "run scenarios/decentralized_quick.json --quiet --no-plots --set /iterations=2 "
      "--set '/codec={\"mode\": \"measured\"}' --threads 2 --out " + out.string());
  EXPECT_EQ(gossip.status, 1) << gossip.out;
  EXPECT_NE(gossip.out.find("codec mode \"measured\" times every encode in wall time"),
            std::string::npos)
      << gossip.out;
  EXPECT_FALSE(fs::exists(out));
  const auto one = RunCommsim(
      "run scenarios/quickstart.json --quiet --no-plots --set /iterations=2 "
      "--set '/codec={\"mode\": \"measured\"}' --threads 1 --out " + out.string());
  EXPECT_EQ(one.status, 0) << one.out;
}

}  // namespace
