// `commsim data build` end to end: the real binary on a data folder chosen by COMMSIM_DATA_DIR.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

struct Result {
  int exit_code;
  std::string output;
};

Result RunCommsim(const std::string& data_dir, const std::string& args) {
  const fs::path out =
      fs::temp_directory_path() / ("commsim_data_test_" + std::to_string(::getpid()));
  const std::string command = "COMMSIM_DATA_DIR='" + data_dir + "' '" COMMSIM_BINARY "' " + args +
                              " >'" + out.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(out);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

TEST(DataCommandTest, MissingRawDataFailsWithTheFetchCommand) {
  const fs::path dir =
      fs::temp_directory_path() / ("commsim_empty_data_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const Result r = RunCommsim(dir.string(), "data build --quiet");
  fs::remove_all(dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("raw data for 'mnist' is missing; fetch it with `scripts/fetch_data.sh`"),
            std::string::npos)
      << r.output;
}

TEST(DataCommandTest, UpToDateRepositoryCacheIsQuiet) {
  // ./test.sh builds the repository's cache before the tests run.
  const Result r = RunCommsim(COMMSIM_SOURCE_DIR "/data", "data build --quiet");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "");
  const Result loud = RunCommsim(COMMSIM_SOURCE_DIR "/data", "data build");
  EXPECT_NE(loud.output.find("caches in"), std::string::npos) << loud.output;
}

}  // namespace
