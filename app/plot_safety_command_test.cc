// Through the built program: a sweep whose axis name is a command-injection attempt runs nothing
// (gnuplot is started without a shell and gets the name as a literal).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "analysis/subprocess.h"
#include "analysis/writers.h"
#include "base/file_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

TEST(PlotSafetyCommandTest, HostileSweepAxisNameRunsNothing) {
  const fs::path dir = test_files::FreshDir("plot_safety_cmd");
  const std::string m = (dir / "pwned").string();
  const nlohmann::json sweep = {
      {"name", "hostile"},
      {"base", (fs::path(COMMSIM_SOURCE_DIR) / "scenarios" / "quickstart.json").string()},
      {"set",
       {{"/iterations", 2},
        {"/algorithms", nlohmann::json::array({{{"name", "sgd"}}, {{"name", "qsgd"}}})}}},
      {"axes",
       nlohmann::json::array(
           {{{"name", fmt::format("`touch {0}1` $(touch {0}2) '; system(\"touch {0}3\") #", m)},
             {"pointer", "/network/topology/worker_bandwidth"},
             {"values", {"1Gbps", "10Gbps"}}}})}};
  WriteFileAtomic((dir / "hostile.json").string(), sweep.dump(2));
  const ProgramResult r =
      RunProgram(COMMSIM_BINARY,
                 {"sweep", "hostile.json", "--out", "out", "--quiet", "--jobs", "1"}, dir.string());
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    EXPECT_EQ(e.path().filename().string().find("pwned"), std::string::npos) << e.path();
  }
  // Either the sweep runs and plots (the name printed literally), or the name is refused with a
  // clear error; never a command.
  if (r.ok()) {
    EXPECT_TRUE(fs::exists(dir / "out" / "plots" / "time_per_iteration.svg")) << r.output;
    EXPECT_TRUE(fs::exists(dir / "out" / "report.html")) << r.output;
  } else {
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("error: "), std::string::npos) << r.output;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace commsim
