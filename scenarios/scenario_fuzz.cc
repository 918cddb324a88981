// libFuzzer driver: a scenario file through `commsim validate`'s path (LoadScenario: JSON parse,
// strict config reading, validation; then CheckScenario, which builds the data, model, topologies
// and algorithms without running them).
//
// The input is the scenario file's text. CheckScenario runs only on scenarios small enough to
// build quickly (SmallEnoughToBuild): huge but legal sizes are the parser's limits to enforce, and
// would only make the fuzzer time out. Data file paths must be plain file names (relative to the
// working directory); built-in data sets point at an empty cache folder (a UserError).
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "base/fuzz_support.h"
#include "scenarios/runner.h"

namespace commsim {
namespace {

constexpr double kMaxBuildSize = 2000;  // any size-like number in model/data/partition/topology
constexpr int64_t kMaxBuildWorkers = 32;

bool SizesOnly(std::string_view key) {
  return key.find("seed") == std::string_view::npos &&
         key.find("bandwidth") == std::string_view::npos &&
         key.find("latenc") == std::string_view::npos;
}

// True when every number below `j` (sizes of what CheckScenario builds) is small and every data
// path is a plain file name (no folders: not /dev/zero, not the raw data sets); no layer profile.
bool Small(const nlohmann::json& j, std::string_view key) {
  if (j.is_number()) return !SizesOnly(key) || std::abs(j.get<double>()) <= kMaxBuildSize;
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (key == "profile") return s.empty();  // a layer profile sets d: 50,890 parameters and up
    return key != "path" || (s.find('/') == std::string::npos && s.find("..") == std::string::npos);
  }
  if (j.is_array()) {
    for (const auto& item : j) {
      if (!Small(item, key)) return false;
    }
  }
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      if (!Small(v, k)) return false;
    }
  }
  return true;
}

bool SmallEnoughToBuild(const Scenario& s) {
  const nlohmann::json& r = s.resolved;
  if (s.workers > kMaxBuildWorkers) return false;
  for (const char* key : {"model", "data", "partition"}) {
    if (r.contains(key) && !Small(r[key], key)) return false;
  }
  if (r.contains("network") && r["network"].is_object() && r["network"].contains("topology") &&
      !Small(r["network"]["topology"], "topology")) {
    return false;
  }
  if (r.contains("algorithms")) {
    for (const auto& entry : r["algorithms"]) {
      if (entry.is_object() && entry.contains("topology") && !Small(entry["topology"], "topology"))
        return false;
    }
  }
  return true;
}

}  // namespace
}  // namespace commsim

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  namespace fs = std::filesystem;
  const fs::path& dir = commsim::fuzz::ScratchDir();
  std::error_code ec;
  fs::create_directories(dir / "data", ec);
  setenv("COMMSIM_DATA_DIR", (dir / "data").c_str(), 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return commsim::fuzz::FuzzText(data, size, 16384, [](std::string_view text) {
    using namespace commsim;
    const Scenario scenario =
        LoadScenario(fuzz::WriteScratchFile("fuzz_scenario.json", text.data(), text.size()));
    if (SmallEnoughToBuild(scenario)) CheckScenario(scenario);
  });
}
