// `commsim data build` end to end: the real binary on a data folder chosen by COMMSIM_DATA_DIR.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "app/binary_test_util.h"

namespace {

namespace fs = std::filesystem;
using commsim::testing::CommandResult;

// Runs the binary with COMMSIM_DATA_DIR set to `data_dir`.
CommandResult RunWithData(const std::string& data_dir, const std::string& args) {
  return commsim::testing::RunCommsim(args, "COMMSIM_DATA_DIR='" + data_dir + "'");
}

TEST(DataCommandTest, MissingRawDataFailsWithTheFetchCommand) {
  const fs::path dir =
      fs::temp_directory_path() / ("commsim_empty_data_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const CommandResult r = RunWithData(dir.string(), "data build --quiet");
  fs::remove_all(dir);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("raw data for 'mnist' is missing; fetch it with `scripts/fetch_data.sh`"),
            std::string::npos)
      << r.out;
}

TEST(DataCommandTest, UpToDateRepositoryCacheIsQuiet) {
  // ./test.sh builds the repository's cache before the tests run.
  const CommandResult r = RunWithData(COMMSIM_SOURCE_DIR "/data", "data build --quiet");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "");
  const CommandResult loud = RunWithData(COMMSIM_SOURCE_DIR "/data", "data build");
  EXPECT_NE(loud.out.find("caches in"), std::string::npos) << loud.out;
}

}  // namespace
