// libFuzzer driver: `--set /json/pointer=value` assignments on the quickstart scenario, then the
// scenario parser and validator (ParseScenario), as `commsim run --set ...` does before running.
//
// The input is up to kMaxAssignments lines, each one assignment applied in order with ApplySet
// (values that parse as JSON are JSON, others strings, e.g. "200Mbps"). A bad pointer or value is a
// UserError; anything else is a finding.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "base/fuzz_support.h"
#include "scenarios/json_config.h"
#include "scenarios/runner.h"
#include "scenarios/scenario.h"

namespace {

constexpr int kMaxAssignments = 8;

const nlohmann::json& Base() {
  static const nlohmann::json doc =
      commsim::LoadJsonFile(std::string(COMMSIM_SOURCE_DIR) + "/scenarios/quickstart.json");
  return doc;
}

void FuzzOneSet(std::string_view text) {
  nlohmann::json doc = Base();
  size_t begin = 0;
  for (int i = 0; i < kMaxAssignments && begin <= text.size(); ++i) {
    size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    commsim::ApplySet(doc, std::string(text.substr(begin, end - begin)));
    begin = end + 1;
  }
  commsim::ParseScenario(doc, "quickstart.json", std::string(COMMSIM_SOURCE_DIR) + "/scenarios");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return commsim::fuzz::FuzzText(data, size, 2048, FuzzOneSet);
}
