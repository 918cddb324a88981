// Through the built program: every command that writes, run over folders seeded with the user's
// files, look-alike names and symbolic links in every subfolder, changes nothing but what
// commsim's own records (.commsim-owned) listed before it ran. Each case snapshots the whole tree
// (type, content hash, link target of every entry, links never followed) before and after.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "app/binary_test_util.h"
#include "base/file_test_util.h"
#include "base/hash.h"
#include "mpi/mpi_world.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using test_files::Read;
using testing::RunCommsim;
using testing::TinySweep;

// Every entry below `root` (links not followed): "d", "l <target>" or "f <hash>".
std::map<std::string, std::string> Snapshot(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    const fs::path& p = it->path();
    const std::string rel = p.lexically_relative(root).string();
    if (it->is_symlink()) {
      out[rel] = "l " + fs::read_symlink(p).string();
    } else if (it->is_directory()) {
      out[rel] = "d";
    } else {
      out[rel] = fmt::format("f {:016x}", Fnv1a64(Read(p)));
    }
  }
  return out;
}

// The paths (relative to `root`) that commsim's records below `root` list.
std::set<std::string> Recorded(const fs::path& root) {
  std::set<std::string> out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    if (it->is_symlink() || it->path().filename() != ".commsim-owned") continue;
    const fs::path folder = it->path().parent_path().lexically_relative(root);
    std::istringstream in(Read(it->path()));
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string skip, rel;
      for (int i = 0; i < 6; ++i) fields >> skip;
      fields >> rel;
      if (!rel.empty()) out.insert((folder / rel).lexically_normal().string());
    }
  }
  return out;
}

bool Reserved(const std::string& rel) {
  const std::string name = fs::path(rel).filename().string();
  return name == ".commsim" || name == ".commsim-owned" || name == ".commsim-journal" ||
         name == ".lock" || name.find(".tmp.") != std::string::npos ||
         name.find(".commsim-staging") != std::string::npos;
}

class OwnershipCommandTest : public test_files::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    fs::create_directories(P("victim/sub"));
    std::ofstream(P("victim/notes.txt")) << "precious";
    std::ofstream(P("victim/sub/0.csv")) << "precious too";
    nlohmann::json sweep = TinySweep("tiny", {.iterations = 4, .metrics_every = 2, .points = 2});
    std::ofstream(P("tiny_sweep.json")) << sweep.dump(2);
    sweep["base"]["name"] = "tiny_run";
    std::ofstream(P("tiny.json")) << sweep["base"].dump(2);
  }

  // Seeds `folder` with the user's files, look-alike names and links in it and in every subfolder.
  void Seed(const std::string& folder) {
    const fs::path f = dir_ / folder;
    std::ofstream(f / "my.json") << "{\"mine\": true}";
    std::ofstream(f / "notes.txt") << "the user's notes";
    fs::create_symlink(P("victim/notes.txt"), f / "link.txt");
    for (const auto& e : fs::directory_iterator(f)) {
      if (!e.is_directory() || e.is_symlink()) continue;
      std::ofstream(e.path() / "007.csv") << "look-alike";
      std::ofstream(e.path() / "99.csv") << "look-alike";
      std::ofstream(e.path() / "mine.png") << "the user's figure";
      fs::create_symlink(P("victim/notes.txt"), e.path() / "5.csv");
      fs::create_directory_symlink(P("victim/sub"), e.path() / "3");
    }
  }

  // Runs commsim with `args` from dir_ and checks that nothing outside the records commsim held
  // before changed. Returns the output; `exit_codes` lists the accepted exit codes.
  std::string ExpectOnlyOwnedChanged(const std::string& args, std::set<int> exit_codes,
                                     const std::string& prefix = "") {
    const auto before = Snapshot(dir_);
    const std::set<std::string> owned = Recorded(dir_);
    const testing::CommandResult r =
        RunCommsim(args, fmt::format("cd {} &&{}", dir_.string(), prefix));
    EXPECT_TRUE(exit_codes.count(r.status)) << args << " exited " << r.status << "\n" << r.out;
    const auto after = Snapshot(dir_);
    for (const auto& [rel, what] : before) {
      if (owned.count(rel) || Reserved(rel)) continue;
      const auto it = after.find(rel);
      EXPECT_TRUE(it != after.end() && it->second == what) << args << ": " << rel << " changed";
    }
    return r.out;
  }
};

TEST_F(OwnershipCommandTest, RunAndRetimeReplaceOnlyTheirOwnRunFolders) {
  ASSERT_EQ(
      RunCommsim(fmt::format("run {} --out {} --trace --quiet", P("tiny.json"), P("run"))).status,
      0);
  ASSERT_EQ(
      RunCommsim(fmt::format("retime {} --out {} --quiet", P("run/trace.txt"), P("re"))).status, 0);
  // Unchanged, a run folder is replaced.
  ExpectOnlyOwnedChanged("run tiny.json --out run --trace --quiet", {0});
  std::filesystem::copy_file(P("tiny.json"), P("run/my_scenario.json"));
  Seed("run");
  Seed("re");
  const std::string out = ExpectOnlyOwnedChanged("run run/my_scenario.json --out run --quiet", {1});
  EXPECT_NE(out.find("holds what commsim did not write"), std::string::npos) << out;
  EXPECT_NE(out.find("my_scenario.json"), std::string::npos) << out;
  ExpectOnlyOwnedChanged("retime run/trace.txt --out re --quiet", {1});
}

