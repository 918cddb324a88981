#include "scenarios/sweep_point.h"

#include "analysis/targets.h"
#include "analysis/writers.h"

namespace commsim {

std::string PointSummaryCsv(const RunResult& result, std::optional<double> target_loss) {
  if (!target_loss) return SummaryCsv(result);
  RunResult retargeted = result;
  ApplyTargets(retargeted, TargetOptions{target_loss, std::nullopt});
  return SummaryCsv(retargeted);
}

}  // namespace commsim
