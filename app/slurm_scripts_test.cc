// scripts/slurm/: the array-job form run here the way Slurm would run it (each task's command in a
// loop, then the gather step) gives the one-process sweep.csv byte for byte; submit_sweep.sh asks
// for one task per point and makes the gather step wait for all of them.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/binary_test_util.h"
#include "base/file_test_util.h"

namespace {

namespace fs = std::filesystem;
using commsim::testing::RunCommsim;
using commsim::testing::TinySweep;

constexpr int kSlurmPoints = 5;

using commsim::test_files::Read;

// Runs `command` with sh; returns its exit status and appends its output to `*out`.
int Shell(const std::string& command, std::string* out) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return -1;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out->append(buf, n);
  const int status = ::pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class SlurmScriptsTest : public commsim::test_files::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    file_ = P("slurm_tiny.json");
    std::ofstream(file_) << TinySweep("slurm_tiny",
                                      {.seed = 5, .iterations = 40, .points = kSlurmPoints});
  }
  std::string Script(const std::string& name) const {
    return fmt::format("COMMSIM={} {}/scripts/slurm/{}", COMMSIM_BINARY, COMMSIM_SOURCE_DIR, name);
  }
  std::string file_;
};

TEST_F(SlurmScriptsTest, ArrayTasksInALoopThenTheGatherStepGiveTheOneProcessSweepCsv) {
  const std::string array = (dir_ / "array").string();
  std::string said;
  for (int k = 0; k < kSlurmPoints; ++k) {
    ASSERT_EQ(Shell(fmt::format("SLURM_ARRAY_TASK_ID={} {} {} {}", k, Script("sweep_array.sbatch"),
                                file_, array),
                    &said),
              0)
        << said;
  }
  EXPECT_FALSE(fs::exists(fs::path(array) / "sweep.csv"));
  ASSERT_EQ(Shell(fmt::format("{} {} {}", Script("sweep_gather.sbatch"), file_, array), &said), 0)
      << said;
  // The gather step ran nothing again.
  EXPECT_NE(said.find(fmt::format("sweep: {} points (0 run now, {} from an earlier run)",
                                  kSlurmPoints, kSlurmPoints)),
            std::string::npos)
      << said;

  const auto one = RunCommsim(
      fmt::format("sweep {} --out {} --jobs 1 --no-plots --quiet", file_, (dir_ / "one").string()));
  ASSERT_EQ(one.status, 0) << one.out;
  const std::string expected = Read(dir_ / "one" / "sweep.csv");
  EXPECT_EQ(std::count(expected.begin(), expected.end(), '\n'), 1 + 2 * kSlurmPoints);
  EXPECT_EQ(Read(fs::path(array) / "sweep.csv"), expected);
}

TEST_F(SlurmScriptsTest, ArrayTaskWithoutAnIdExplainsItsUsage) {
  std::string said;
  EXPECT_EQ(Shell(fmt::format("env -u SLURM_ARRAY_TASK_ID {} {} out", Script("sweep_array.sbatch"),
                              file_),
                  &said),
            2);
  EXPECT_NE(said.find("usage: SLURM_ARRAY_TASK_ID=K "), std::string::npos) << said;
}

TEST_F(SlurmScriptsTest, SubmitAsksForOneTaskPerPointAndAGatherAfterAllOfThem) {
  // A stand-in sbatch on PATH: records its arguments, answers a job id as --parsable does.
  const fs::path bin = dir_ / "bin";
  fs::create_directories(bin);
  std::ofstream(bin / "sbatch") << "#!/bin/sh\necho \"$*\" >> " << (dir_ / "sbatch.log").string()
                                << "\necho 4711\n";
  fs::permissions(bin / "sbatch", fs::perms::owner_all);
  std::string said;
  ASSERT_EQ(Shell(fmt::format("PATH={}:$PATH {} {} out --mem=16G", bin.string(),
                              Script("submit_sweep.sh"), file_),
                  &said),
            0)
      << said;
  const std::string dir = fmt::format("{}/scripts/slurm", COMMSIM_SOURCE_DIR);
  EXPECT_EQ(Read(dir_ / "sbatch.log"),
            fmt::format("--parsable --array=0-{} --mem=16G {}/sweep_array.sbatch {} out\n"
                        "--parsable --dependency=afterany:4711 {}/sweep_gather.sbatch {} out\n",
                        kSlurmPoints - 1, dir, file_, dir, file_));
  EXPECT_EQ(said, "submitted: array job 4711 (5 points), gather job 4711 -> out/sweep.csv\n");
}

}  // namespace
