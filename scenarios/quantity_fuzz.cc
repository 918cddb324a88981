// libFuzzer driver: quantities with units ("1Gbps", "50us", "1.5MB", "15.7TFLOPS", numbers), as
// the scenario reader parses them for every Unit-tagged field and sweep ranges.
//
// The input's first byte picks the unit; the rest is the text, tried both as a JSON string and,
// when it parses, as a JSON value. ParseQuantity must either fail with a message or return a finite
// number: an accepted quantity of inf or nan would flow into the simulation as a number.
#include <cmath>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "base/fuzz_support.h"
#include "scenarios/json_config.h"

namespace {

void Check(const nlohmann::json& value, commsim::Unit unit) {
  std::string error;
  const std::optional<double> v = commsim::ParseQuantity(value, unit, &error);
  if (v.has_value()) {
    commsim::fuzz::FuzzCheck(std::isfinite(*v), "ParseQuantity accepted a non-finite quantity");
  } else {
    commsim::fuzz::FuzzCheck(!error.empty(), "ParseQuantity failed without a message");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The first byte picks the unit, the rest is the quantity's text.
  return commsim::fuzz::FuzzText(data, size, 256, [](std::string_view input) {
    using commsim::Unit;
    if (input.empty()) return;
    constexpr Unit kUnits[] = {Unit::kNone, Unit::kSeconds, Unit::kBitsPerSecond, Unit::kBits,
                               Unit::kFlopsPerSecond};
    const Unit unit = kUnits[static_cast<uint8_t>(input[0]) % std::size(kUnits)];
    const std::string text(input.substr(1));
    Check(nlohmann::json(text), unit);
    const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!parsed.is_discarded()) Check(parsed, unit);
  });
}
