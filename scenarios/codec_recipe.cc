#include "scenarios/codec_recipe.h"

#include <fmt/format.h>

#include <charconv>
#include <sstream>
#include <vector>

namespace commsim {
namespace {

using nlohmann::json;

struct OperationKeys final : ConfigBase<OperationKeys> {
  CodecOperation* op;
  explicit OperationKeys(CodecOperation* o) : op(o) {}
  void Describe(ParamVisitor& v) override {
    const Range r = Range::Closed(0, 1e6);
    v.Real("call_s", op->call_s, r, "seconds per call", Unit::kSeconds);
    v.Real("item_s", op->item_s, r, "seconds per item processed", Unit::kSeconds);
    v.Text("note", op->note, {}, "where the numbers come from");
  }
};

constexpr int kMaxCalls = 1000;

struct Step {
  int calls = 1;
  std::string op;
  bool per_nonzero = false;
};

// Parses "[N x ]<class>[ per element| per nonzero]"; "" on success, else the problem.
std::string ParseStep(const std::string& text, Step& step) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  size_t i = 0;
  if (words.size() >= 3 && words[1] == "x") {
    const std::string& n = words[0];
    const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), step.calls);
    if (ec != std::errc() || end != n.data() + n.size() || step.calls < 1 ||
        step.calls > kMaxCalls) {
      return fmt::format("expected a call count from 1 to {} before \"x\", got \"{}\"", kMaxCalls,
                         n);
    }
    i = 2;
  }
  if (i >= words.size()) return "expected an operation class";
  step.op = words[i++];
  if (i == words.size()) return "";
  if (words.size() == i + 2 && words[i] == "per" &&
      (words[i + 1] == "element" || words[i + 1] == "nonzero")) {
    step.per_nonzero = words[i + 1] == "nonzero";
    return "";
  }
  return "expected \"[N x ]<class>[ per element| per nonzero]\"";
}

}  // namespace

CodecOperations ReadCodecOperations(const json& value, const std::string& pointer,
                                    ErrorList& errors) {
  CodecOperations ops;
  if (!value.is_object()) {
    errors.Add(pointer,
               fmt::format("expected an object of operation classes, got {}", ShownJson(value)));
    return ops;
  }
  for (const auto& [name, entry] : value.items()) {
    OperationKeys keys(&ops[name]);
    ReadConfig(entry, JoinPointer(pointer, name), keys, errors);
  }
  return ops;
}

CodecCost CompileCodecRecipe(const json& ops, const std::string& pointer,
                             const CodecOperations& operations, ErrorList& errors) {
  CodecCost cost;
  if (!ops.is_array()) {
    errors.Add(pointer, fmt::format("expected an array of steps such as \"reduction\" or "
                                    "\"scatter per nonzero\", got {}",
                                    ShownJson(ops)));
    return cost;
  }
  std::vector<std::string> names;
  for (const auto& [name, op] : operations) names.push_back(name);
  for (size_t i = 0; i < ops.size(); ++i) {
    const std::string at = JoinPointer(pointer, std::to_string(i));
    if (!ops[i].is_string()) {
      errors.Add(at, fmt::format("expected a step as text, got {}", ShownJson(ops[i])));
      continue;
    }
    Step step;
    if (const std::string problem = ParseStep(ops[i].get<std::string>(), step); !problem.empty()) {
      errors.Add(at, fmt::format("{}, got {}", problem, ShownJson(ops[i])));
      continue;
    }
    const auto it = operations.find(step.op);
    if (it == operations.end()) {
      const std::string hint = DidYouMean(step.op, names);
      errors.Add(
          at, fmt::format("unknown operation class \"{}\"{}; the profile's \"operations\" "
                          "define: {}",
                          step.op, hint.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", hint),
                          names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
      continue;
    }
    cost.c0_s += step.calls * it->second.call_s;
    (step.per_nonzero ? cost.nnz_s : cost.elem_s) += step.calls * it->second.item_s;
  }
  return cost;
}

}  // namespace commsim
