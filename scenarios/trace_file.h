// Trace files: a run's trajectories (algorithms/trajectory.h) with the resolved scenario they
// belong to, written by `commsim run --trace` as trace.txt in the run folder and read by
// `commsim retime`.
//
// Format (version 2): UTF-8 text, one item per line, fields separated by one space; numbers in
// decimal (reals in the shortest form that reads back to the same double: nan, inf, -inf
// allowed). Text rather than binary: a trace is small (shapes are stored once and equal rounds
// are run-length coded, so a 1000-iteration SGD run is a few lines), it can be read with `head`
// and compared with `diff`, and every value reads back bit for bit.
//   commsim-trace 2 bytes <count> crc32 <hex>
//                                   the integrity line: the byte count and the crc32
//                                   (scenarios/checksum.h, 8 lower-case hex digits) of everything
//                                   after it; a trace cut short, extended or changed is refused
//                                   before it is parsed, and so is version 1 (no checksum)
//   base_dir <JSON string>          folder the scenario's relative data paths resolve against
//   scenario <JSON object>          the scenario document as run (the file with --set applied),
//                                   on one line
//   entry <index> <label>           an entry of the scenario (0-based), followed by its data:
//   shape <id> <bits> <codec> <elements> <nonzeros> <parts>
//                                   message shape <id> (0, 1, ... in order); codec: a registered
//                                   compressor or `-`; then <parts> lines
//   part <bits> <codec> <elements> <nonzeros>
//   rounds <count> <slot>...        the next <count> rounds carry these messages, one shape id per
//                                   slot (parameter server: workers' uplinks, then the downlink),
//                                   `-` for none
//   record <iteration> <loss> <dist_to_opt_sq> <test_accuracy> <consensus_dist> <density>
//          [<key>=<value>...]       a recorded iteration's learning fields (`-` = none); extras
//   end                             the last line
// Entries without a trajectory (other families, runs that did not end ok, codec mode measured)
// are absent: `retime` runs them in full. A bad file is a UserError "<file>:<line>: expected
// ..., got ...".
#ifndef COMMSIM_SCENARIOS_TRACE_FILE_H_
#define COMMSIM_SCENARIOS_TRACE_FILE_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/trajectory.h"

namespace commsim {

class TrajectoryStore;

inline constexpr int kTraceVersion = 2;
inline constexpr std::string_view kTraceFileName = "trace.txt";

struct TraceEntry {
  std::string label;
  Trajectory trajectory;
};

struct TraceFile {
  std::string base_dir;
  nlohmann::json scenario;               // the scenario document
  std::map<size_t, TraceEntry> entries;  // by entry index
};

// The trace text of a run of scenario document `scenario`: `labels` are the scenario's entry
// labels, in order; the trajectories are those `store` holds for them.
std::string TraceText(const nlohmann::json& scenario, const std::string& base_dir,
                      const std::vector<std::string>& labels, const TrajectoryStore& store);

// The integrity line (without its newline) of a trace whose lines after it are `body`.
std::string TraceIntegrityLine(std::string_view body);
// Throws UserError "<origin>...: ..." unless `text` starts with a version-2 integrity line that
// matches the rest: saying whether it was cut short, extended or changed, or is version 1.
void CheckTraceIntegrity(std::string_view text, const std::string& origin);
// `text` with its first line replaced by the integrity line of the rest: for tests and the fuzz
// driver, which change traces on purpose and then want the parser to see them.
std::string ResealTrace(std::string_view text);

// Checks the integrity line (CheckTraceIntegrity), then parses trace text; `origin` names it in
// messages. Throws UserError.
TraceFile ParseTrace(std::string_view text, const std::string& origin);
// Reads and parses a trace file. Throws UserError.
TraceFile ReadTraceFile(const std::string& path);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_TRACE_FILE_H_
