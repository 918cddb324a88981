#include "scenarios/json_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "base/error.h"

namespace commsim {
namespace {

using nlohmann::json;

std::string Found(const json& value) {
  const std::string text = ShownJson(value);
  const char* type = value.is_string()    ? "string "
                     : value.is_boolean() ? ""
                     : value.is_number()  ? ""
                     : value.is_null()    ? ""
                     : value.is_array()   ? "array "
                                          : "object ";
  return fmt::format("got {}{}", type, text);
}

// Reads the fields a Config describes from one JSON object.
class JsonReader final : public ParamVisitor {
 public:
  JsonReader(const json& obj, const std::string& pointer, ErrorList& errors,
             const ComponentKinds& kinds)
      : obj_(obj), pointer_(pointer), errors_(errors), kinds_(kinds) {}

  void Int(std::string_view key, int64_t& value, Range range, std::string_view,
           Unit unit) override {
    double x = 0;
    const json* v = TakeQuantity(key, unit, &x);
    if (v == nullptr) return;
    if (std::floor(x) != x || std::fabs(x) > 9.0e15) {
      Error(key, fmt::format("expected an integer, {}", Found(*v)));
      return;
    }
    if (InRange(key, *v, range, x)) value = static_cast<int64_t>(x);
  }

  void Real(std::string_view key, double& value, Range range, std::string_view,
            Unit unit) override {
    double x = 0;
    const json* v = TakeQuantity(key, unit, &x);
    if (v != nullptr && InRange(key, *v, range, x)) value = x;
  }

  void Bool(std::string_view key, bool& value, std::string_view) override {
    const json* v = Take(key);
    if (v == nullptr) return;
    if (!v->is_boolean()) {
      Error(key, fmt::format("expected true or false, {}", Found(*v)));
      return;
    }
    value = v->get<bool>();
  }

