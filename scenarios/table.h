// The compact comparison table `commsim run` prints: one row per entry (bits per iteration, per
// worker and per parameter, bits relative to the entry's baseline), a line saying what the bits
// columns sum, the time model's line (RunResult::time_model), then the reason of every entry not
// "ok" and the time to target when the run has one.
#ifndef COMMSIM_SCENARIOS_TABLE_H_
#define COMMSIM_SCENARIOS_TABLE_H_

#include <string>

#include "records/records.h"

namespace commsim {

std::string ComparisonTable(const RunResult& result);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_TABLE_H_
