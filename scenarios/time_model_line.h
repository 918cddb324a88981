// One line that says which parts of the time model a scenario turns on, so no part of a time
// figure comes from a default the reader did not see: the network model and protocol, the compute
// model (fixed seconds or FLOPs at a device's peak times its efficiency), the codec (what encode
// and decode cost, or that they are free), layer-wise overlap and the framework profile. Printed
// under `commsim run`'s table, stored as summary.json's `time_model` and shown by the report.
#ifndef COMMSIM_SCENARIOS_TIME_MODEL_LINE_H_
#define COMMSIM_SCENARIOS_TIME_MODEL_LINE_H_

#include <string>

#include "scenarios/scenario.h"

namespace commsim {

// E.g. "network flow, protocol none; compute fixed 50 ms; codec none (encode and decode take no
// time); overlap none; framework ideal (no per-call or per-message costs)".
std::string TimeModelLine(const Scenario& scenario);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_TIME_MODEL_LINE_H_
