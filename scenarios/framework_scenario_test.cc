// The scenario's `framework` key: shipped profiles by name and backend, key-by-key overrides, an
// entry's own framework, the resolved form, and the error messages.
#include <gtest/gtest.h>

#include <string>

#include "base/error.h"
#include "scenarios/runner.h"
#include "scenarios/scenario.h"

namespace commsim {
namespace {

using nlohmann::json;

Scenario ParseFramework(const std::string& text) {
  return ParseScenario(json::parse(text), "t.json", ".");
}

// The error of parsing and checking `text` (as `commsim validate` does); "" when none.
std::string FrameworkError(const std::string& text) {
  try {
    CheckScenario(ParseFramework(text));
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(FrameworkScenarioTest, AbsentIsIdealAndANameLoadsTheProfileOfItsFirstBackend) {
  const Scenario none = ParseFramework(R"({"algorithms": ["allreduce_sgd"]})");
  EXPECT_TRUE(none.algorithms[0].framework.ideal());
  EXPECT_EQ(none.resolved["framework"]["name"], "ideal");

  const Scenario h = ParseFramework(R"({"framework": "horovod", "algorithms": ["allreduce_sgd"]})");
  const FrameworkSetup& f = h.algorithms[0].framework;
  EXPECT_EQ(f.name, "horovod");
  EXPECT_EQ(f.backend, "mpi");
  EXPECT_EQ(f.unit, FrameworkUnit::kTensor);
  EXPECT_EQ(f.fusion_bytes, 64 << 20);
  EXPECT_EQ(f.cycle, SimTime::FromSeconds(5e-3));
  // The resolved form parses back to the same thing.
  EXPECT_EQ(ParseScenario(h.resolved, "r", ".").resolved, h.resolved);
}

TEST(FrameworkScenarioTest, KeysOverrideTheProfileAndAnEntryReplacesOrRefinesIt) {
  const Scenario s = ParseFramework(
      R"({"framework": {"name": "horovod", "backend": "nccl", "cycle": "1ms"},
          "algorithms": [{"name": "allreduce_sgd", "framework": {"call": "20us"}},
                         {"name": "allreduce_sgd", "label": "ddp", "framework": "pytorch_ddp"},
                         {"name": "allreduce_sgd", "label": "plain"}]})");
  const FrameworkSetup& a = s.algorithms[0].framework;
  EXPECT_EQ(a.backend, "nccl");
  EXPECT_EQ(a.cycle, SimTime::FromSeconds(1e-3));
  EXPECT_EQ(a.call, SimTime::FromSeconds(20e-6));
  const FrameworkSetup& b = s.algorithms[1].framework;
  EXPECT_EQ(b.name, "pytorch_ddp");
  EXPECT_EQ(b.unit, FrameworkUnit::kBucket);
  EXPECT_EQ(b.bucket_bytes, 25 << 20);
  EXPECT_EQ(b.cycle, SimTime());
  EXPECT_EQ(s.algorithms[2].framework.cycle, SimTime::FromSeconds(1e-3));
  EXPECT_EQ(ParseScenario(s.resolved, "r", ".").resolved, s.resolved);
}

TEST(FrameworkScenarioTest, ErrorsNameThePointerAndTheShippedProfiles) {
  const std::string name = FrameworkError(R"({"framework": "tensorflow", "algorithms": ["sgd"]})");
  EXPECT_NE(name.find("/framework/name"), std::string::npos) << name;
  EXPECT_NE(name.find("horovod (mpi), horovod (nccl)"), std::string::npos) << name;
  EXPECT_NE(name.find("\"tensorflow\""), std::string::npos) << name;
  const std::string backend = FrameworkError(
      R"({"framework": {"name": "horovod", "backend": "gloo"}, "algorithms": ["sgd"]})");
  EXPECT_NE(backend.find("/framework/backend"), std::string::npos) << backend;
  EXPECT_NE(backend.find("backend \"gloo\" of horovod"), std::string::npos) << backend;
  const std::string kind = FrameworkError(R"({"framework": 3, "algorithms": ["sgd"]})");
  EXPECT_NE(kind.find("/framework: expected a framework name or an object"), std::string::npos)
      << kind;
  const std::string bucket = FrameworkError(
      R"({"framework": {"name": "pytorch_ddp", "bucket_mib": 0}, "algorithms": ["allreduce_sgd"]})");
  EXPECT_NE(bucket.find("/framework/bucket_mib"), std::string::npos) << bucket;
  // Only the collective family follows a framework.
  const std::string ps = FrameworkError(R"({"framework": "horovod", "algorithms": ["dore"]})");
  EXPECT_NE(ps.find("/algorithms/0"), std::string::npos) << ps;
  EXPECT_NE(ps.find("collective"), std::string::npos) << ps;
  EXPECT_EQ(FrameworkError(R"({"framework": "ideal", "algorithms": ["dore"]})"), "");
}

}  // namespace
}  // namespace commsim
