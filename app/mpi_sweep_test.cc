// `mpirun -n K commsim sweep` through the built program: byte-identical to a one-process sweep,
// a killed rank fails the job naming the point it was running, and a re-run resumes.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include "app/binary_test_util.h"
#include "base/file_test_util.h"
#include "mpi/mpi_world.h"

namespace {

namespace fs = std::filesystem;
using commsim::testing::RunCommsim;

constexpr int kPoints = 9;

// A small linear-regression sweep over 9 bandwidths; `seed` changes what it computes, the
// iterations how long a point takes.
std::string SweepJson(int seed, int iterations = 300) {
  return commsim::testing::TinySweep("mpi_tiny", {.seed = seed,
                                                  .iterations = iterations,
                                                  .samples = 400,
                                                  .features = 300,
                                                  .points = kPoints})
      .dump();
}

// mpirun as CI runs it: as root, more ranks than cores, shared memory only (no network needed).
std::string Mpirun(int ranks) {
  return fmt::format(
      "mpirun -n {} --oversubscribe --allow-run-as-root --mca btl self,vader "
      "--mca btl_vader_single_copy_mechanism none",
      ranks);
}

using commsim::test_files::Read;

class MpiSweepTest : public commsim::test_files::TempDirTest {
 protected:
  void SetUp() override {
    if (!commsim::mpi::MpiBuilt() || std::system("command -v mpirun >/dev/null 2>&1") != 0) {
      GTEST_SKIP() << "built without MPI, or no mpirun on PATH";
    }
    TempDirTest::SetUp();
    file_ = P("mpi_tiny.json");
  }
  // Writes the sweep file and its one-process result (folder "one").
  void Prepare(int iterations) {
    std::ofstream(file_) << SweepJson(3, iterations);
    const auto r = RunCommsim(Args("one"));
    ASSERT_EQ(r.status, 0) << r.out;
  }
  std::string Args(const std::string& out, int jobs = 1) const {
    return fmt::format("sweep {} --out {} --jobs {} --no-plots --quiet", file_,
                       (dir_ / out).string(), jobs);
  }
  void ExpectSameAsOneProcess(const std::string& out) const {
    EXPECT_EQ(Read(dir_ / out / "sweep.csv"), Read(dir_ / "one" / "sweep.csv")) << out;
    for (int k = 0; k < kPoints; ++k) {
      const std::string point = fmt::format("points/{}.csv", k);
      EXPECT_EQ(Read(dir_ / out / point), Read(dir_ / "one" / point)) << out << ": " << point;
    }
  }
  std::string file_;
};

TEST_F(MpiSweepTest, ThreeRanksOrTwoRanksOfTwoJobsWriteTheOneProcessResultByteForByte) {
  ASSERT_NO_FATAL_FAILURE(Prepare(300));
  const auto three = RunCommsim(Args("three"), Mpirun(3));
  ASSERT_EQ(three.status, 0) << three.out;
  ExpectSameAsOneProcess("three");
  // Only rank 0 reports, once.
  const std::string summary = fmt::format("sweep: {} points ({} run now, 0 from", kPoints, kPoints);
  EXPECT_EQ(three.out.find(summary), three.out.rfind(summary)) << three.out;
  EXPECT_NE(three.out.find(summary), std::string::npos) << three.out;

  const auto jobs = RunCommsim(Args("jobs", 2), Mpirun(2));
  ASSERT_EQ(jobs.status, 0) << jobs.out;
  ExpectSameAsOneProcess("jobs");

  // Rank 0 refusing the folder (another sweep's results) releases the other ranks: no hang.
  std::ofstream(file_) << SweepJson(4);
  const auto refused = RunCommsim(Args("three"), Mpirun(3));
  EXPECT_NE(refused.status, 0);
  EXPECT_NE(refused.out.find("holds results of a different sweep"), std::string::npos)
      << refused.out;
}

// The rank and pid in a running entry "rank R of N (host H, pid P)".
bool ParseEntry(const std::string& text, int* rank, pid_t* pid) {
  std::smatch m;
  static const std::regex entry(R"(^rank (\d+) of 3 \(host [^,]+, pid (\d+)\))");
  if (!std::regex_search(text, m, entry)) return false;
  *rank = std::stoi(m[1]);
  *pid = static_cast<pid_t>(std::stol(m[2]));
  return true;
}

// Stops `pid` and waits until every thread of it is stopped (kill returns before that).
void StopAndWait(pid_t pid) {
  ::kill(pid, SIGSTOP);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  const fs::path tasks = fs::path("/proc") / std::to_string(pid) / "task";
  for (bool stopped = false; !stopped && std::chrono::steady_clock::now() < deadline;) {
    stopped = true;
    std::error_code ec;
    for (const auto& task : fs::directory_iterator(tasks, ec)) {
      // /proc/<pid>/task/<tid>/stat: "tid (name) S ...", the state after the last ')'.
      const std::string stat = Read(task.path() / "stat");
      const size_t paren = stat.rfind(')');
      stopped = stopped && paren != std::string::npos && paren + 2 < stat.size() &&
                (stat[paren + 2] == 'T' || stat[paren + 2] == 't');
    }
    if (ec) return;  // the process is gone
    if (!stopped) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// The point whose running entry names `pid` and whose result is not stored, if any.
std::optional<size_t> UnfinishedPointOf(const fs::path& out, pid_t pid) {
  for (int k = 0; k < kPoints; ++k) {
    int rank = 0;
    pid_t entry = 0;
    std::error_code ec;
    if (ParseEntry(Read(out / "points" / fmt::format("{}.running", k)), &rank, &entry) &&
        entry == pid && !fs::exists(out / "points" / fmt::format("{}.csv", k), ec)) {
      return static_cast<size_t>(k);
    }
  }
  return std::nullopt;
}

TEST_F(MpiSweepTest, AKilledRankFailsTheJobNamingItsPointAndARerunResumes) {
  ASSERT_NO_FATAL_FAILURE(Prepare(1500));  // points long enough to be caught running
  const fs::path out = dir_ / "killed";
  const std::string log = (dir_ / "killed.log").string();
  const pid_t job = ::fork();
  if (job == 0) {
    // --no-reuse: every point learns, so a rank is caught running one (re-timed points are quick).
    // Rank 0 prints the note on mpirun's SIGTERM; SIGKILL follows after
    // odls_base_sigkill_timeout seconds (1 by default), too short for a loaded machine.
    const std::string command =
        fmt::format("{} --mca odls_base_sigkill_timeout 20 {} {} --no-reuse >{} 2>&1", Mpirun(3),
                    COMMSIM_BINARY, Args("killed"), log);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Wait until a point is stored and rank 1 or 2 is running one, then kill that rank. The rank
  // is stopped (SIGSTOP) before its point is checked: a running rank can finish the point between
  // the check and the kill (CI once killed a rank that had stored its last point), a stopped one
  // cannot. Only a point still unfinished while the rank is stopped is a kill; else it resumes.
  int rank = 0;
  pid_t victim = 0;
  size_t point = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (victim == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::error_code ec;
    if (!fs::exists(out / "points" / "0.csv", ec)) continue;
    for (int k = 0; k < kPoints && victim == 0; ++k) {
      if (!ParseEntry(Read(out / "points" / fmt::format("{}.running", k)), &rank, &victim) ||
          rank == 0) {
        victim = 0;
        continue;
      }
      StopAndWait(victim);
      if (const std::optional<size_t> running = UnfinishedPointOf(out, victim)) {
        point = *running;
      } else {
        ::kill(victim, SIGCONT);
        victim = 0;
      }
    }
  }
  ASSERT_NE(victim, 0) << "no rank but 0 ran a point after point 0 was stored: " << Read(log);
  ::kill(victim, SIGKILL);
  int status = 0;
  ::waitpid(job, &status, 0);
  const std::string said = Read(log);
  EXPECT_FALSE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << said;
  EXPECT_NE(said.find(fmt::format("  point {} (bandwidth=", point)), std::string::npos) << said;
  EXPECT_NE(said.find(fmt::format(") on rank {}\n", rank)), std::string::npos) << said;
  EXPECT_FALSE(fs::exists(out / "sweep.csv"));

  const auto rerun = RunCommsim(Args("killed"), Mpirun(3));
  ASSERT_EQ(rerun.status, 0) << rerun.out;
  EXPECT_NE(rerun.out.find(fmt::format("an earlier run stopped while rank {} of 3 (host", rank)),
            std::string::npos)
      << rerun.out;
  EXPECT_NE(rerun.out.find(fmt::format("pid {}) was running point {} (", victim, point)),
            std::string::npos)
      << rerun.out;
  ExpectSameAsOneProcess("killed");
}

TEST(MpiLaunchTest, OtherCommandsAreRefusedOnSeveralRanks) {
  const auto r = RunCommsim("run no_such.json", "OMPI_COMM_WORLD_SIZE=2");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out,
            "error: `commsim run` was started on 2 MPI ranks: only `commsim sweep` runs on "
            "several ranks (each rank would run the whole command and write the same outputs); "
            "run it without mpirun/srun\n");
  EXPECT_EQ(RunCommsim("--version", "OMPI_COMM_WORLD_SIZE=2").status, 0);
}

}  // namespace
