// `commsim calibrate` through the binary: the profile it writes covers every registered
// compressor with usable coefficients, a scenario can use it, and it never replaces a file it did
// not write.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "algorithms/registry.h"
#include "app/binary_test_util.h"
#include "base/file_test_util.h"

namespace commsim {
namespace {

using test_files::Read;
using testing::RunCommsim;

class CalibrateCommandTest : public test_files::TempDirTest {};

TEST_F(CalibrateCommandTest, WritesAProfileOfEveryCompressorThatAScenarioCanUse) {
  const std::string out = P("mine.json");
  const auto r = RunCommsim("calibrate --reps 1 --device-name testbox --out " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("encode fit error mean/max"), std::string::npos) << r.out;
  const nlohmann::json doc = nlohmann::json::parse(Read(out));
  EXPECT_EQ(doc.at("device"), "testbox");
  EXPECT_EQ(doc.at("generated_by"), "commsim calibrate");
  for (const std::string& name : CompressorRegistry().names()) {
    // One line of fit errors per compressor on the terminal, one entry in the file.
    EXPECT_NE(r.out.find("\n" + name + " "), std::string::npos) << name << "\n" << r.out;
    ASSERT_TRUE(doc.at("compressors").contains(name)) << name;
    for (const char* direction : {"encode", "decode"}) {
      for (const auto& [term, value] : doc["compressors"][name][direction].items()) {
        ASSERT_TRUE(value.is_number()) << name << " " << direction << " " << term;
        const double v = value.get<double>();
        EXPECT_TRUE(std::isfinite(v) && v >= 0)
            << name << " " << direction << " " << term << " = " << v;
      }
    }
  }
  // The profile drives a run's codec model: validate accepts a scenario pointing at it.
  const auto v = RunCommsim(
      "validate scenarios/quickstart.json --set '/codec={\"mode\":\"model\","
      "\"profile\":\"" +
          out + "\"}'",
      "cd " COMMSIM_SOURCE_DIR " &&");
  EXPECT_EQ(v.status, 0) << v.out;
}

TEST_F(CalibrateCommandTest, RefusesToReplaceAFileItDidNotWrite) {
  const std::string out = P("notes.json");
  {
    std::ofstream f(out);
    f << "{\"my\": \"notes\"}\n";
  }
  const auto r = RunCommsim("calibrate --reps 1 --out " + out);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("the file exists and was not written by `commsim calibrate`"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(Read(out), "{\"my\": \"notes\"}\n");
}

}  // namespace
}  // namespace commsim
