// Typed configuration with a self-description (the hyper-parameter half of every plug-in).
//
// Every pluggable component (compressor, algorithm, model, topology, ...) has a config struct that
// derives from ConfigBase<T> and lists its fields in Describe(). The same description serves:
//   - scenarios/: reading a JSON object into the struct (strict: unknown keys, wrong types, values
//     out of range are errors naming the JSON pointer), and writing the resolved config back out;
//   - `commsim list`: printing each component's parameters with defaults, ranges and help.
// So no code outside scenarios/ reads JSON, and no component repeats its key names elsewhere.
// Cross-field rules (e.g. `k` must not exceed the dimension) go in Validate().
#ifndef COMMSIM_BASE_PARAMS_H_
#define COMMSIM_BASE_PARAMS_H_

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace commsim {

// An interval with open or closed ends; Describe() uses it for range checks and for help text.
struct Range {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  bool hi_open = false;

  static Range Any() { return {}; }
  static Range Positive() { return {0.0, Inf(), true, false}; }
  static Range NonNegative() { return {0.0, Inf(), false, false}; }
  static Range AtLeast(double lo) { return {lo, Inf(), false, false}; }
  static Range Closed(double lo, double hi) { return {lo, hi, false, false}; }
  static Range OpenClosed(double lo, double hi) { return {lo, hi, true, false}; }
  static Range ClosedOpen(double lo, double hi) { return {lo, hi, false, true}; }
  static Range Open(double lo, double hi) { return {lo, hi, true, true}; }

  bool Contains(double x) const;
  // "(0, 1]", "> 0", ">= 1", "any number".
  std::string ToString() const;

 private:
  static double Inf() { return std::numeric_limits<double>::infinity(); }
};

// Units let the reader accept strings such as "1Gbps", "50us", "2ms", "1.5MB" besides numbers.
enum class Unit { kNone, kSeconds, kBitsPerSecond, kBits, kFlopsPerSecond };

class Config;

// A nested component chosen by name, e.g. the uplink compressor of an algorithm:
// JSON {"name": "top_k", "fraction": 0.01}. `kind` names the registry ("compressor", ...).
// Copying deep-copies the config.
struct ComponentSpec {
  std::string kind;
  std::string name;
  std::unique_ptr<Config> config;

  ComponentSpec() = default;
  ComponentSpec(std::string kind, std::string name, std::unique_ptr<Config> config);
  ComponentSpec(const ComponentSpec& other);
  ComponentSpec& operator=(const ComponentSpec& other);
  ComponentSpec(ComponentSpec&&) noexcept = default;
  ComponentSpec& operator=(ComponentSpec&&) noexcept = default;
  ~ComponentSpec();
};

// Visits each field of a config. `key` is the JSON key; help is one short sentence.
class ParamVisitor {
 public:
  virtual ~ParamVisitor() = default;
  virtual void Int(std::string_view key, int64_t& value, Range range, std::string_view help,
                   Unit unit = Unit::kNone) = 0;
  virtual void Real(std::string_view key, double& value, Range range, std::string_view help,
                    Unit unit = Unit::kNone) = 0;
  virtual void Bool(std::string_view key, bool& value, std::string_view help) = 0;
  // Free text when `choices` is empty, else one of `choices` (a JSON number is accepted when its
  // shortest text is a choice, so `"p": 2` and `"p": "2"` are the same).
  virtual void Text(std::string_view key, std::string& value,
                    std::span<const std::string_view> choices, std::string_view help) = 0;
  virtual void RealList(std::string_view key, std::vector<double>& values, Range range,
                        std::string_view help, Unit unit = Unit::kNone) = 0;
  virtual void Component(std::string_view key, ComponentSpec& spec, std::string_view help) = 0;
};

// Collects cross-field problems found by Config::Validate.
class ParamProblems {
 public:
  void Add(std::string_view key, std::string message);
  struct Problem {
    std::string key;
    std::string message;
  };
  const std::vector<Problem>& problems() const { return problems_; }
  bool empty() const { return problems_.empty(); }

 private:
  std::vector<Problem> problems_;
};

class Config {
 public:
  virtual ~Config() = default;
  virtual void Describe(ParamVisitor& v) = 0;
  virtual void Validate(ParamProblems& /*problems*/) const {}
  virtual std::unique_ptr<Config> Clone() const = 0;
};

// CRTP helper: `struct TopKConfig final : ConfigBase<TopKConfig> { ... };`
template <class Derived>
class ConfigBase : public Config {
 public:
  std::unique_ptr<Config> Clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
};

// A config with no parameters.
struct EmptyConfig final : ConfigBase<EmptyConfig> {
  void Describe(ParamVisitor&) override {}
};

}  // namespace commsim

#endif  // COMMSIM_BASE_PARAMS_H_
