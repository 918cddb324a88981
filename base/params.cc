#include "base/params.h"

#include <fmt/format.h>

#include <cmath>

namespace commsim {

bool Range::Contains(double x) const {
  if (std::isnan(x)) return false;
  if (lo_open ? !(x > lo) : !(x >= lo)) return false;
  if (hi_open ? !(x < hi) : !(x <= hi)) return false;
  return true;
}

std::string Range::ToString() const {
  const bool has_lo = std::isfinite(lo);
  const bool has_hi = std::isfinite(hi);
  if (!has_lo && !has_hi) return "any number";
  if (!has_hi) return fmt::format("{} {}", lo_open ? ">" : ">=", lo);
  if (!has_lo) return fmt::format("{} {}", hi_open ? "<" : "<=", hi);
  return fmt::format("in {}{}, {}{}", lo_open ? "(" : "[", lo, hi, hi_open ? ")" : "]");
}

ComponentSpec::ComponentSpec(std::string kind, std::string name, std::unique_ptr<Config> config)
    : kind(std::move(kind)), name(std::move(name)), config(std::move(config)) {}

ComponentSpec::ComponentSpec(const ComponentSpec& other)
    : kind(other.kind), name(other.name), config(other.config ? other.config->Clone() : nullptr) {}

ComponentSpec& ComponentSpec::operator=(const ComponentSpec& other) {
  if (this != &other) {
    kind = other.kind;
    name = other.name;
    config = other.config ? other.config->Clone() : nullptr;
  }
  return *this;
}

ComponentSpec::~ComponentSpec() = default;

void ParamProblems::Add(std::string_view key, std::string message) {
  problems_.push_back({std::string(key), std::move(message)});
}

}  // namespace commsim