  void Text(std::string_view key, std::string& value, std::span<const std::string_view> choices,
            std::string_view) override {
    const json* v = Take(key);
    if (v == nullptr) return;
    std::string text;
    if (v->is_string()) {
      text = v->get<std::string>();
    } else if (v->is_number() && !choices.empty()) {
      const double x = v->get<double>();
      text = std::floor(x) == x ? fmt::format("{}", static_cast<int64_t>(x)) : fmt::format("{}", x);
    } else {
      Error(key, fmt::format("expected a string, {}", Found(*v)));
      return;
    }
    if (text.find('\0') != std::string::npos) {
      Error(key, "must not contain a NUL character (\\u0000)");
      return;
    }
    if (!choices.empty() && std::find(choices.begin(), choices.end(), text) == choices.end()) {
      std::vector<std::string> options(choices.begin(), choices.end());
      std::string hint = DidYouMean(text, options);
      std::vector<std::string> quoted;
      for (const std::string& o : options) quoted.push_back(json(o).dump());
      Error(key, fmt::format("expected one of {}, {}{}", fmt::join(quoted, ", "), Found(*v),
                             hint.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", hint)));
      return;
    }
    value = std::move(text);
  }

  void RealList(std::string_view key, std::vector<double>& values, Range range, std::string_view,
                Unit unit) override {
    const json* v = Take(key);
    if (v == nullptr) return;
    if (!v->is_array()) {
      Error(key, fmt::format("expected an array of numbers, {}", Found(*v)));
      return;
    }
    std::vector<double> out;
    bool ok = true;
    for (size_t i = 0; i < v->size(); ++i) {
      // An array index is a pointer token of its own: "/edges/1", never "/edges~11".
      const std::string item = fmt::format("{}/{}", JoinPointer(pointer_, key), i);
      double x = 0;
      if (!QuantityAt(item, (*v)[i], unit, &x)) {
        ok = false;
      } else if (!range.Contains(x)) {
        errors_.Add(item, fmt::format("must be {}, {}", range.ToString(), Found((*v)[i])));
        ok = false;
      }
      out.push_back(x);
    }
    if (ok) values = std::move(out);
  }

  void Component(std::string_view key, ComponentSpec& spec, std::string_view) override {
    const json* v = Take(key);
    if (v == nullptr) return;
    ReadComponent(*v, JoinPointer(pointer_, key), spec, errors_, kinds_);
  }

  // After Describe: every key of the object not described (nor ignored) is an error.
  void ReportUnknown(const std::vector<std::string_view>& ignore) {
    for (auto it = obj_.begin(); it != obj_.end(); ++it) {
      const std::string& key = it.key();
      if (seen_.count(key) || std::find(ignore.begin(), ignore.end(), key) != ignore.end()) {
        continue;
      }
      std::vector<std::string> known(seen_all_.begin(), seen_all_.end());
      for (std::string_view k : ignore) known.emplace_back(k);
      const std::string hint = DidYouMean(key, known);
      errors_.Add(JoinPointer(pointer_, key),
                  hint.empty() ? fmt::format("unknown key (known keys: {})", fmt::join(known, ", "))
                               : fmt::format("unknown key; did you mean \"{}\"?", hint));
    }
  }

 private:
  const json* Take(std::string_view key) {
    seen_all_.emplace(key);
    auto it = obj_.find(std::string(key));
    if (it == obj_.end()) return nullptr;
    seen_.emplace(key);
    return &*it;
  }
  bool Quantity(std::string_view key, const json& v, Unit unit, double* out) {
    return QuantityAt(JoinPointer(pointer_, key), v, unit, out);
  }
  // Take(key) read as a quantity into *out; nullptr when absent or not a quantity (reported).
  const json* TakeQuantity(std::string_view key, Unit unit, double* out) {
    const json* v = Take(key);
    return v != nullptr && Quantity(key, *v, unit, out) ? v : nullptr;
  }
  // Whether x (read from v) is in range; reports it when not.
  bool InRange(std::string_view key, const json& v, const Range& range, double x) {
    if (range.Contains(x)) return true;
    Error(key, fmt::format("must be {}, {}", range.ToString(), Found(v)));
    return false;
  }
  bool QuantityAt(const std::string& pointer, const json& v, Unit unit, double* out) {
    std::string error;
    std::optional<double> x = ParseQuantity(v, unit, &error);
    if (!x) {
      errors_.Add(pointer, fmt::format("{}, {}", error, Found(v)));
      return false;
    }
    *out = *x;
    return true;
  }
  void Error(std::string_view key, std::string message) {
    errors_.Add(JoinPointer(pointer_, key), std::move(message));
  }

  const json& obj_;
  const std::string& pointer_;
  ErrorList& errors_;
  const ComponentKinds& kinds_;
  std::set<std::string> seen_;
  std::set<std::string> seen_all_;
};

// Writes every described field (the resolved form).
class JsonWriter final : public ParamVisitor {
 public:
  explicit JsonWriter(json& out) : out_(out) {}
  void Int(std::string_view key, int64_t& value, Range, std::string_view, Unit) override {
    out_[std::string(key)] = value;
  }
  void Real(std::string_view key, double& value, Range, std::string_view, Unit) override {
    out_[std::string(key)] = value;
  }
  void Bool(std::string_view key, bool& value, std::string_view) override {
    out_[std::string(key)] = value;
  }
  void Text(std::string_view key, std::string& value, std::span<const std::string_view>,
            std::string_view) override {
    out_[std::string(key)] = value;
  }
  void RealList(std::string_view key, std::vector<double>& values, Range, std::string_view,
                Unit) override {
    out_[std::string(key)] = values;
  }
  void Component(std::string_view key, ComponentSpec& spec, std::string_view) override {
    out_[std::string(key)] = WriteComponent(spec);
  }

 private:
  json& out_;
};

}  // namespace

std::string ShownJson(const json& value) {
  std::string text = value.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

namespace {

void ReadConfigIgnoring(const json& obj, const std::string& pointer, Config& config,
                        ErrorList& errors, const std::vector<std::string_view>& ignore,
                        const ComponentKinds& kinds) {
  if (!obj.is_object()) {
    errors.Add(pointer, fmt::format("expected an object, {}", Found(obj)));
    return;
  }
  const size_t before = errors.size();
  JsonReader reader(obj, pointer, errors, kinds);
  config.Describe(reader);
  reader.ReportUnknown(ignore);
  if (errors.size() != before) return;
  ParamProblems problems;
  config.Validate(problems);
  for (const ParamProblems::Problem& p : problems.problems()) {
    errors.Add(p.key.empty() ? pointer : JoinPointer(pointer, p.key), p.message);
  }
}

}  // namespace

void ReadConfig(const json& obj, const std::string& pointer, Config& config, ErrorList& errors,
                std::initializer_list<std::string_view> ignore, const ComponentKinds& kinds) {
  ReadConfigIgnoring(obj, pointer, config, errors, std::vector<std::string_view>(ignore), kinds);
}

void ReadComponent(const json& value, const std::string& pointer, ComponentSpec& spec,
                   ErrorList& errors, const ComponentKinds& kinds,
                   std::initializer_list<std::string_view> also_known) {
  const ComponentKind* kind = kinds.Find(spec.kind);
  if (kind == nullptr) {
    errors.Add(pointer, fmt::format("internal: no component kind \"{}\"", spec.kind));
    return;
  }
  std::string name;
  const json* params = nullptr;
  if (value.is_string()) {
    name = value.get<std::string>();
  } else if (value.is_object()) {
    auto it = value.find("name");
    if (it != value.end()) {
      if (!it->is_string()) {
        errors.Add(JoinPointer(pointer, "name"),
                   fmt::format("expected a {} name (string), {}", spec.kind, Found(*it)));
        return;
      }
      name = it->get<std::string>();
    } else if (spec.config != nullptr) {
      name = spec.name;
    } else {
      errors.Add(pointer, fmt::format("missing key \"name\" (the {} to use; one of {})", spec.kind,
                                      fmt::join(kind->names(), ", ")));
      return;
    }
    params = &value;
  } else {
    errors.Add(pointer, fmt::format("expected a {} name or an object with \"name\", {}", spec.kind,
                                    Found(value)));
    return;
  }
  if (name != spec.name || spec.config == nullptr) {
    std::unique_ptr<Config> config = kind->make_config(name);
    if (config == nullptr) {
      const std::vector<std::string> names = kind->names();
      const std::string hint = DidYouMean(name, names);
      errors.Add(value.is_object() ? JoinPointer(pointer, "name") : pointer,
                 fmt::format("unknown {} \"{}\"{} (known: {})", spec.kind, name,
                             hint.empty() ? "" : fmt::format("; did you mean \"{}\"?", hint),
                             fmt::join(names, ", ")));
      return;
    }
    spec.name = name;
    spec.config = std::move(config);
  }
  std::vector<std::string_view> ignore = {"name"};
  ignore.insert(ignore.end(), also_known.begin(), also_known.end());
  ReadConfigIgnoring(params != nullptr ? *params : json::object(), pointer, *spec.config, errors,
                     ignore, kinds);
}

json WriteConfig(Config& config) {
  json out = json::object();
  JsonWriter writer(out);
  config.Describe(writer);
  return out;
}

json WriteComponent(const ComponentSpec& spec) {
  json out = json::object();
  out["name"] = spec.name;
  if (spec.config != nullptr) {
    JsonWriter writer(out);
    spec.config->Describe(writer);
  }
  return out;
}

}  // namespace commsim
