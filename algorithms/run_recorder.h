// RunRecorder: the bookkeeping every algorithm driver shares — per-iteration timing and bits,
// the metrics cadence, divergence detection, early stops and the run summary.
//
// Usage: Start(evaluate) once at t = 0 (records iteration 0), then EndIteration(...) after each
// iteration; it returns false when the run must stop (diverged). A driver that cannot finish an
// iteration (a non-finite value, an exception) calls Stop(...) instead. Finish() produces the
// outputs. `evaluate` fills loss and the optional metrics of a record; it is called only for
// iterations that are recorded (iteration 0, every metrics_every-th, the last, and a stop).
// Replaying a trajectory (RunSetup::replay), the recorded learning fields stand in for
// `evaluate`, which is then never called.
// Divergence at a recorded iteration: the loss is NaN/Inf, above setup.divergence_loss, or above
// setup.divergence_factor times the initial loss (when that is finite and > 0).
#ifndef COMMSIM_ALGORITHMS_RUN_RECORDER_H_
#define COMMSIM_ALGORITHMS_RUN_RECORDER_H_

#include <functional>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/message_send.h"
#include "records/records.h"
#include "sim/engine.h"
#include "sim/time.h"

namespace commsim {

struct IterationTiming {
  SimTime start;
  SimTime end;
  SimTime compute;            // the slowest worker's compute time
  SimTime codec = SimTime();  // codec time on the critical path (records/records.h codec_time_s)
  SimTime overlap_saved = SimTime();  // records/records.h overlap_saved_s
  WireTally up;    // worker -> server, node -> neighbour, or every collective step
  WireTally down;  // server -> workers
};

class RunRecorder {
 public:
  using Evaluate = std::function<void(IterationRecord&)>;

  RunRecorder(const RunSetup& setup, std::string algorithm, Family family);

  void Start(const Evaluate& evaluate);
  // `iteration` is 1-based. Returns false once the run has diverged.
  bool EndIteration(int64_t iteration, const IterationTiming& timing, const Evaluate& evaluate);
  // Ends the run inside `iteration` (its timing and bits so far are counted): records it with
  // `status` (kStatusDiverged or kStatusError) and `message`. An exception from `evaluate` is
  // swallowed (the record's loss is then NaN).
  void Stop(int64_t iteration, const IterationTiming& timing, const char* status,
            const std::string& message, const Evaluate& evaluate);
  // Summary extras (e.g. spectral gap) to copy into the summary.
  void SetSummaryExtra(const std::string& key, double value) { summary_.extra[key] = value; }
  void Finish(std::vector<IterationRecord>* records, RunSummary* summary);

  int64_t cum_bits() const { return cum_bits_; }
  bool stopped() const { return summary_.status != kStatusOk; }

 private:
  // Counts an iteration's time and bits; returns the record with its timing columns filled.
  IterationRecord Account(int64_t iteration, const IterationTiming& timing);
  // Fills r's learning fields: evaluate(r), or from the replayed trajectory.
  void Learning(const Evaluate& evaluate, IterationRecord& r) const;
  // "" when the record's loss is fine, else why the run diverged.
  std::string DivergenceReason(const IterationRecord& r) const;

  const RunSetup& setup_;
  std::vector<IterationRecord> records_;
  RunSummary summary_;
  double initial_loss_ = 0;
  int64_t cum_bits_ = 0;
  double sum_iter_s_ = 0, sum_compute_s_ = 0, sum_codec_s_ = 0, sum_saved_s_ = 0;
  int64_t completed_ = 0;
  SimTime now_;
};

// Sets a driver's engine up from the run's setup: the event limit (limits.max_events) and the
// heartbeat that reports progress (on_events, every events_every events).
void ConfigureEngine(Engine& engine, const RunSetup& setup);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_RUN_RECORDER_H_
