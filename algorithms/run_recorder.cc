#include "algorithms/run_recorder.h"

#include <cmath>

namespace commsim {

RunRecorder::RunRecorder(const RunSetup& setup, std::string algorithm, std::string family)
    : setup_(setup) {
  summary_.name = setup.label;
  summary_.algorithm = std::move(algorithm);
  summary_.family = std::move(family);
}

void RunRecorder::Start(const Evaluate& evaluate) {
  IterationRecord r;
  r.algorithm = setup_.label;
  r.iteration = 0;
  evaluate(r);
  if (Diverged(r)) r.status = kStatusDiverged;
  summary_.status = r.status;
  records_.push_back(std::move(r));
}

bool RunRecorder::EndIteration(int64_t iteration, const IterationTiming& timing,
                               const Evaluate& evaluate) {
  const double iter_s = (timing.end - timing.start).seconds();
  const double compute_s = timing.compute.seconds();
  cum_bits_ += timing.bits_up + timing.bits_down;
  summary_.bits_up += timing.bits_up;
  summary_.bits_down += timing.bits_down;
  sum_iter_s_ += iter_s;
  sum_compute_s_ += compute_s;
  completed_ = iteration;
  now_ = timing.end;
  const bool last = iteration >= setup_.iterations;
  const bool due = setup_.metrics_every <= 1 || iteration % setup_.metrics_every == 0;
  if (!last && !due) return true;

  IterationRecord r;
  r.algorithm = setup_.label;
  r.iteration = iteration;
  r.sim_time_s = timing.end.seconds();
  r.iter_time_s = iter_s;
  r.compute_time_s = compute_s;
  r.comm_time_s = iter_s - compute_s;
  r.bits_up = timing.bits_up;
  r.bits_down = timing.bits_down;
  r.cum_bits = cum_bits_;
  evaluate(r);
  const bool diverged = Diverged(r);
  if (diverged) r.status = kStatusDiverged;
  records_.push_back(std::move(r));
  return !diverged;
}

bool RunRecorder::Diverged(const IterationRecord& r) const {
  return !std::isfinite(r.loss) || r.loss > setup_.divergence_loss;
}

void RunRecorder::Finish(std::vector<IterationRecord>* records, RunSummary* summary) {
  const IterationRecord& last = records_.back();
  summary_.status = last.status;
  summary_.iterations = completed_;
  summary_.final_loss = last.loss;
  summary_.final_dist_to_opt_sq = last.dist_to_opt_sq;
  summary_.final_test_accuracy = last.test_accuracy;
  summary_.final_consensus_dist = last.consensus_dist;
  summary_.final_density = last.density;
  summary_.total_bits = cum_bits_;
  if (completed_ > 0) {
    summary_.mean_iter_time_s = sum_iter_s_ / static_cast<double>(completed_);
    summary_.mean_compute_time_s = sum_compute_s_ / static_cast<double>(completed_);
    summary_.mean_comm_time_s = summary_.mean_iter_time_s - summary_.mean_compute_time_s;
  }
  summary_.sim_time_s = now_.seconds();
  *records = std::move(records_);
  *summary = std::move(summary_);
}

}  // namespace commsim
