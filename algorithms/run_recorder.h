// RunRecorder: the bookkeeping every algorithm driver shares — per-iteration timing and bits,
// the metrics cadence, divergence detection and the run summary.
//
// Usage: Start(evaluate) once at t = 0 (records iteration 0), then EndIteration(...) after each
// iteration; it returns false when the run must stop (diverged). Finish() produces the outputs.
// `evaluate` fills loss and the optional metrics of a record; it is called only for iterations
// that are recorded (iteration 0, every metrics_every-th, and the last).
#ifndef COMMSIM_ALGORITHMS_RUN_RECORDER_H_
#define COMMSIM_ALGORITHMS_RUN_RECORDER_H_

#include <functional>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "analysis/records.h"
#include "sim/time.h"

namespace commsim {

struct IterationTiming {
  SimTime start;
  SimTime end;
  SimTime compute;  // the slowest worker's compute time
  int64_t bits_up = 0;
  int64_t bits_down = 0;
};

class RunRecorder {
 public:
  using Evaluate = std::function<void(IterationRecord&)>;

  RunRecorder(const RunSetup& setup, std::string algorithm, std::string family);

  void Start(const Evaluate& evaluate);
  // `iteration` is 1-based. Returns false once the run has diverged.
  bool EndIteration(int64_t iteration, const IterationTiming& timing, const Evaluate& evaluate);
  // Summary extras (e.g. spectral gap) to copy into the summary.
  void SetSummaryExtra(const std::string& key, double value) { summary_.extra[key] = value; }
  void Finish(std::vector<IterationRecord>* records, RunSummary* summary);

  int64_t cum_bits() const { return cum_bits_; }
  bool diverged() const { return !records_.empty() && records_.back().status == kStatusDiverged; }

 private:
  bool Diverged(const IterationRecord& r) const;

  const RunSetup& setup_;
  std::vector<IterationRecord> records_;
  RunSummary summary_;
  int64_t cum_bits_ = 0;
  double sum_iter_s_ = 0, sum_compute_s_ = 0;
  int64_t completed_ = 0;
  SimTime now_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_RUN_RECORDER_H_
