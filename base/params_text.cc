#include "base/params_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <vector>

namespace commsim {
namespace {

class RowCollector final : public ParamVisitor {
 public:
  void Int(std::string_view key, int64_t& value, Range range, std::string_view help,
           Unit unit) override {
    Add(key, Typed("integer", unit), fmt::format("{}", value), range, help);
  }
  void Real(std::string_view key, double& value, Range range, std::string_view help,
            Unit unit) override {
    Add(key, Typed("real", unit), FormatReal(value), range, help);
  }
  void Bool(std::string_view key, bool& value, std::string_view help) override {
    Add(key, "bool", value ? "true" : "false", std::nullopt, help);
  }
  void Text(std::string_view key, std::string& value, std::span<const std::string_view> choices,
            std::string_view help) override {
    Add(key, "text", value, std::nullopt, help);
    rows_.back().choices.assign(choices.begin(), choices.end());
  }
  void RealList(std::string_view key, std::vector<double>& values, Range range,
                std::string_view help, Unit unit) override {
    std::vector<std::string> cells;
    for (double v : values) cells.push_back(FormatReal(v));
    Add(key, Typed("list of real", unit), fmt::format("[{}]", fmt::join(cells, ", ")), range, help);
  }
  void Component(std::string_view key, ComponentSpec& spec, std::string_view help) override {
    Add(key, spec.kind, spec.name, std::nullopt, help);
    rows_.back().component = &spec;
  }

  std::vector<ParamRow> Take() { return std::move(rows_); }

 private:
  static std::string Typed(std::string_view type, Unit unit) {
    return unit == Unit::kNone ? std::string(type) : fmt::format("{} {}", type, UnitSymbol(unit));
  }
  void Add(std::string_view key, std::string type, std::string value,
           const std::optional<Range>& range, std::string_view help) {
    ParamRow& row = rows_.emplace_back();
    row.key = key;
    row.type = std::move(type);
    row.value = std::move(value);
    row.range = range ? range->ToString() : "";
    row.help = help;
  }
  std::vector<ParamRow> rows_;
};

// The cells of DescribeParams' line for `row`: key, type, default, range, help.
std::array<std::string, 5> TextCells(const ParamRow& row) {
  std::string value = row.value, range = row.range;
  if (row.type == "text") {
    std::vector<std::string> quoted;
    for (const std::string& c : row.choices) quoted.push_back(fmt::format("\"{}\"", c));
    value = fmt::format("\"{}\"", row.value);
    if (!quoted.empty()) range = fmt::format("one of {}", fmt::join(quoted, ", "));
  } else if (row.component != nullptr && value.empty()) {
    value = "none";
  }
  return {row.key, row.type, "default " + value, range, row.help};
}

}  // namespace

std::string FormatReal(double x) {
  if (std::abs(x) < 1e6 && x == std::floor(x)) return fmt::format("{}", static_cast<int64_t>(x));
  for (int digits = 1; digits < 17; ++digits) {
    std::string text = fmt::format("{:.{}g}", x, digits);
    if (std::strtod(text.c_str(), nullptr) == x) return text;
  }
  return fmt::format("{:.17g}", x);
}

std::vector<ParamRow> ParamRows(Config& config) {
  RowCollector collector;
  config.Describe(collector);
  return collector.Take();
}

namespace {

// One row per Unit, in the enum's order.
struct UnitText {
  Unit unit;
  std::string_view symbol;
  std::string_view examples;
};
constexpr std::array<UnitText, 5> kUnitTexts = {{
    {Unit::kNone, "", "a number"},
    {Unit::kSeconds, "s", "seconds, e.g. 0.002, \"2ms\", \"50us\""},
    {Unit::kBitsPerSecond, "bit/s", "bit/s, e.g. 1e9, \"1Gbps\", \"200Mbps\""},
    {Unit::kBits, "bit", "bits, e.g. 12000, \"1500B\", \"1MiB\""},
    {Unit::kFlopsPerSecond, "FLOP/s", "FLOP/s, e.g. 1.5e13, \"15.7TFLOPS\""},
}};
static_assert(
    [] {
      for (size_t i = 0; i < kUnitTexts.size(); ++i) {
        if (static_cast<size_t>(kUnitTexts[i].unit) != i) return false;
      }
      return static_cast<size_t>(Unit::kFlopsPerSecond) + 1 == kUnitTexts.size();
    }(),
    "kUnitTexts: one row per Unit, in the enum's order");

const UnitText& TextOf(Unit unit) { return kUnitTexts[static_cast<size_t>(unit)]; }

}  // namespace

std::string_view UnitSymbol(Unit unit) { return TextOf(unit).symbol; }

std::string_view UnitExamples(Unit unit) { return TextOf(unit).examples; }

std::string DescribeParams(Config& config, std::string_view indent) {
  std::vector<std::array<std::string, 5>> lines;
  for (const ParamRow& row : ParamRows(config)) lines.push_back(TextCells(row));
  if (lines.empty()) return fmt::format("{}(no parameters)\n", indent);
  std::array<size_t, 5> width{};
  for (const auto& cells : lines) {
    for (size_t c = 0; c < width.size(); ++c) width[c] = std::max(width[c], cells[c].size());
  }
  std::string out;
  for (const auto& cells : lines) {
    std::string line(indent);
    for (size_t c = 0; c + 1 < width.size(); ++c) {
      line += fmt::format("{:<{}}  ", cells[c], width[c]);
    }
    line += cells.back();
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace commsim
