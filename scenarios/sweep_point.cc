#include "scenarios/sweep_point.h"

#include <fmt/format.h>

#include <cmath>

#include "analysis/csv.h"
#include "analysis/writers.h"

namespace commsim {

std::optional<double> TimeToTarget(const std::vector<IterationRecord>& records,
                                   double target_loss) {
  for (const IterationRecord& r : records) {
    if (std::isfinite(r.loss) && r.loss <= target_loss) return r.sim_time_s;
  }
  return std::nullopt;
}

std::string PointSummaryCsv(const RunResult& result, std::optional<double> target_loss) {
  if (!target_loss) {
    for (const RunSummary& s : result.summaries) {
      if (s.status != kStatusOk || !std::isfinite(s.final_loss)) continue;
      target_loss = target_loss ? std::max(*target_loss, s.final_loss) : s.final_loss;
    }
  }
  std::vector<std::string> columns = SummaryColumns(result);
  std::vector<std::string> header = columns;
  header.push_back("target_loss");
  header.push_back("time_to_target_s");
  std::string out = CsvLine(header);
  for (size_t i = 0; i < result.summaries.size(); ++i) {
    std::vector<std::string> cells = SummaryCells(result.summaries[i], columns);
    std::optional<double> t;
    if (target_loss && i < result.records.size()) t = TimeToTarget(result.records[i], *target_loss);
    cells.push_back(target_loss ? FormatNumber(*target_loss) : "");
    cells.push_back(t ? FormatNumber(*t) : "");
    out += CsvLine(cells);
  }
  return out;
}

}  // namespace commsim
