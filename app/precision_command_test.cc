// The parameter-server rules' `precision` key at the command line: `commsim list` shows it with
// its choices for every rule that has per-worker state, and `commsim validate` rejects a bad value
// with the JSON pointer and exit status 1.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/binary_test_util.h"
#include "base/file_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using commsim::testing::RunCommsim;

// The line of `commsim list` that describes `key` under the registry entry `component` ("" when
// that entry has no such parameter).
std::string ParamLine(const std::string& list, const std::string& component,
                      const std::string& key) {
  std::istringstream lines(list);
  std::string line;
  bool inside = false;
  while (std::getline(lines, line)) {
    if (line.starts_with("  ") && !line.starts_with("   ")) {
      inside = line.starts_with("  " + component + " ");
    } else if (inside && line.starts_with("      " + key + " ")) {
      return line;
    }
  }
  return "";
}

TEST(PrecisionCommandTest, ListShowsPrecisionForEveryRuleWithWorkerState) {
  const auto r = RunCommsim("list");
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* rule : {"memsgd", "diana", "doublesqueeze", "dore"}) {
    const std::string line = ParamLine(r.out, rule, "precision");
    EXPECT_NE(line.find(R"(default "float64")"), std::string::npos) << rule << ": " << line;
    EXPECT_NE(line.find(R"(one of "float64", "float32")"), std::string::npos)
        << rule << ": " << line;
  }
  EXPECT_EQ(ParamLine(r.out, "sgd", "precision"), "") << "sgd has no per-worker state";
}

TEST(PrecisionCommandTest, ValidateRejectsFloat16WithItsPointer) {
  const fs::path dir = test_files::FreshDir("commsim_precision");
  std::ofstream(dir / "s.json") << R"({"algorithms": [{"name": "diana", "precision": "float16"}]})";
  const auto r = RunCommsim("validate " + (dir / "s.json").string());
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(R"(/algorithms/0/precision: expected one of "float64", "float32")"),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace commsim
