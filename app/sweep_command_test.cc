// `commsim sweep` through the built program: kill -9 mid-sweep, re-run, same sweep.csv.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "app/binary_test_util.h"
#include "base/file_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using test_files::Read;

constexpr int kPoints = 12;

// A small linear-regression scenario swept over kPoints bandwidths of the server and the workers
// together; `seed` changes what it computes.
std::string KilledSweepJson(int seed) {
  nlohmann::json sweep = testing::TinySweep(
      "tiny_bandwidth",
      {.seed = seed, .iterations = 300, .samples = 400, .features = 300, .points = kPoints});
  sweep["base"].merge_patch(nlohmann::json::parse(R"({
    "partition": {"name": "iid"},
    "network": {"topology": {"worker_bandwidth": "1Gbps", "server_bandwidth": "1Gbps"}},
    "step": {"size": 0.1}
  })"));
  sweep["combine"] = "zip";
  nlohmann::json& axes = sweep["axes"];  // "bandwidth", the server's; the workers' alongside
  axes[0]["pointer"] = "/network/topology/server_bandwidth";
  axes.push_back(
      {{"pointer", "/network/topology/worker_bandwidth"}, {"logspace", axes[0]["logspace"]}});
  return sweep.dump();
}

pid_t Spawn(const std::vector<std::string>& args) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(COMMSIM_BINARY));
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    ::execv(COMMSIM_BINARY, argv.data());
    ::_exit(127);
  }
  return pid;
}

int Wait(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

size_t StoredPoints(const fs::path& dir) {
  size_t n = 0;
  std::error_code ec;
  for (int k = 0; k < kPoints; ++k) n += fs::exists(dir / "points" / fmt::format("{}.csv", k), ec);
  return n;
}

TEST(SweepCommandTest, KillNineThenRerunGivesTheUninterruptedSweepCsv) {
  const fs::path root = test_files::FreshDir("sweep_command_test");
  const std::string file = (root / "tiny_sweep.json").string();
  std::ofstream(file) << KilledSweepJson(3);
  const fs::path killed = root / "killed";
  const fs::path clean = root / "clean";
  const std::vector<std::string> common = {"--jobs", "1", "--no-plots", "--quiet"};
  auto args = [&](const fs::path& out) {
    std::vector<std::string> a = {"sweep", file, "--out", out.string()};
    a.insert(a.end(), common.begin(), common.end());
    return a;
  };

  const pid_t victim = Spawn(args(killed));
  for (int i = 0; i < 4000 && StoredPoints(killed) < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::kill(victim, SIGKILL);
  EXPECT_EQ(Wait(victim), -SIGKILL);
  const size_t stored = StoredPoints(killed);
  EXPECT_GE(stored, 2u);
  EXPECT_LT(stored, static_cast<size_t>(kPoints)) << "the sweep ended before the kill";
  EXPECT_FALSE(fs::exists(killed / "sweep.csv"));

  EXPECT_EQ(Wait(Spawn(args(killed))), 0);
  EXPECT_EQ(Wait(Spawn(args(clean))), 0);
  const std::string resumed = Read(killed / "sweep.csv");
  EXPECT_EQ(std::count(resumed.begin(), resumed.end(), '\n'), 1 + 2 * kPoints);
  EXPECT_EQ(resumed, Read(clean / "sweep.csv"));

  // Editing the sweep is refused for the same folder without --restart.
  std::ofstream(file) << KilledSweepJson(4);
  EXPECT_EQ(Wait(Spawn(args(killed))), 1);
  fs::remove_all(root);
}

}  // namespace
}  // namespace commsim
