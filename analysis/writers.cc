#include "analysis/writers.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <set>

#include "analysis/csv.h"
#include "analysis/version.h"
#include "sim/error.h"

namespace commsim {
namespace {

std::string Num(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return fmt::format("{}", x);
}
std::string Opt(const std::optional<double>& x) { return x ? Num(*x) : ""; }
nlohmann::json OptJson(const std::optional<double>& x) {
  if (!x || !std::isfinite(*x)) return nullptr;
  return *x;
}
nlohmann::json NumJson(double x) {
  if (!std::isfinite(x)) return nullptr;
  return x;
}

}  // namespace

std::string MetricsCsv(const RunResult& result) {
  std::set<std::string> extra_keys;
  for (const auto& records : result.records) {
    for (const IterationRecord& r : records) {
      for (const auto& [key, value] : r.extra) extra_keys.insert(key);
    }
  }
  std::string out =
      "algorithm,iteration,sim_time_s,iter_time_s,compute_time_s,comm_time_s,loss,dist_to_opt_sq,"
      "test_accuracy,consensus_dist,density,bits_up,bits_down,cum_bits,status";
  for (const std::string& key : extra_keys) out += "," + key;
  out += '\n';
  for (const auto& records : result.records) {
    for (const IterationRecord& r : records) {
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}", r.algorithm, r.iteration,
                         Num(r.sim_time_s), Num(r.iter_time_s), Num(r.compute_time_s),
                         Num(r.comm_time_s), Num(r.loss), Opt(r.dist_to_opt_sq),
                         Opt(r.test_accuracy), Opt(r.consensus_dist), Opt(r.density), r.bits_up,
                         r.bits_down, r.cum_bits, r.status);
      for (const std::string& key : extra_keys) {
        auto it = r.extra.find(key);
        out += ",";
        if (it != r.extra.end()) out += Num(it->second);
      }
      out += '\n';
    }
  }
  return out;
}

std::vector<std::string> SummaryColumns(const RunResult& result) {
  std::vector<std::string> columns = {
      "name",          "algorithm",           "family",          "status",
      "message",       "iterations",          "final_loss",      "final_dist_to_opt_sq",
      "final_test_accuracy", "final_consensus_dist", "final_density", "total_bits",
      "bits_up",       "bits_down",           "mean_iter_time_s", "mean_compute_time_s",
      "mean_comm_time_s", "sim_time_s",       "baseline",        "bits_fraction_of_baseline",
      "target_metric", "target_value",        "time_to_target_s", "bits_to_target"};
  std::set<std::string> extra_keys;
  for (const RunSummary& s : result.summaries) {
    for (const auto& [key, value] : s.extra) extra_keys.insert(key);
  }
  columns.insert(columns.end(), extra_keys.begin(), extra_keys.end());
  return columns;
}

std::vector<std::string> SummaryCells(const RunSummary& s, const std::vector<std::string>& columns,
                                      const std::optional<RunTarget>& target) {
  std::vector<std::string> cells;
  for (const std::string& c : columns) {
    if (c == "name") cells.push_back(s.name);
    else if (c == "algorithm") cells.push_back(s.algorithm);
    else if (c == "family") cells.push_back(s.family);
    else if (c == "status") cells.push_back(s.status);
    else if (c == "message") cells.push_back(s.message);
    else if (c == "iterations") cells.push_back(fmt::format("{}", s.iterations));
    else if (c == "final_loss") cells.push_back(Num(s.final_loss));
    else if (c == "final_dist_to_opt_sq") cells.push_back(Opt(s.final_dist_to_opt_sq));
    else if (c == "final_test_accuracy") cells.push_back(Opt(s.final_test_accuracy));
    else if (c == "final_consensus_dist") cells.push_back(Opt(s.final_consensus_dist));
    else if (c == "final_density") cells.push_back(Opt(s.final_density));
    else if (c == "total_bits") cells.push_back(fmt::format("{}", s.total_bits));
    else if (c == "bits_up") cells.push_back(fmt::format("{}", s.bits_up));
    else if (c == "bits_down") cells.push_back(fmt::format("{}", s.bits_down));
    else if (c == "mean_iter_time_s") cells.push_back(Num(s.mean_iter_time_s));
    else if (c == "mean_compute_time_s") cells.push_back(Num(s.mean_compute_time_s));
    else if (c == "mean_comm_time_s") cells.push_back(Num(s.mean_comm_time_s));
    else if (c == "sim_time_s") cells.push_back(Num(s.sim_time_s));
    else if (c == "baseline") cells.push_back(s.baseline);
    else if (c == "bits_fraction_of_baseline") cells.push_back(Opt(s.bits_fraction_of_baseline));
    else if (c == "target_metric") cells.push_back(target ? target->metric : "");
    else if (c == "target_value") cells.push_back(target ? Num(target->value) : "");
    else if (c == "time_to_target_s") cells.push_back(Opt(s.time_to_target_s));
    else if (c == "bits_to_target") {
      cells.push_back(s.bits_to_target ? fmt::format("{}", *s.bits_to_target) : "");
    } else {
      auto it = s.extra.find(c);
      cells.push_back(it == s.extra.end() ? "" : Num(it->second));
    }
  }
  return cells;
}

