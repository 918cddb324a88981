// libFuzzer driver: the sweep point files (points/<K>.csv) as a resumed or gathered sweep reads
// them back (AssembleSweepCsv: CSV parse, point and axis-cell checks, column union, sweep.csv).
//
// The sweep is fixed: two points on one bandwidth axis. The input is points/0.csv up to the first
// form feed ('\f') and points/1.csv after it; without a form feed, points/1.csv is a valid file.
// A bad or foreign point file is a UserError; anything else is a finding.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "base/fuzz_support.h"
#include "scenarios/sweep.h"
#include "scenarios/sweep_runner.h"

namespace {

constexpr std::string_view kValidPoint1 =
    "point,bandwidth,name,algorithm,mean_iter_time_s,total_bits\n"
    "1,1e+10,sgd,sgd,0.1,400\n";

const commsim::Sweep& FixedSweep() {
  static const commsim::Sweep sweep = commsim::ParseSweep(
      nlohmann::json::parse(R"({"base": {"workers": 4}, "axes": [{"name": "bandwidth",
          "pointer": "/network/topology/server_bandwidth", "logspace": ["10Mbps", "10Gbps", 2]}]})"),
      "fuzz_sweep.json", "");
  return sweep;
}

void FuzzOnePointPair(std::string_view text) {
  using namespace commsim;
  const auto [first, second] = fuzz::SplitAtFormFeed(text, kValidPoint1);
  fuzz::WriteScratchFile("points/0.csv", first.data(), first.size());
  fuzz::WriteScratchFile("points/1.csv", second.data(), second.size());
  AssembleSweepCsv(FixedSweep(), fuzz::ScratchDir().string());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return commsim::fuzz::FuzzText(data, size, 8192, FuzzOnePointPair);
}