TEST_F(OwnershipCommandTest, SweepResumeRestartAndSweepPointTouchOnlyRecordedFiles) {
  ASSERT_EQ(RunCommsim(fmt::format("sweep {} --out {} --keep-runs --quiet --jobs 1",
                                   P("tiny_sweep.json"), P("sw")))
                .status,
            0);
  Seed("sw");
  Seed("sw/runs/0");
  ExpectOnlyOwnedChanged("sweep tiny_sweep.json --out sw --keep-runs --quiet --jobs 1", {0, 1});
  ExpectOnlyOwnedChanged("sweep-point tiny_sweep.json --point 1 --out sw", {0, 1});
  ExpectOnlyOwnedChanged("sweep tiny_sweep.json --out sw --restart --keep-runs --quiet --jobs 1",
                         {0, 1});
  EXPECT_EQ(Read(P("sw/points/007.csv")), "look-alike");
  EXPECT_EQ(Read(P("sw/plots/mine.png")), "the user's figure");
  EXPECT_EQ(Read(P("victim/sub/0.csv")), "precious too");
}

TEST_F(OwnershipCommandTest, SymlinkedSubfoldersAreRefusedNotFollowed) {
  for (const std::string sub : {"points", "plots", "runs"}) {
    const std::string sw = "sw_" + sub;
    ASSERT_EQ(RunCommsim(fmt::format("sweep {} --out {} --keep-runs --quiet --jobs 1",
                                     P("tiny_sweep.json"), P(sw)))
                  .status,
              0);
    fs::remove_all(P(sw + "/" + sub));
    fs::create_directory_symlink(P("victim/sub"), P(sw + "/" + sub));
    for (const char* how : {"--restart", ""}) {
      const std::string out = ExpectOnlyOwnedChanged(
          fmt::format("sweep tiny_sweep.json --out {} {} --keep-runs --quiet --jobs 1", sw, how),
          {1});
      EXPECT_NE(out.find(sw + "/" + sub + ": is a symbolic link"), std::string::npos)
          << sub << how << ": " << out;
    }
  }
  EXPECT_EQ(test_files::Names(P("victim/sub")), (std::set<std::string>{"0.csv"}));
}

TEST_F(OwnershipCommandTest, PlotAndReportWriteOnlyIntoCommsimFoldersAndTheirOwnFiles) {
  ASSERT_EQ(RunCommsim(fmt::format("run {} --out {} --quiet", P("tiny.json"), P("run"))).status, 0);
  fs::create_directories(P("mine"));
  std::ofstream(P("mine/report.md")) << "my report";
  fs::copy(P("run/summary.csv"), P("mine/summary.csv"));
  fs::copy(P("run/metrics.csv"), P("mine/metrics.csv"));
  std::string out = ExpectOnlyOwnedChanged("report mine", {1});
  EXPECT_NE(out.find("not a folder commsim made"), std::string::npos) << out;
  ExpectOnlyOwnedChanged("plot mine", {1});
  ExpectOnlyOwnedChanged("plot mine --out figs", {0});
  ExpectOnlyOwnedChanged("report mine --out figs", {0});
  EXPECT_NE(Read(P("figs/report.md")).find("# Run report"), std::string::npos);
  Seed("run");
  ExpectOnlyOwnedChanged("plot run", {0, 1});
  ExpectOnlyOwnedChanged("report run", {0, 1});
  std::ofstream(P("run/report.md")) << "edited by hand";
  out = ExpectOnlyOwnedChanged("report run", {1});
  EXPECT_NE(out.find("report.md: was changed since commsim wrote it"), std::string::npos) << out;
  fs::remove_all(P("run/plots"));
  fs::create_directory_symlink(P("victim/sub"), P("run/plots"));
  out = ExpectOnlyOwnedChanged("plot run", {1});
  EXPECT_NE(out.find("symbolic link"), std::string::npos) << out;
}

TEST_F(OwnershipCommandTest, CalibrateAndDataBuildReplaceOnlyTheirOwnFiles) {
  std::ofstream(P("profile.json")) << "{\"mine\": 1}";
  ExpectOnlyOwnedChanged("calibrate --out profile.json --reps 1", {1});
  fs::create_directories(P("data/cache"));
  std::ofstream(P("data/cache/mnist.bin")) << "not a cache";
  fs::create_symlink(P("victim/notes.txt"), P("data/cache/covtype.bin"));
  ExpectOnlyOwnedChanged("data build --quiet --force", {0, 1},
                         fmt::format(" COMMSIM_DATA_DIR={}", P("data")));
}

TEST_F(OwnershipCommandTest, MpiSweepTouchesOnlyRecordedFiles) {
  if (!mpi::MpiBuilt() || std::system("command -v mpirun >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "built without MPI, or no mpirun on PATH";
  }
  ASSERT_EQ(
      RunCommsim(fmt::format("sweep {} --out {} --quiet --jobs 1", P("tiny_sweep.json"), P("sw")))
          .status,
      0);
  Seed("sw");
  const std::string mpirun =
      "mpirun -n 2 --oversubscribe --allow-run-as-root --mca btl self,vader "
      "--mca btl_vader_single_copy_mechanism none";
  const testing::CommandResult r = RunCommsim(
      fmt::format("sweep {} --out {} --restart --quiet --jobs 1", P("tiny_sweep.json"), P("sw")),
      "cd " + dir_.string() + " && " + mpirun);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(Read(P("sw/points/007.csv")), "look-alike");
  EXPECT_EQ(Read(P("sw/my.json")), "{\"mine\": true}");
  EXPECT_EQ(Read(P("victim/notes.txt")), "precious");
}

}  // namespace
}  // namespace commsim
