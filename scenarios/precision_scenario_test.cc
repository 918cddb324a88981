// The parameter-server rules' `precision` key through the scenario reader and on a shipped convex
// scenario: float32 state still converges to the optimum (within the float rounding of the
// shifts), a bad value is a clear error with its JSON pointer, and the key is in the resolved
// scenario.
#include <gtest/gtest.h>

#include <string>

#include "analysis/records_test_util.h"
#include "base/error.h"
#include "scenarios/runner.h"
#include "scenarios/scenario.h"

namespace commsim {
namespace {

using nlohmann::json;

using test_records::SummaryNamed;

// dore_convex (linear regression, d = 500, n = 20, 1500 full-batch rounds): DORE in float64
// reaches |x - x*|^2 ~ 1e-24, i.e. its final loss is the optimum F*. With the shifts h_i in float
// (relative rounding 2^-24 ~ 6e-8 on store) DORE stops at |x - x*|^2 ~ 1e-12: the
// tolerance is 1e-10 on |x - x*|^2 (the bar the float64 run is held to) and 1e-9 relative on
// the loss against the float64 optimum.
TEST(PrecisionScenarioTest, Float32DoreConvergesOnDoreConvexToTheFloat64Optimum) {
  json doc =
      LoadScenarioDocument(std::string(COMMSIM_SOURCE_DIR) + "/scenarios/dore_convex.json", {});
  json dore;
  for (const json& entry : doc["algorithms"]) {
    if (entry["name"] == "dore") dore = entry;
  }
  ASSERT_TRUE(dore.is_object());
  json dore32 = dore;
  dore32["label"] = "dore32";
  dore32["precision"] = "float32";
  doc["algorithms"] = json::array({dore, dore32});
  RunOptions options;
  options.jobs = 2;
  const RunResult r = RunScenario(ParseScenario(doc, "dore_convex.json", ""), options);
  const RunSummary& reference = SummaryNamed(r, "dore");
  ASSERT_LT(*reference.final_dist_to_opt_sq, 1e-20) << "the float64 run is not at the optimum";
  const RunSummary& s = SummaryNamed(r, "dore32");
  EXPECT_EQ(s.status, "ok");
  EXPECT_LT(*s.final_dist_to_opt_sq, 1e-10);
  EXPECT_GT(*s.final_dist_to_opt_sq, 1e-20) << "float32 state left no trace";
  EXPECT_NEAR(s.final_loss, reference.final_loss, 1e-9 * reference.final_loss);
}

TEST(PrecisionScenarioTest, BadPrecisionNamesItsPointerAndTheChoices) {
  const json doc =
      json::parse(R"({"algorithms": ["sgd", {"name": "dore", "precision": "float16"}]})");
  try {
    ParseScenario(doc, "s.json", "");
    FAIL() << "expected a UserError";
  } catch (const UserError& e) {
    const std::string text = e.what();
    EXPECT_NE(
        text.find("s.json: /algorithms/1/precision: expected one of \"float64\", \"float32\""),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("float16"), std::string::npos) << text;
  }
}

TEST(PrecisionScenarioTest, EveryRuleWithWorkerStateResolvesItsPrecision) {
  const Scenario s =
      ParseScenario(json::parse(R"({"algorithms": ["memsgd", "diana", "doublesqueeze",
                                     {"name": "dore", "precision": "float32"}]})"),
                    "s.json", "");
  const json& algorithms = s.resolved["algorithms"];
  EXPECT_EQ(algorithms[0]["precision"], "float64");
  EXPECT_EQ(algorithms[1]["precision"], "float64");
  EXPECT_EQ(algorithms[2]["precision"], "float64");
  EXPECT_EQ(algorithms[3]["precision"], "float32");
}

}  // namespace
}  // namespace commsim
