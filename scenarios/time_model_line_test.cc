// The time model's line names every part a scenario turns on, defaults included.
#include "scenarios/time_model_line.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace commsim {
namespace {

Scenario Parse(const char* text) { return ParseScenario(nlohmann::json::parse(text), "t", "."); }

TEST(TimeModelLineTest, AScenarioWithoutTimeKeysStatesEveryDefault) {
  const Scenario s = Parse(R"({"algorithms": [{"name": "sgd"}]})");
  EXPECT_EQ(TimeModelLine(s),
            "network flow, protocol none; compute fixed 0 s per step; codec none (encode and "
            "decode take no time); overlap none; framework ideal (no per-call or per-message "
            "costs)");
}

TEST(TimeModelLineTest, EveryPartTheScenarioSetsIsNamed) {
  const Scenario s = Parse(R"({
    "network": {"model": "packet", "protocol": "tcp", "framing": "ethernet_wire"},
    "compute": {"mode": "flops", "device": "v100", "efficiency": 0.5, "overlap": "layerwise"},
    "codec": {"mode": "model", "device": "v100"},
    "algorithms": [{"name": "sgd"}]})");
  EXPECT_EQ(TimeModelLine(s),
            "network packet, protocol tcp (ethernet_wire framing); compute FLOPs at v100 peak x "
            "efficiency 0.5; codec model v100; overlap layerwise; framework ideal (no per-call or "
            "per-message costs)");
}

TEST(TimeModelLineTest, ACustomDeviceShowsItsRate) {
  const Scenario s = Parse(R"({
    "compute": {"mode": "flops", "device": "custom", "flops_per_s": 2e12},
    "algorithms": [{"name": "sgd"}]})");
  EXPECT_NE(TimeModelLine(s).find("compute FLOPs at 2e+12 FLOP/s peak x efficiency 1;"),
            std::string::npos)
      << TimeModelLine(s);
}

}  // namespace
}  // namespace commsim
