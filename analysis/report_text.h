// Markdown pieces shared by the run report and the sweep report (analysis/report.h): tables whose
// cells are sanitized, number formats, the plot list, the time-to-target wording.
#ifndef COMMSIM_ANALYSIS_REPORT_TEXT_H_
#define COMMSIM_ANALYSIS_REPORT_TEXT_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/csv.h"

namespace commsim {

// A Markdown table: the first column left-aligned, the others right-aligned. Cells hold labels
// from scenario and sweep files, so they are kept on one line and their bars escaped.
std::string MdTable(const std::vector<std::string>& header,
                    const std::vector<std::vector<std::string>>& rows);
// 4 significant digits; "" when absent.
std::string MdNum(std::optional<double> x);
// With an SI prefix and `unit` ("1.5 Gbit"); "" when absent.
std::string MdSi(std::optional<double> x, const char* unit);
// "12.5%" for 0.125.
std::string MdPercent(double x);
// "## Plots" with the images of DIR/plots/<name>.png that exist, in the given order.
std::string MdFigures(const std::string& dir,
                      const std::vector<std::pair<std::string, std::string>>& plots);
// "loss <= 0.5" or "test accuracy >= 0.9" when every row has the same target, else a phrase.
std::string TargetText(const CsvTable& t);
// How an entry reaches the target and how the target is chosen, in words.
extern const char* const kTargetRule;
// Below kFewIterations iterations a time to target says little: a line saying so when some row
// of `t` (a summary or sweep table with an `iterations` column) ran fewer, else "".
inline constexpr int kFewIterations = 10;
std::string FewIterationsWarning(const CsvTable& t);

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_REPORT_TEXT_H_