std::string SummaryCsv(const RunResult& result) {
  const std::vector<std::string> columns = SummaryColumns(result);
  std::string out = CsvLine(columns);
  for (const RunSummary& s : result.summaries) {
    out += CsvLine(SummaryCells(s, columns, result.target));
  }
  return out;
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
  j["name"] = s.name;
  j["algorithm"] = s.algorithm;
  j["family"] = s.family;
  j["status"] = s.status;
  j["message"] = s.message;
  j["iterations"] = s.iterations;
  j["final_loss"] = NumJson(s.final_loss);
  j["final_dist_to_opt_sq"] = OptJson(s.final_dist_to_opt_sq);
  j["final_test_accuracy"] = OptJson(s.final_test_accuracy);
  j["final_consensus_dist"] = OptJson(s.final_consensus_dist);
  j["final_density"] = OptJson(s.final_density);
  j["total_bits"] = s.total_bits;
  j["bits_up"] = s.bits_up;
  j["bits_down"] = s.bits_down;
  j["mean_iter_time_s"] = NumJson(s.mean_iter_time_s);
  j["mean_compute_time_s"] = NumJson(s.mean_compute_time_s);
  j["mean_comm_time_s"] = NumJson(s.mean_comm_time_s);
  j["sim_time_s"] = NumJson(s.sim_time_s);
  j["baseline"] = s.baseline.empty() ? nlohmann::json() : nlohmann::json(s.baseline);
  j["bits_fraction_of_baseline"] = OptJson(s.bits_fraction_of_baseline);
  j["time_to_target_s"] = OptJson(s.time_to_target_s);
  j["bits_to_target"] = s.bits_to_target ? nlohmann::json(*s.bits_to_target) : nlohmann::json();
  for (const auto& [key, value] : s.extra) j[key] = NumJson(value);
  return j;
}

}  // namespace

nlohmann::json SummaryJson(const RunResult& result) {
  nlohmann::json algorithms = nlohmann::json::array();
  for (const RunSummary& s : result.summaries) algorithms.push_back(EntryJson(s));
  nlohmann::json target;
  if (result.target) {
    target = {{"metric", result.target->metric},
              {"value", NumJson(result.target->value)},
              {"rule", result.target->rule}};
  } else {
    target = {{"omitted", result.target_omitted}};
  }
  return nlohmann::json{{"commsim_version", CommsimVersion()},
                        {"problem", ProblemJson(result.problem)},
                        {"target", std::move(target)},
                        {"algorithms", std::move(algorithms)}};
}

nlohmann::json RunJson(const RunResult& result) {
  nlohmann::json entries = nlohmann::json::array();
  for (size_t i = 0; i < result.summaries.size(); ++i) {
    const double t = i < result.entry_wall_time_s.size() ? result.entry_wall_time_s[i] : 0.0;
    entries.push_back({{"name", result.summaries[i].name}, {"wall_time_s", NumJson(t)}});
  }
  return nlohmann::json{{"commsim_version", CommsimVersion()},
                        {"wall_time_s", NumJson(result.wall_time_s)},
                        {"entries", std::move(entries)}};
}

}  // namespace commsim
