#include "analysis/report.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "analysis/csv.h"
#include "analysis/gnuplot.h"
#include "analysis/html_report.h"
#include "analysis/output_folder.h"
#include "analysis/report_text.h"
#include "analysis/writers.h"
#include "base/error.h"
#include "base/owned_folder.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

// The run folder's time-to-target section ("" when the run has no target).
std::string TimeToTargetSection(const CsvTable& s) {
  if (s.size() == 0 || !s.HasNumbers("target_value")) return "";
  std::string out = fmt::format("## Time to target: {}\n\n{}\n\n", TargetText(s), kTargetRule);
  out += FewIterationsWarning(s);
  std::vector<std::vector<std::string>> rows;
  for (size_t r = 0; r < s.size(); ++r) {
    const bool reached = !s.Cell(r, "time_to_target_s").empty();
    rows.push_back({s.Cell(r, "name"), s.Cell(r, "status"),
                    reached ? MdSi(s.Number(r, "time_to_target_s"), "s") : "not reached",
                    reached ? MdSi(s.Number(r, "bits_to_target"), "bit") : ""});
  }
  return out + MdTable({"algorithm", "status", "simulated time", "wire bits"}, rows);
}

// Bits per entry; each entry is compared with its family's full-precision entry (sgd, or dpsgd).
std::string CommunicationSection(const CsvTable& s) {
  std::string out;
  const bool baselines = s.HasNumbers("bits_fraction_of_baseline");
  out += "## Communication\n\n";
  std::vector<std::string> header = {"algorithm",         "registry",   "status",
                                     "iterations",        "total bits", "uplink bits/iter",
                                     "downlink bits/iter"};
  if (baselines) header.insert(header.end(), {"baseline", "bits vs baseline", "reduction"});
  std::vector<std::vector<std::string>> rows;
  for (size_t r = 0; r < s.size(); ++r) {
    const double iterations = s.Number(r, "iterations").value_or(0);
    auto per_iter = [&](const char* column) -> std::optional<double> {
      const std::optional<double> bits = s.Number(r, column);
      if (!bits || iterations <= 0) return std::nullopt;
      return *bits / iterations;
    };
    std::vector<std::string> row = {s.Cell(r, "name"),
                                    s.Cell(r, "algorithm"),
                                    s.Cell(r, "status"),
                                    s.Cell(r, "iterations"),
                                    MdSi(s.Number(r, "total_bits"), "bit"),
                                    MdSi(per_iter("bits_up"), "bit"),
                                    MdSi(per_iter("bits_down"), "bit")};
    if (baselines) {
      row.push_back(s.Cell(r, "baseline"));
      if (const std::optional<double> f = s.Number(r, "bits_fraction_of_baseline")) {
        row.push_back(MdPercent(*f));
        row.push_back(MdPercent(1 - *f));
      } else {
        row.insert(row.end(), {"", ""});
      }
    }
    rows.push_back(std::move(row));
  }
  out += MdTable(header, rows);

  return out;
}

// Time per iteration split into compute and communication, and the final quality columns.
std::string TimeAndQualitySection(const CsvTable& s) {
  std::string out;
  out += "## Time and quality\n\n";
  std::vector<std::string> header = {"algorithm",          "time/iter",      "compute/iter",
                                     "communication/iter", "simulated time", "final loss"};
  const auto optional_columns = SummaryReportColumns();
  const bool suboptimality = s.HasNumbers("optimal_loss");
  if (suboptimality) header.push_back("final F(x) − F*");
  for (const auto& [column, title] : optional_columns) {
    if (s.HasNumbers(column)) header.push_back(title);
  }
  std::vector<std::vector<std::string>> rows;
  for (size_t r = 0; r < s.size(); ++r) {
    std::vector<std::string> row = {s.Cell(r, "name"),
                                    MdSi(s.Number(r, "mean_iter_time_s"), "s"),
                                    MdSi(s.Number(r, "mean_compute_time_s"), "s"),
                                    MdSi(s.Number(r, "mean_comm_time_s"), "s"),
                                    MdSi(s.Number(r, "sim_time_s"), "s"),
                                    MdNum(s.Number(r, "final_loss"))};
    if (suboptimality) {
      const std::optional<double> loss = s.Number(r, "final_loss");
      const std::optional<double> f_star = s.Number(r, "optimal_loss");
      row.push_back(loss && f_star ? MdNum(*loss - *f_star) : "");
    }
    for (const auto& [column, title] : optional_columns) {
      if (s.HasNumbers(column)) row.push_back(MdNum(s.Number(r, column)));
    }
    rows.push_back(std::move(row));
  }
  out += MdTable(header, rows);
  return out;
}

}  // namespace

std::string RunReport(const std::string& dir) {
  const CsvTable s = ReadCsvFile((fs::path(dir) / "summary.csv").string());
  std::string out = fmt::format("# Run report: {}\n\n", ReportName(dir));
  if (const std::string model = ReportTimeModel(dir); !model.empty()) {
    out += fmt::format("Time model: {}.\n\n", model);
  }
  out += CommunicationSection(s);
  out += TimeAndQualitySection(s);
  out += TimeToTargetSection(s);
  const std::string quality =
      s.HasNumbers("optimal_loss") ? "suboptimality F(x) − F*" : "training loss";
  out += MdFigures(dir, {{"loss_vs_iteration", quality + " vs iteration"},
                         {"dist_vs_iteration", "squared distance to the optimum vs iteration"},
                         {"loss_vs_bits", quality + " vs wire bits"},
                         {"loss_vs_time", quality + " vs simulated time"},
                         {"accuracy_vs_bits", "test accuracy vs bits"},
                         {"accuracy_vs_iteration", "test accuracy vs iteration"},
                         {"grad_residual_vs_iteration", "gradient residual vs iteration"},
                         {"model_residual_vs_iteration", "model residual vs iteration"},
                         {"consensus_vs_iteration", "consensus distance vs iteration"},
                         {"bits_per_iteration", "bits per iteration"},
                         {"time_breakdown", "time per iteration: compute, codec, communication"}});
  return out;
}

std::string WriteReport(const std::string& dir, const std::string& generator,
                        const std::string& into) {
  const std::string target = into.empty() ? dir : into;
  std::string text;
  if (fs::exists(fs::path(dir) / "sweep.csv")) {
    text = SweepReport(dir);
  } else if (fs::exists(fs::path(dir) / "summary.csv")) {
    text = RunReport(dir);
  } else {
    throw UserError(
        fmt::format("{}: neither a run folder (summary.csv) nor a sweep folder (sweep.csv)", dir));
  }
  CheckMarkedFolder(target, "report");
  OwnedFolder folder(target);
  const std::string html = HtmlReport(dir, text, generator);
  if (!into.empty()) {  // the figures stay in DIR/plots: link them from where the report is
    const std::string plots =
        fs::absolute(fs::path(dir) / "plots").lexically_relative(fs::absolute(into)).string();
    for (size_t at = text.find("](plots/"); at != std::string::npos;
         at = text.find("](plots/", at + plots.size())) {
      text.replace(at + 2, 5, plots);
    }
  }
  folder.WriteFile("report.md", text);
  folder.WriteFile("report.html", html);
  return folder.Shown("report.md");
}

}  // namespace commsim
