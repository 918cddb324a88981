#include "scenarios/table.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace commsim {
namespace {

std::string Sci(double x) { return fmt::format("{:.3e}", x); }
std::string Bits(double b) {
  if (b >= 1e9) return fmt::format("{:.3f} Gbit", b / 1e9);
  if (b >= 1e6) return fmt::format("{:.3f} Mbit", b / 1e6);
  if (b >= 1e3) return fmt::format("{:.3f} kbit", b / 1e3);
  return fmt::format("{:.4g} bit", b);
}
std::string Seconds(double s) {
  if (s >= 1) return fmt::format("{:.3f} s", s);
  if (s >= 1e-3) return fmt::format("{:.3f} ms", s * 1e3);
  return fmt::format("{:.3f} us", s * 1e6);
}

}  // namespace

std::string ComparisonTable(const RunResult& result) {
  const std::vector<std::string> header = {
      "algorithm",        "status",    "iters",     "final loss",  "|x-x*|^2",
      "test acc",         "bits/iter", "up/worker", "down/worker", "bits/param",
      "bits vs baseline", "iter time", "sim time"};
  std::vector<std::vector<std::string>> rows;
  for (const RunSummary& s : result.summaries) {
    rows.push_back(
        {s.name, s.status, fmt::format("{}", s.iterations), Sci(s.final_loss),
         s.final_dist_to_opt_sq ? Sci(*s.final_dist_to_opt_sq) : "-",
         s.final_test_accuracy ? fmt::format("{:.2f}%", 100 * *s.final_test_accuracy) : "-",
         Bits(s.bits_per_iteration), Bits(s.bits_up_per_worker), Bits(s.bits_down_per_worker),
         fmt::format("{:.3g}", s.bits_per_parameter),
         s.bits_fraction_of_baseline
             ? fmt::format("{:.2f}% of {}", 100 * *s.bits_fraction_of_baseline, s.baseline)
             : "-",
         Seconds(s.mean_iter_time_s), Seconds(s.sim_time_s)});
  }
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& row : rows) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c < cells.size(); ++c) {
      if (c) out += "  ";
      out += c == 0 || c == 1 ? fmt::format("{:<{}}", cells[c], width[c])
                              : fmt::format("{:>{}}", cells[c], width[c]);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header);
  for (const auto& row : rows) out += line(row);
  out +=
      "bits/iter: all messages of an iteration (every worker, both directions); up/worker, "
      "down/worker: one worker's (node's) per iteration; bits/param: up/worker / d\n";
  if (!result.time_model.empty()) out += "time model: " + result.time_model + "\n";
  for (const RunSummary& s : result.summaries) {
    if (!s.message.empty()) out += fmt::format("{} {}: {}\n", s.name, s.status, s.message);
  }
  if (result.target) {
    out += fmt::format("time to target ({} {} {:.6g}):", result.target->metric,
                       result.target->metric == "loss" ? "<=" : ">=", result.target->value);
    for (const RunSummary& s : result.summaries) {
      out += fmt::format(" {} {}", s.name,
                         s.time_to_target_s ? Seconds(*s.time_to_target_s) : "not reached");
      out += &s == &result.summaries.back() ? "\n" : ",";
    }
  }
  return out;
}

}  // namespace commsim
