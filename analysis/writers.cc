#include "analysis/writers.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <set>

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
      "iterations",    "final_loss",          "final_dist_to_opt_sq",
      "final_test_accuracy", "final_consensus_dist", "final_density", "total_bits",
      "bits_up",       "bits_down",           "mean_iter_time_s", "mean_compute_time_s",
      "mean_comm_time_s", "sim_time_s",       "bits_fraction_of_sgd"};
  std::set<std::string> extra_keys;
  for (const RunSummary& s : result.summaries) {
    for (const auto& [key, value] : s.extra) extra_keys.insert(key);
  }
  columns.insert(columns.end(), extra_keys.begin(), extra_keys.end());
  return columns;
}

std::vector<std::string> SummaryCells(const RunSummary& s, const std::vector<std::string>& columns) {
  std::vector<std::string> cells;
  for (const std::string& c : columns) {
    if (c == "name") cells.push_back(s.name);
    else if (c == "algorithm") cells.push_back(s.algorithm);
    else if (c == "family") cells.push_back(s.family);
    else if (c == "status") cells.push_back(s.status);
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
    else if (c == "bits_fraction_of_sgd") cells.push_back(Opt(s.bits_fraction_of_sgd));
    else {
      auto it = s.extra.find(c);
      cells.push_back(it == s.extra.end() ? "" : Num(it->second));
    }
  }
  return cells;
}

std::string SummaryCsv(const RunResult& result) {
  const std::vector<std::string> columns = SummaryColumns(result);
  std::string out = fmt::format("{}\n", fmt::join(columns, ","));
  for (const RunSummary& s : result.summaries) {
    out += fmt::format("{}\n", fmt::join(SummaryCells(s, columns), ","));
  }
  return out;
}

nlohmann::json SummaryJson(const RunResult& result) {
  nlohmann::json algorithms = nlohmann::json::array();
  for (const RunSummary& s : result.summaries) {
    nlohmann::json j = nlohmann::json::object();
    j["name"] = s.name;
    j["algorithm"] = s.algorithm;
    j["family"] = s.family;
    j["status"] = s.status;
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
    j["bits_fraction_of_sgd"] = OptJson(s.bits_fraction_of_sgd);
    for (const auto& [key, value] : s.extra) j[key] = NumJson(value);
    algorithms.push_back(std::move(j));
  }
  return nlohmann::json{{"algorithms", std::move(algorithms)}};
}

}  // namespace commsim
