// TraceText and ReadTraceFile (trace_file.h); the parser is in trace_parse.cc.
#include "scenarios/trace_file.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>

#include "base/check.h"
#include "base/error.h"
#include "base/input_file.h"
#include "scenarios/trajectory_reuse.h"

namespace commsim {
namespace {

std::string Codec(std::string_view codec) { return codec.empty() ? "-" : std::string(codec); }

std::string Real(std::optional<double> v) { return v ? fmt::format("{}", *v) : "-"; }

void WriteShape(const MessageShape& s, size_t id, std::string& out) {
  out += fmt::format("shape {} {} {} {} {} {}\n", id, s.payload_bits, Codec(s.codec), s.elements,
                     s.nonzeros, s.parts.size());
  for (const MessageShape& p : s.parts) {
    COMMSIM_CHECK(p.parts.empty(), "a message part with parts of its own");
    out +=
        fmt::format("part {} {} {} {}\n", p.payload_bits, Codec(p.codec), p.elements, p.nonzeros);
  }
}

void WriteRounds(const std::vector<RoundRun>& runs, std::string& out) {
  for (const RoundRun& run : runs) {
    out += fmt::format("rounds {}", run.count);
    for (int32_t id : run.slots) {
      out += id == Trajectory::kNoMessage ? std::string(" -") : fmt::format(" {}", id);
    }
    out += '\n';
  }
}

void WriteRecord(const IterationRecord& r, std::string& out) {
  out += fmt::format("record {} {} {} {} {} {}", r.iteration, Real(r.loss), Real(r.dist_to_opt_sq),
                     Real(r.test_accuracy), Real(r.consensus_dist), Real(r.density));
  for (const auto& [key, value] : r.extra) {
    COMMSIM_CHECK(key.find_first_of(" =\n") == std::string::npos && !key.empty(),
                  "extra column name {:?} cannot be written to a trace", key);
    out += fmt::format(" {}={}", key, value);
  }
  out += '\n';
}

}  // namespace

std::string TraceText(const nlohmann::json& scenario, const std::string& base_dir,
                      const std::vector<std::string>& labels, const TrajectoryStore& store) {
  std::string out = "base_dir " + nlohmann::json(base_dir).dump() + "\n";
  out += "scenario " + scenario.dump() + "\n";
  for (size_t i = 0; i < labels.size(); ++i) {
    const std::shared_ptr<const Trajectory> t = store.Find(i);
    if (t == nullptr) continue;
    out += fmt::format("entry {} {}\n", i, labels[i]);
    for (size_t id = 0; id < t->shapes().size(); ++id) WriteShape(t->shapes()[id], id, out);
    WriteRounds(t->runs(), out);
    for (const IterationRecord& r : t->learning()) WriteRecord(r, out);
  }
  out += "end\n";
  return TraceIntegrityLine(out) + "\n" + out;
}

TraceFile ReadTraceFile(const std::string& path) {
  const std::string text = ReadInputFile(
      path, {.noun = "trace file", .max_bytes = uintmax_t{1} << 30, .max_shown = "1 GiB"});
  return ParseTrace(text, path);
}

}  // namespace commsim
