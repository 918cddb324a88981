#include "analysis/writers.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <set>

#include "analysis/csv.h"
#include "analysis/version.h"
#include "base/error.h"

namespace commsim {
namespace {

std::string Cell(const std::string& x) { return x; }
std::string Cell(int64_t x) { return fmt::format("{}", x); }
std::string Cell(double x) { return FormatNumber(x); }
template <class T>
std::string Cell(const std::optional<T>& x) {
  return x ? Cell(*x) : "";
}

nlohmann::json Json(const std::string& x, ColumnInfo info) {
  if (info.empty_is_null && x.empty()) return nullptr;
  return x;
}
nlohmann::json Json(int64_t x, ColumnInfo) { return x; }
nlohmann::json Json(double x, ColumnInfo) {
  if (!std::isfinite(x)) return nullptr;
  return x;
}
template <class T>
nlohmann::json Json(const std::optional<T>& x, ColumnInfo info) {
  return x ? Json(*x, info) : nullptr;
}

// Visitors over the Visit lists of records.h.
struct NameList {
  std::vector<std::string>* names;
  template <class T>
  void operator()(const char* name, const T&, ColumnInfo = {}) const {
    names->push_back(name);
  }
};
struct CellList {
  std::vector<std::string>* cells;
  template <class T>
  void operator()(const char*, const T& value, ColumnInfo = {}) const {
    cells->push_back(Cell(value));
  }
};

// The sorted union of the `extra` keys of `items`.
template <class Items>
std::vector<std::string> ExtraKeys(const Items& items) {
  std::set<std::string> keys;
  for (const auto& item : items) {
    for (const auto& [key, value] : item.extra) keys.insert(key);
  }
  return {keys.begin(), keys.end()};
}

void AppendExtra(const std::map<std::string, double>& extra, const std::vector<std::string>& keys,
                 std::vector<std::string>& cells) {
  for (const std::string& key : keys) {
    auto it = extra.find(key);
    cells.push_back(it == extra.end() ? "" : Cell(it->second));
  }
}

}  // namespace

std::string MetricsCsv(const RunResult& result) {
  std::set<std::string> keys;
  for (const auto& records : result.records) {
    for (const std::string& key : ExtraKeys(records)) keys.insert(key);
  }
  const std::vector<std::string> extra_keys(keys.begin(), keys.end());
  std::vector<std::string> header;
  IterationRecord().Visit(NameList{&header});
  header.insert(header.end(), extra_keys.begin(), extra_keys.end());
  std::string out = CsvLine(header);
  std::vector<std::string> cells;
  for (const auto& records : result.records) {
    for (const IterationRecord& r : records) {
      cells.clear();
      r.Visit(CellList{&cells});
      AppendExtra(r.extra, extra_keys, cells);
      out += CsvLine(cells);
    }
  }
  return out;
}

std::string SummaryCsv(const RunResult& result) {
  const std::vector<std::string> extra_keys = ExtraKeys(result.summaries);
  std::vector<std::string> header;
  RunSummary().Visit(NameList{&header}, result.target);
  header.insert(header.end(), extra_keys.begin(), extra_keys.end());
  std::string out = CsvLine(header);
  std::vector<std::string> cells;
  for (const RunSummary& s : result.summaries) {
    cells.clear();
    s.Visit(CellList{&cells}, result.target);
    AppendExtra(s.extra, extra_keys, cells);
    out += CsvLine(cells);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> SummaryReportColumns() {
  std::vector<std::pair<std::string, std::string>> columns;
  RunSummary().Visit(
      [&](const char* name, const auto&, ColumnInfo info = {}) {
        if (*info.report_title != '\0') columns.emplace_back(name, info.report_title);
      },
      std::nullopt);
  return columns;
}

namespace {

nlohmann::json ProblemJson(const ProblemInfo& p) {
  return {{"dim", p.dim},
          {"workers", p.workers},
          {"train_samples", p.train_samples},
          {"test_samples", p.test_samples},
          {"train_samples_per_worker", {{"min", p.shard_min}, {"max", p.shard_max}}},
          {"batch_per_worker", {{"min", p.batch_min}, {"max", p.batch_max}}}};
}

nlohmann::json EntryJson(const RunSummary& s) {
  nlohmann::json j = nlohmann::json::object();
  s.Visit(
      [&](const char* name, const auto& value, ColumnInfo info = {}) {
        if (!info.csv_only) j[name] = Json(value, info);
      },
      std::nullopt);
  for (const auto& [key, value] : s.extra) j[key] = Json(value, {});
  return j;
}

}  // namespace

nlohmann::json SummaryJson(const RunResult& result) {
  nlohmann::json algorithms = nlohmann::json::array();
  for (const RunSummary& s : result.summaries) algorithms.push_back(EntryJson(s));
  nlohmann::json target;
  if (result.target) {
    target = {{"metric", result.target->metric},
              {"value", Json(result.target->value, {})},
              {"rule", result.target->rule}};
  } else {
    target = {{"omitted", result.target_omitted}};
  }
  return nlohmann::json{{"commsim_version", CommsimVersion()},
                        {"problem", ProblemJson(result.problem)},
                        {"time_model", result.time_model},
                        {"target", std::move(target)},
                        {"algorithms", std::move(algorithms)}};
}

nlohmann::json RunJson(const RunResult& result) {
  nlohmann::json entries = nlohmann::json::array();
  for (size_t i = 0; i < result.summaries.size(); ++i) {
    const double t = i < result.entry_wall_time_s.size() ? result.entry_wall_time_s[i] : 0.0;
    entries.push_back({{"name", result.summaries[i].name}, {"wall_time_s", Json(t, {})}});
  }
  return nlohmann::json{{"commsim_version", CommsimVersion()},
                        {"wall_time_s", Json(result.wall_time_s, {})},
                        {"entries", std::move(entries)}};
}

}  // namespace commsim
