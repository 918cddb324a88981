// Number-or-unit-string parsing for Unit-tagged config fields.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

#include "base/params_text.h"
#include "scenarios/json_config.h"

namespace commsim {
namespace {

struct Suffix {
  const char* text;
  double factor;
};

// Case-sensitive where case carries meaning (m vs M, b vs B); rates also accept lower case.
constexpr Suffix kSecondSuffixes[] = {
    {"", 1},      {"s", 1},      {"ms", 1e-3}, {"us", 1e-6}, {"\xC2\xB5s", 1e-6},
    {"ns", 1e-9}, {"ps", 1e-12}, {"min", 60},  {"h", 3600}};
constexpr Suffix kRateSuffixes[] = {
    {"", 1},          {"bps", 1},      {"kbps", 1e3},   {"Kbps", 1e3},   {"Mbps", 1e6},
    {"mbps", 1e6},    {"Gbps", 1e9},   {"gbps", 1e9},   {"Tbps", 1e12},  {"tbps", 1e12},
    {"bit/s", 1},     {"kbit/s", 1e3}, {"Kbit/s", 1e3}, {"Mbit/s", 1e6}, {"Gbit/s", 1e9},
    {"Tbit/s", 1e12}, {"b/s", 1},      {"kb/s", 1e3},   {"Kb/s", 1e3},   {"Mb/s", 1e6},
    {"Gb/s", 1e9},    {"Tb/s", 1e12},  {"B/s", 8},      {"kB/s", 8e3},   {"KB/s", 8e3},
    {"MB/s", 8e6},    {"GB/s", 8e9},   {"TB/s", 8e12}};
constexpr Suffix kBitSuffixes[] = {{"", 1},
                                   {"bit", 1},
                                   {"bits", 1},
                                   {"kbit", 1e3},
                                   {"Mbit", 1e6},
                                   {"Gbit", 1e9},
                                   {"B", 8},
                                   {"kB", 8e3},
                                   {"KB", 8e3},
                                   {"MB", 8e6},
                                   {"GB", 8e9},
                                   {"KiB", 8.0 * 1024},
                                   {"MiB", 8.0 * 1024 * 1024},
                                   {"GiB", 8.0 * 1024 * 1024 * 1024}};
constexpr Suffix kFlopSuffixes[] = {{"", 1},          {"FLOPS", 1},      {"flop/s", 1},
                                    {"GFLOPS", 1e9},  {"TFLOPS", 1e12},  {"PFLOPS", 1e15},
                                    {"Gflop/s", 1e9}, {"Tflop/s", 1e12}, {"Pflop/s", 1e15}};

template <size_t N>
const Suffix* FindSuffix(const Suffix (&table)[N], const std::string& s) {
  for (const Suffix& suffix : table) {
    if (s == suffix.text) return &suffix;
  }
  return nullptr;
}

}  // namespace

std::optional<double> ParseQuantity(const nlohmann::json& value, Unit unit, std::string* error) {
  if (value.is_number()) {
    const double x = value.get<double>();
    return x == 0.0 ? 0.0 : x;  // -0 reads as 0
  }
  if (!value.is_string() || unit == Unit::kNone) {
    *error = "expected " + std::string(UnitExamples(unit));
    return std::nullopt;
  }
  const std::string text = value.get<std::string>();
  const char* begin = text.c_str();
  char* end = nullptr;
  const double number = std::strtod(begin, &end);
  std::string suffix(end == begin ? text : std::string(end));
  while (!suffix.empty() && std::isspace(static_cast<unsigned char>(suffix.front()))) {
    suffix.erase(suffix.begin());
  }
  const Suffix* found = nullptr;
  if (end != begin) {
    switch (unit) {
      case Unit::kSeconds:
        found = FindSuffix(kSecondSuffixes, suffix);
        break;
      case Unit::kBitsPerSecond:
        found = FindSuffix(kRateSuffixes, suffix);
        break;
      case Unit::kBits:
        found = FindSuffix(kBitSuffixes, suffix);
        break;
      case Unit::kFlopsPerSecond:
        found = FindSuffix(kFlopSuffixes, suffix);
        break;
      case Unit::kNone:
        break;
    }
  }
  // Plain decimal numbers only: strtod would also take "nan", "inf" and hex such as "0x1p4".
  const bool decimal =
      end != begin && std::all_of(begin, static_cast<const char*>(end), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
               c == '+' || c == '-';
      });
  if (found == nullptr || !decimal || !std::isfinite(number)) {
    *error = "expected " + std::string(UnitExamples(unit));
    return std::nullopt;
  }
  const double si = number * found->factor;
  if (!std::isfinite(si)) {
    *error = "out of range: the value does not fit a double (|x| < 1.8e308)";
    return std::nullopt;
  }
  return si == 0.0 ? 0.0 : si;  // "-0" reads as 0
}

}  // namespace commsim
