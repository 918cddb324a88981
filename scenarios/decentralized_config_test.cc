// The decentralized algorithms' configs through the strict JSON reader: defaults, overrides and
// the bad-input errors (gamma_c outside (0, 1], mu < 0, unknown mixing kind, gossip on a problem
// whose nodes start together).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "algorithms/decentralized/choco.h"
#include "algorithms/registry.h"
#include "base/error.h"
#include "scenarios/json_config.h"
#include "scenarios/runner.h"

namespace commsim {
namespace {

class DecentralizedConfigTest : public ::testing::Test {
 protected:
  DecentralizedConfigTest() {
    kinds_.Add(ComponentKinds::FromRegistry("algorithm", AlgorithmRegistry()));
    kinds_.Add(ComponentKinds::FromRegistry("compressor", CompressorRegistry()));
  }
  // Reads `text` as an algorithm; returns the error text ("" when none).
  std::string Read(const std::string& text, ComponentSpec* spec) {
    spec->kind = "algorithm";
    ErrorList errors;
    ReadComponent(nlohmann::json::parse(text), "/algorithms/0", *spec, errors, kinds_);
    return errors.Format("s.json");
  }
  ComponentKinds kinds_;
};

TEST_F(DecentralizedConfigTest, MalcomDefaultsAndOverrides) {
  ComponentSpec spec;
  ASSERT_EQ(Read(R"({"name": "malcom", "mu": 0.001, "gamma_c": 0.5, "mixing": "ring",
                     "compressor": {"levels": 7}})",
                 &spec),
            "");
  const auto& c = static_cast<const ChocoConfig&>(*spec.config);
  EXPECT_EQ(AlgorithmRegistry().Make(spec)->info().name, "malcom");
  EXPECT_EQ(c.compressor.name, "dithered");
  EXPECT_EQ(c.common.mu, 0.001);
  EXPECT_EQ(c.gamma_c, 0.5);
  EXPECT_EQ(c.common.mixing, "ring");
  EXPECT_EQ(WriteComponent(c.compressor)["levels"], 7);
  EXPECT_EQ(AlgorithmRegistry().Make(spec)->family(), Family::kDecentralized);
}

TEST_F(DecentralizedConfigTest, ChocoTakesAnyCompressor) {
  ComponentSpec spec;
  ASSERT_EQ(Read(R"({"name": "choco", "compressor": {"name": "top_k", "fraction": 0.05}})", &spec),
            "");
  EXPECT_EQ(static_cast<const ChocoConfig&>(*spec.config).compressor.name, "top_k");
  const nlohmann::json resolved = WriteComponent(spec);
  EXPECT_EQ(resolved["gamma_c"], 0.3);
  EXPECT_EQ(resolved["mixing"], "auto");
}

TEST_F(DecentralizedConfigTest, BadValuesNameTheirPointer) {
  ComponentSpec spec;
  const std::string gamma = Read(R"({"name": "choco", "gamma_c": 1.5})", &spec);
  EXPECT_NE(gamma.find("s.json: /algorithms/0/gamma_c: must be in (0, 1]"), std::string::npos)
      << gamma;
  const std::string zero = Read(R"({"name": "choco", "gamma_c": 0})", &spec);
  EXPECT_NE(zero.find("/algorithms/0/gamma_c"), std::string::npos) << zero;
  const std::string mu = Read(R"({"name": "malcom", "mu": -0.1})", &spec);
  EXPECT_NE(mu.find("/algorithms/0/mu: must be"), std::string::npos) << mu;
  const std::string mixing = Read(R"({"name": "dpsgd", "mixing": "metropolis_hastings"})", &spec);
  EXPECT_NE(mixing.find("/algorithms/0/mixing: expected one of"), std::string::npos) << mixing;
}

// gossip and choco_gossip only average the nodes' own starting points: on a problem whose nodes
// all start at one point they are refused with the entry's pointer; on `consensus` they run.
TEST(GossipOnlyTest, NeedsAProblemWhoseWorkersStartApart) {
  const std::string file = std::string(COMMSIM_SOURCE_DIR) + "/scenarios/zoo_graphs.json";
  for (const char* name : {"gossip", "choco_gossip"}) {
    const Scenario s =
        LoadScenario(file, {fmt::format(R"(/algorithms=[{{"name":"{}"}}])", name),
                            fmt::format(R"(/baseline="{}")", name), "/iterations=2"});
    try {
      RunScenario(s, RunOptions());
      ADD_FAILURE() << name << ": no error";
    } catch (const UserError& e) {
      EXPECT_NE(std::string(e.what()).find(fmt::format(
                    "/algorithms/0: {} ({}): gossip without gradients only averages", name, name)),
                std::string::npos)
          << e.what();
    }
    const Scenario c =
        LoadScenario(std::string(COMMSIM_SOURCE_DIR) + "/scenarios/zoo_consensus.json",
                     {fmt::format(R"(/algorithms=[{{"name":"{}"}}])", name), "/iterations=2"});
    EXPECT_EQ(RunScenario(c, RunOptions()).summaries.at(0).status, "ok") << name;
  }
}

}  // namespace
}  // namespace commsim
