#include "sim/params_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace commsim {
namespace {

// Integers below 1e6 in full, anything else in the shortest %g form that reads back exactly:
// 12000, 0.5, 1e+09, 2.5e-05.
std::string FormatReal(double x) {
  if (std::abs(x) < 1e6 && x == std::floor(x)) return fmt::format("{}", static_cast<int64_t>(x));
  for (int digits = 1; digits < 17; ++digits) {
    std::string text = fmt::format("{:.{}g}", x, digits);
    if (std::strtod(text.c_str(), nullptr) == x) return text;
  }
  return fmt::format("{:.17g}", x);
}

std::string FormatList(const std::vector<double>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + FormatReal(values[i]);
  return out + "]";
}

class TextVisitor final : public ParamVisitor {
 public:
  struct Row {
    std::array<std::string, 5> cells;  // key, type, default, range, help
  };

  void Int(std::string_view key, int64_t& value, Range range, std::string_view help,
           Unit unit) override {
    Add(key, Typed("integer", unit), fmt::format("{}", value), range.ToString(), help);
  }
  void Real(std::string_view key, double& value, Range range, std::string_view help,
            Unit unit) override {
    Add(key, Typed("real", unit), FormatReal(value), range.ToString(), help);
  }
  void Bool(std::string_view key, bool& value, std::string_view help) override {
    Add(key, "bool", value ? "true" : "false", "", help);
  }
  void Text(std::string_view key, std::string& value, std::span<const std::string_view> choices,
            std::string_view help) override {
    std::vector<std::string> quoted;
    for (std::string_view c : choices) quoted.push_back(fmt::format("\"{}\"", c));
    Add(key, "text", fmt::format("\"{}\"", value),
        choices.empty() ? "" : fmt::format("one of {}", fmt::join(quoted, ", ")), help);
  }
  void RealList(std::string_view key, std::vector<double>& values, Range range,
                std::string_view help, Unit unit) override {
    Add(key, Typed("list of real", unit), FormatList(values), range.ToString(), help);
  }
  void Component(std::string_view key, ComponentSpec& spec, std::string_view help) override {
    Add(key, spec.kind, spec.name.empty() ? "none" : spec.name, "", help);
  }

  const std::vector<Row>& rows() const { return rows_; }

 private:
  static std::string Typed(std::string_view type, Unit unit) {
    return unit == Unit::kNone ? std::string(type) : fmt::format("{} {}", type, UnitSymbol(unit));
  }
  void Add(std::string_view key, std::string type, std::string value, std::string range,
           std::string_view help) {
    rows_.push_back(Row{{std::string(key), std::move(type), "default " + std::move(value),
                         std::move(range), std::string(help)}});
  }
  std::vector<Row> rows_;
};

}  // namespace

std::string_view UnitSymbol(Unit unit) {
  switch (unit) {
    case Unit::kNone:
      return "";
    case Unit::kSeconds:
      return "s";
    case Unit::kBitsPerSecond:
      return "bit/s";
    case Unit::kBits:
      return "bit";
    case Unit::kFlopsPerSecond:
      return "FLOP/s";
  }
  return "";
}

std::string DescribeParams(Config& config, std::string_view indent) {
  TextVisitor visitor;
  config.Describe(visitor);
  if (visitor.rows().empty()) return fmt::format("{}(no parameters)\n", indent);
  std::array<size_t, 5> width{};
  for (const TextVisitor::Row& row : visitor.rows()) {
    for (size_t c = 0; c < width.size(); ++c) width[c] = std::max(width[c], row.cells[c].size());
  }
  std::string out;
  for (const TextVisitor::Row& row : visitor.rows()) {
    std::string line(indent);
    for (size_t c = 0; c + 1 < width.size(); ++c) {
      line += fmt::format("{:<{}}  ", row.cells[c], width[c]);
    }
    line += row.cells.back();
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace commsim
