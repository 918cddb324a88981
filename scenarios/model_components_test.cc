// The model-side kinds ("model", "dataset", "partition") and the compute-time config through the
// strict JSON reader: every registered default round-trips, and a JSON spec builds a problem.
#include <gtest/gtest.h>

#include "base/error.h"
#include "models/compute_time.h"
#include "models/problem.h"
#include "models/registry.h"
#include "scenarios/json_config.h"

namespace commsim {
namespace {

using nlohmann::json;

template <class R>
void ExpectDefaultsRoundTrip(std::string_view kind, const R& registry) {
  for (const std::string& name : registry.names()) {
    const ComponentSpec spec = registry.DefaultSpec(kind, name);
    json written = WriteComponent(spec);
    // File sources have no default path, and say so (checked below); give them one.
    if (written.contains("path")) {
      ComponentSpec no_path;
      no_path.kind = std::string(kind);
      ErrorList errors;
      ReadComponent(written, "/x", no_path, errors);
      EXPECT_EQ(errors.Format("t.json"), "t.json: /x/path: a data file path is required");
      written["path"] = "my.data";
    }
    ComponentSpec back;
    back.kind = std::string(kind);
    ErrorList errors;
    ReadComponent(written, "/x", back, errors);
    EXPECT_TRUE(errors.empty()) << kind << " " << name << ": " << errors.Format("t.json");
    EXPECT_EQ(back.name, name);
    EXPECT_EQ(WriteComponent(back), written) << kind << " " << name;
  }
}

TEST(ModelComponentsTest, EveryDefaultRoundTripsThroughJson) {
  ExpectDefaultsRoundTrip(kModelKind, ModelRegistry());
  ExpectDefaultsRoundTrip(kDatasetKind, DatasetRegistry());
  ExpectDefaultsRoundTrip(kPartitionKind, PartitionRegistry());
}

TEST(ModelComponentsTest, JsonSpecBuildsTheProblem) {
  ProblemSpec spec;
  spec.model.kind = std::string(kModelKind);
  spec.data.kind = std::string(kDatasetKind);
  spec.partition.kind = std::string(kPartitionKind);
  ErrorList errors;
  ReadComponent(json{{"name", "mlp"}, {"hidden", {32, 16}}}, "/model", spec.model, errors);
  ReadComponent(json{{"name", "digits"}, {"standardize", true}, {"test_fraction", 0.25}}, "/data",
                spec.data, errors);
  ReadComponent(json{{"name", "by_label"}, {"classes_per_worker", 3}}, "/partition", spec.partition,
                errors);
  ASSERT_TRUE(errors.empty()) << errors.Format("t.json");
  std::shared_ptr<const Objective> f;
  try {
    f = BuildProblem(spec, 4, 1);
  } catch (const UserError& e) {
    FAIL() << e.what();
  }
  EXPECT_EQ(f->dim(), 64 * 32 + 32 + 32 * 16 + 16 + 16 * 10 + 10);
  EXPECT_EQ(f->num_workers(), 4);
}

TEST(ModelComponentsTest, BadValuesAreReportedWithPointers) {
  ComponentSpec model;
  model.kind = std::string(kModelKind);
  ErrorList errors;
  ReadComponent(json{{"name", "logistic_regression"}, {"l2", -1}}, "/model", model, errors);
  ComponentSpec partition;
  partition.kind = std::string(kPartitionKind);
  ReadComponent(json{{"name", "dirichlet"}, {"alpha", 0}}, "/partition", partition, errors);
  ComponentSpec data;
  data.kind = std::string(kDatasetKind);
  ReadComponent(json{{"name", "mnst"}}, "/data", data, errors);
  EXPECT_EQ(errors.size(), 3u);
  const std::string text = errors.Format("s.json");
  EXPECT_NE(text.find("/model/l2"), std::string::npos) << text;
  EXPECT_NE(text.find("/partition/alpha"), std::string::npos) << text;
  EXPECT_NE(text.find("mnist"), std::string::npos) << text;  // did-you-mean
}

TEST(ModelComponentsTest, ComputeConfigReadsUnits) {
  ComputeTimeConfig c;
  ErrorList errors;
  ReadConfig(json{{"mode", "flops"},
                  {"device", "custom"},
                  {"flops_per_s", 2e12},
                  {"slowdown", {1, 2}},
                  {"seconds", "5ms"}},
             "/compute", c, errors);
  ASSERT_TRUE(errors.empty()) << errors.Format("t.json");
  EXPECT_DOUBLE_EQ(c.seconds, 0.005);
  const ComputeTimeModel model(c, 1e6, 2, 1);
  EXPECT_DOUBLE_EQ(model.MeanSeconds(1, 100), 2.0 * 1e8 / 2e12);
}

}  // namespace
}  // namespace commsim
