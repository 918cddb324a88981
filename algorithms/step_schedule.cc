#include "algorithms/step_schedule.h"

#include <array>
#include <cmath>

namespace commsim {

void StepConfig::Describe(ParamVisitor& v) {
  static constexpr std::array<std::string_view, 4> kSchedules = {"constant", "inv_sqrt", "inv_time",
                                                                 "step"};
  v.Real("size", size, Range::Positive(), "step size gamma (gamma_0 for decaying schedules)");
  v.Text("schedule", schedule, kSchedules, "how gamma_t changes with the iteration t");
  v.Int("decay_iterations", decay_iterations, Range::AtLeast(1),
        "time scale of inv_time, period of step");
  v.Real("factor", factor, Range::OpenClosed(0, 1), "multiplier per period (schedule step)");
}

double StepConfig::At(int64_t t) const {
  const double td = static_cast<double>(t);
  if (schedule == "inv_sqrt") return size / std::sqrt(td + 1.0);
  if (schedule == "inv_time") return size / (1.0 + td / static_cast<double>(decay_iterations));
  if (schedule == "step") {
    return size * std::pow(factor, std::floor(td / static_cast<double>(decay_iterations)));
  }
  return size;
}

}  // namespace commsim
