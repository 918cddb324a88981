// Step-size schedules gamma_t (t = 0-based iteration index).
//   constant:  gamma_t = size
//   inv_sqrt:  gamma_t = size / sqrt(t + 1)          (MALCOM-PSGD's decreasing step)
//   inv_time:  gamma_t = size / (1 + t / decay_iterations)
//   step:      gamma_t = size * factor^floor(t / decay_iterations)
#ifndef COMMSIM_ALGORITHMS_STEP_SCHEDULE_H_
#define COMMSIM_ALGORITHMS_STEP_SCHEDULE_H_

#include <cstdint>
#include <string>

#include "base/params.h"

namespace commsim {

struct StepConfig final : ConfigBase<StepConfig> {
  double size = 0.1;
  std::string schedule = "constant";
  int64_t decay_iterations = 100;
  double factor = 0.1;

  void Describe(ParamVisitor& v) override;
  double At(int64_t t) const;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_STEP_SCHEDULE_H_
