// The compact comparison table `commsim run` prints.
#ifndef COMMSIM_SCENARIOS_TABLE_H_
#define COMMSIM_SCENARIOS_TABLE_H_

#include <string>

#include "analysis/records.h"

namespace commsim {

std::string ComparisonTable(const RunResult& result);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_TABLE_H_
