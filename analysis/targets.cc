#include "analysis/targets.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace commsim {
namespace {

constexpr const char* kMetricLoss = "loss";
constexpr const char* kMetricAccuracy = "test_accuracy";

bool Reaches(const IterationRecord& r, const RunTarget& target) {
  if (target.metric == kMetricAccuracy) {
    return r.test_accuracy && std::isfinite(*r.test_accuracy) && *r.test_accuracy >= target.value;
  }
  return std::isfinite(r.loss) && r.loss <= target.value;
}

int64_t RecordedAfterStart(const std::vector<IterationRecord>& records) {
  return std::count_if(records.begin(), records.end(),
                       [](const IterationRecord& r) { return r.iteration > 0; });
}

}  // namespace

const IterationRecord* FirstReaching(const std::vector<IterationRecord>& records,
                                     const RunTarget& target) {
  for (const IterationRecord& r : records) {
    if (Reaches(r, target)) return &r;
  }
  return nullptr;
}

std::optional<RunTarget> ChooseTarget(const RunResult& result, const TargetOptions& options,
                                      std::string* why_not) {
  if (options.target_accuracy) {
    return RunTarget{kMetricAccuracy, *options.target_accuracy,
                     "the scenario's target_accuracy (reached when test accuracy >= it)"};
  }
  if (options.target_loss) {
    return RunTarget{kMetricLoss, *options.target_loss,
                     "the scenario's target_loss (reached when loss <= it)"};
  }
  std::optional<double> worst;
  int candidates = 0;
  int64_t min_recorded = INT64_MAX;
  for (size_t i = 0; i < result.summaries.size(); ++i) {
    const RunSummary& s = result.summaries[i];
    if (s.status != kStatusOk || !std::isfinite(s.final_loss)) continue;
    ++candidates;
    worst = worst ? std::max(*worst, s.final_loss) : s.final_loss;
    if (i < result.records.size()) {
      min_recorded = std::min(min_recorded, RecordedAfterStart(result.records[i]));
    }
  }
  if (candidates < 2) {
    *why_not = "fewer than two entries finished without diverging";
    return std::nullopt;
  }
  if (min_recorded < 2) {
    *why_not =
        "fewer than two iterations recorded after the start: the time to target would "
        "repeat the run time";
    return std::nullopt;
  }
  return RunTarget{kMetricLoss, *worst,
                   fmt::format("the largest final loss among the {} entries that finished ok "
                               "(not diverged), so every one of them reaches it",
                               candidates)};
}

void ApplyTargets(RunResult& result, const TargetOptions& options) {
  result.target_omitted.clear();
  result.target = ChooseTarget(result, options, &result.target_omitted);
  for (size_t i = 0; i < result.summaries.size(); ++i) {
    RunSummary& s = result.summaries[i];
    s.time_to_target_s.reset();
    s.bits_to_target.reset();
    if (!result.target || i >= result.records.size()) continue;
    if (const IterationRecord* r = FirstReaching(result.records[i], *result.target)) {
      s.time_to_target_s = r->sim_time_s;
      s.bits_to_target = r->cum_bits;
    }
  }
}

}  // namespace commsim
