#include "analysis/report_text.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "analysis/csv.h"
#include "analysis/gnuplot.h"
#include "analysis/sweep_view.h"

namespace commsim {

namespace fs = std::filesystem;

namespace {

// A table row; cells hold labels from scenario and sweep files, so they are kept on one line
// and their bars escaped.
std::string MdRow(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const std::string& c : cells) {
    std::string cell;
    for (const char ch : SanitizeText(c)) {
      if (ch == '|') cell += '\\';
      cell += ch;
    }
    out += " " + cell + " |";
  }
  return out + "\n";
}

}  // namespace

std::string MdTable(const std::vector<std::string>& header,
                    const std::vector<std::vector<std::string>>& rows) {
  std::string out = MdRow(header);
  out += "|";
  for (size_t i = 0; i < header.size(); ++i) out += i == 0 ? "---|" : "---:|";
  out += "\n";
  for (const auto& r : rows) out += MdRow(r);
  return out + "\n";
}

std::string MdNum(std::optional<double> x) {
  if (!x) return "";
  if (!std::isfinite(*x)) return FormatNumber(*x);
  return fmt::format("{:.4g}", *x);
}
std::string MdSi(std::optional<double> x, const char* unit) { return x ? FormatSi(*x, unit) : ""; }
std::string MdPercent(double x) { return fmt::format("{:.1f}%", 100 * x); }

// Markdown images for the plots that exist, in the given order.
std::string MdFigures(const std::string& dir,
                      const std::vector<std::pair<std::string, std::string>>& plots) {
  std::string out;
  for (const auto& [name, caption] : plots) {
    if (!fs::exists(fs::path(dir) / "plots" / fmt::format("{}.png", name))) continue;
    out += fmt::format("![{}](plots/{}.png)\n\n", caption, name);
  }
  if (out.empty()) out = "No plots yet: run `commsim plot` on this folder, then report again.\n\n";
  return "## Plots\n\n" + out;
}

// "loss <= 0.5" or "test accuracy >= 0.9" when every row has the same target, else a phrase.
std::string TargetText(const CsvTable& t) {
  const bool accuracy = t.Cell(0, "target_metric") == "test_accuracy";
  std::string value = t.Cell(0, "target_value");
  for (size_t r = 1; r < t.size(); ++r) {
    if (t.Cell(r, "target_value") != value) value.clear();
  }
  return fmt::format("{} {} {}", accuracy ? "test accuracy" : "loss", accuracy ? ">=" : "<=",
                     value.empty() ? "the point's target" : MdNum(t.Number(0, "target_value")));
}

const char* const kTargetRule =
    "An entry reaches the target at its first recorded iteration that meets it. The target is the "
    "scenario's (or sweep's) target_loss or target_accuracy when given, else the largest final "
    "loss among the entries that did not diverge, so each of them reaches it; with fewer than two "
    "such entries, or fewer than two recorded iterations, there is none.";

std::string FewIterationsWarning(const CsvTable& t) {
  std::optional<double> fewest;
  for (size_t r = 0; r < t.size(); ++r) {
    const std::optional<double> n = t.Number(r, "iterations");
    if (n && (!fewest || *n < *fewest)) fewest = n;
  }
  if (!fewest || *fewest >= kFewIterations) return "";
  return fmt::format(
      "**Few iterations**: some entries ran only {} iterations. A time to target read from fewer "
      "than {} is a rough indication, not a result: run more iterations before comparing.\n\n",
      MdNum(fewest), kFewIterations);
}

}  // namespace commsim
