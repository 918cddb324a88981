#include "base/input_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/error.h"
#include "base/file_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

constexpr InputFileRule kTen = {.noun = "test file", .max_bytes = 10, .max_shown = "10 bytes"};

std::string ErrorOfRead(const std::string& path) {
  try {
    ReadInputFile(path, kTen);
  } catch (const UserError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(InputFileTest, ReadsARegularFileUpToTheCapExactly) {
  const fs::path dir = test_files::FreshDir("commsim_input_file_read");
  std::ofstream(dir / "ten") << "0123456789";
  std::ofstream(dir / "eleven") << "0123456789A";
  std::ofstream(dir / "empty");
  EXPECT_EQ(ReadInputFile((dir / "ten").string(), kTen), "0123456789");
  EXPECT_EQ(ReadInputFile((dir / "empty").string(), kTen), "");
  EXPECT_EQ(
      ErrorOfRead((dir / "eleven").string()),
      (dir / "eleven").string() + ": 11 bytes is more than the 10 bytes a test file may have");
  fs::create_symlink(dir / "ten", dir / "link");
  EXPECT_EQ(ReadInputFile((dir / "link").string(), kTen), "0123456789");  // its target is regular
}

TEST(InputFileTest, FifosDevicesAndFoldersAreRefusedWithoutBlocking) {
  const fs::path dir = test_files::FreshDir("commsim_input_file_kinds");
  const fs::path fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);  // no writer: a blocking open would never return
  EXPECT_EQ(ErrorOfRead(fifo.string()),
            fifo.string() + ": not a regular file (a test file is expected)");
  EXPECT_EQ(ErrorOfRead("/dev/zero"), "/dev/zero: not a regular file (a test file is expected)");
  fs::create_symlink("/dev/zero", dir / "zero");
  EXPECT_EQ(ErrorOfRead((dir / "zero").string()),
            (dir / "zero").string() + ": not a regular file (a test file is expected)");
  EXPECT_EQ(ErrorOfRead(dir.string()),
            dir.string() + ": not a regular file (a test file is expected)");
  EXPECT_EQ(ErrorOfRead((dir / "missing").string()),
            (dir / "missing").string() + ": cannot open test file");
}

}  // namespace
}  // namespace commsim
