#include "analysis/claims.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>
#include <type_traits>

namespace commsim {
namespace {

constexpr std::string_view kKinds[] = {"below", "above", "near_or_above", "ratio_below", "decay"};

// A summary's numeric fields by name (the columns of summary.csv that hold numbers).
class NumericFields {
 public:
  explicit NumericFields(const RunSummary& s) {
    s.Visit([this](std::string_view name, const auto& value, auto&&...) { Take(name, value); },
            std::nullopt);
  }
  std::optional<double> Get(const std::string& name) const {
    const auto it = values_.find(name);
    return it == values_.end() ? std::nullopt : it->second;
  }

 private:
  template <class T>
  void Take(std::string_view name, const T& value) {
    if constexpr (std::is_arithmetic_v<T>) {
      values_[std::string(name)] = static_cast<double>(value);
    } else if constexpr (requires { value.has_value(); }) {
      if (value.has_value()) values_[std::string(name)] = static_cast<double>(*value);
    }
  }
  std::map<std::string, std::optional<double>> values_;
};

// Entry `label`'s index in `labels`, or -1.
int IndexOf(const std::vector<std::string>& labels, const std::string& label) {
  const auto it = std::find(labels.begin(), labels.end(), label);
  return it == labels.end() ? -1 : static_cast<int>(it - labels.begin());
}

// Metrics `column` of `records` at `iteration` (an IterationRecord field or extra), if recorded.
std::optional<double> MetricAt(const std::vector<IterationRecord>& records,
                               const std::string& column, int64_t iteration) {
  for (const IterationRecord& r : records) {
    if (r.iteration != iteration) continue;
    if (const auto it = r.extra.find(column); it != r.extra.end()) return it->second;
    if (column == "dist_to_opt_sq") return r.dist_to_opt_sq;
    if (column == "loss") return r.loss;
    if (column == "consensus_dist") return r.consensus_dist;
    return std::nullopt;
  }
  return std::nullopt;
}

std::string Number(double v) { return fmt::format("{:.3g}", v); }

}  // namespace

void ClaimConfig::Describe(ParamVisitor& v) {
  v.Text("claim", claim, {}, "what the paper claims, in words");
  v.Text("paper", paper, {}, "the paper's number or shape");
  v.Text("note", note, {}, "why the claim may not hold here, or how to read it (optional)");
  v.Text("kind", kind, kKinds, "the check (analysis/claims.h)");
  v.Text("field", field, {}, "summary field checked (below, above, near_or_above, ratio_below)");
  v.Text("column", column, {}, "metrics column checked (decay)");
  v.Text("entries", entries, {}, "entry labels, comma-separated");
  v.Text("of", of, {}, "the reference entry (near_or_above, ratio_below)");
  v.Text("of_field", of_field, {}, "the reference entry's field (default: `field`)");
  v.Real("value", value, Range::Any(), "the bound (below, above, ratio_below) or factor (decay)");
  v.Real("tolerance", tolerance, Range::NonNegative(), "allowed shortfall (near_or_above)");
  v.Int("from", from, Range::NonNegative(), "first iteration (decay)");
  v.Int("to", to, Range::NonNegative(), "last iteration (decay)");
}

void ClaimConfig::Validate(ParamProblems& problems) const {
  if (claim.empty()) problems.Add("claim", "must say what the paper claims");
  if (EntryList().empty()) problems.Add("entries", "must name at least one entry");
  const bool on_column = kind == "decay";
  if (on_column && column.empty()) problems.Add("column", "decay needs a metrics column");
  if (!on_column && field.empty()) problems.Add("field", kind + " needs a summary field");
  if ((kind == "near_or_above" || kind == "ratio_below") && of.empty()) {
    problems.Add("of", kind + " needs a reference entry");
  }
  if (on_column && to <= from) problems.Add("to", "must be after `from`");
}

std::vector<std::string> ClaimConfig::EntryList() const {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= entries.size()) {
    size_t end = entries.find(',', start);
    if (end == std::string::npos) end = entries.size();
    std::string label = entries.substr(start, end - start);
    label.erase(0, label.find_first_not_of(' '));
    label.erase(label.find_last_not_of(' ') + 1);
    if (!label.empty()) out.push_back(label);
    start = end + 1;
  }
  return out;
}

ClaimOutcome EvaluateClaim(const ClaimConfig& c, const RunResult& result,
                           const std::vector<std::string>& labels) {
  ClaimOutcome out{.measured = "", .holds = true};
  const auto fail = [&out](const std::string& label, const std::string& why) {
    out.holds = false;
    out.measured += fmt::format("{}{} {}", out.measured.empty() ? "" : ", ", label, why);
  };
  std::optional<double> reference;
  if (!c.of.empty()) {
    const int r = IndexOf(labels, c.of);
    const std::string& ref_field = c.of_field.empty() ? c.field : c.of_field;
    if (r >= 0) reference = NumericFields(result.summaries[static_cast<size_t>(r)]).Get(ref_field);
    if (!reference) {
      fail(c.of, r < 0 ? "(no such entry)" : "(no " + ref_field + ")");
      return out;
    }
    out.measured = fmt::format("{} {}{}", c.of, c.of_field.empty() ? "" : c.of_field + " ",
                               Number(*reference));
  }
  for (const std::string& label : c.EntryList()) {
    const int e = IndexOf(labels, label);
    if (e < 0) {
      fail(label, "(no such entry)");
      continue;
    }
    const RunSummary& s = result.summaries[static_cast<size_t>(e)];
    if (s.status != kStatusOk) {
      fail(label, s.status);
      continue;
    }
    std::optional<double> v, base;
    if (c.kind == "decay") {
      base = MetricAt(result.records[static_cast<size_t>(e)], c.column, c.from);
      v = MetricAt(result.records[static_cast<size_t>(e)], c.column, c.to);
    } else {
      v = NumericFields(s).Get(c.field);
    }
    if (!v || (c.kind == "decay" && !base)) {
      fail(label, "(not recorded)");
      continue;
    }
    bool ok = false;
    std::string shown = Number(*v);
    if (c.kind == "below") ok = *v < c.value;
    if (c.kind == "above") ok = *v > c.value;
    if (c.kind == "near_or_above") ok = *v >= *reference - c.tolerance;
    if (c.kind == "ratio_below") {
      ok = *v <= c.value * *reference;
      shown = fmt::format("{} ({:.3g}×)", shown, *v / *reference);
    }
    if (c.kind == "decay") {
      ok = *v <= c.value * *base;
      shown = fmt::format("{} -> {}", Number(*base), Number(*v));
    }
    out.holds = out.holds && ok;
    out.measured += fmt::format("{}{} {}", out.measured.empty() ? "" : ", ", label, shown);
  }
  return out;
}

}  // namespace commsim
