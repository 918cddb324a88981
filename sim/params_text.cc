#include "sim/params_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace commsim {
namespace {

std::string UnitSuffix(Unit unit) {
  switch (unit) {
    case Unit::kNone:
      return "";
    case Unit::kSeconds:
      return " s";
    case Unit::kBitsPerSecond:
      return " bit/s";
    case Unit::kBits:
      return " bit";
    case Unit::kFlopsPerSecond:
      return " FLOP/s";
  }
  return "";
}

class TextDescriber final : public ParamVisitor {
 public:
  struct Row {
    std::string key, value, constraint, help;
  };

  void Int(std::string_view key, int64_t& value, Range range, std::string_view help,
           Unit unit) override {
    Add(key, fmt::format("int = {}{}", value, UnitSuffix(unit)), range.ToString(), help);
  }
  void Real(std::string_view key, double& value, Range range, std::string_view help,
            Unit unit) override {
    Add(key, fmt::format("real = {}{}", value, UnitSuffix(unit)), range.ToString(), help);
  }
  void Bool(std::string_view key, bool& value, std::string_view help) override {
    Add(key, fmt::format("bool = {}", value), "", help);
  }
  void Text(std::string_view key, std::string& value, std::span<const std::string_view> choices,
            std::string_view help) override {
    Add(key, fmt::format("text = \"{}\"", value),
        choices.empty() ? "" : fmt::format("one of {}", fmt::join(choices, "|")), help);
  }
  void RealList(std::string_view key, std::vector<double>& values, Range range,
                std::string_view help, Unit unit) override {
    Add(key, fmt::format("list = [{}]{}", fmt::join(values, ", "), UnitSuffix(unit)),
        range.ToString(), help);
  }
  void Component(std::string_view key, ComponentSpec& spec, std::string_view help) override {
    Add(key, fmt::format("{} = {}", spec.kind, spec.name), "", help);
  }

  std::string Format(std::string_view indent) const {
    size_t wk = 0, wv = 0, wc = 0;
    for (const Row& r : rows_) {
      wk = std::max(wk, r.key.size());
      wv = std::max(wv, r.value.size());
      wc = std::max(wc, r.constraint.size());
    }
    std::string out;
    for (const Row& r : rows_) {
      out += fmt::format("{}{:<{}}  {:<{}}  {:<{}}  {}\n", indent, r.key, wk, r.value, wv,
                         r.constraint, wc, r.help);
    }
    return out;
  }

 private:
  void Add(std::string_view key, std::string value, std::string constraint, std::string_view help) {
    rows_.push_back({std::string(key), std::move(value), std::move(constraint), std::string(help)});
  }
  std::vector<Row> rows_;
};

}  // namespace

std::string DescribeParams(Config& config, std::string_view indent) {
  TextDescriber describer;
  config.Describe(describer);
  return describer.Format(indent);
}

}  // namespace commsim
