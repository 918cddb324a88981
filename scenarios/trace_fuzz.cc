// libFuzzer driver: a trace file (scenarios/trace_file.h) through ParseTrace, as it is and with its
// first line replaced by the integrity line of the rest (ResealTrace), then every message
// and record of every entry replayed, and the trace written again and read back: it must give the
// same shapes, rounds and records. A bad trace is a UserError; anything else is a finding.
#include <cmath>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "base/fuzz_support.h"
#include "scenarios/trace_file.h"
#include "scenarios/trajectory_reuse.h"

namespace {

// Same value, NaN equal to NaN.
bool Same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

void CheckSame(const commsim::Trajectory& a, const commsim::Trajectory& b) {
  using commsim::fuzz::FuzzCheck;
  FuzzCheck(a.shapes() == b.shapes(), "shapes changed in a write and read");
  FuzzCheck(a.runs() == b.runs() && a.rounds() == b.rounds(), "rounds changed in a write and read");
  FuzzCheck(a.learning().size() == b.learning().size(), "records changed in a write and read");
  for (size_t i = 0; i < a.learning().size(); ++i) {
    FuzzCheck(Same(a.learning()[i].loss, b.learning()[i].loss), "a loss changed");
    FuzzCheck(a.learning()[i].extra.size() == b.learning()[i].extra.size(), "extras changed");
  }
}

void FuzzOneTrace(std::string_view raw) {
  using namespace commsim;
  // The input as it is (almost always refused by its integrity line), then resealed so that the
  // parser sees every line.
  try {
    ParseTrace(raw, "fuzz_trace.txt");
  } catch (const UserError&) {
  }
  const std::string text = ResealTrace(raw);
  const TraceFile trace = ParseTrace(text, "fuzz_trace.txt");
  TrajectoryStore store;
  std::vector<std::string> labels;
  for (const auto& [index, entry] : trace.entries) {
    const Trajectory& t = entry.trajectory;
    int64_t first = 1;  // the first round of each run, and its last
    for (const RoundRun& run : t.runs()) {
      for (size_t slot = 0; slot < run.slots.size(); ++slot) {
        for (int64_t k : {first, first + run.count - 1}) {
          if (run.slots[slot] == Trajectory::kNoMessage) continue;
          fuzz::FuzzCheck(ShapeOf(t.MessageAt(k, static_cast<int>(slot))) ==
                              t.shapes()[static_cast<size_t>(run.slots[slot])],
                          "a round's message is not its run's shape");
        }
      }
      first += run.count;
    }
    for (IterationRecord r : t.learning()) t.FillLearning(r);
    labels.resize(index + 1, "x");
    labels[index] = entry.label;
    store.Publish(index, std::make_shared<const Trajectory>(t));
  }
  const TraceFile again =
      ParseTrace(TraceText(trace.scenario, trace.base_dir, labels, store), "again");
  fuzz::FuzzCheck(again.entries.size() == trace.entries.size(), "entries changed");
  for (const auto& [index, entry] : trace.entries) {
    CheckSame(entry.trajectory, again.entries.at(index).trajectory);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return commsim::fuzz::FuzzText(data, size, 16384, FuzzOneTrace);
}
