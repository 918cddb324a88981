#include "algorithms/run_recorder.h"

#include <fmt/format.h>

#include <cmath>

#include "algorithms/trajectory.h"
#include "models/objective.h"

namespace commsim {

RunRecorder::RunRecorder(const RunSetup& setup, std::string algorithm, Family family)
    : setup_(setup) {
  summary_.name = setup.label;
  summary_.algorithm = std::move(algorithm);
  summary_.family = std::string(FamilyName(family));
  summary_.codec = setup.codec.Describe();
}

void RunRecorder::Learning(const Evaluate& evaluate, IterationRecord& r) const {
  if (setup_.replay != nullptr) {
    setup_.replay->FillLearning(r);
  } else {
    evaluate(r);
  }
}

void RunRecorder::Start(const Evaluate& evaluate) {
  IterationRecord r;
  r.algorithm = setup_.label;
  r.iteration = 0;
  Learning(evaluate, r);
  initial_loss_ = r.loss;
  const std::string reason = DivergenceReason(r);
  if (!reason.empty()) {
    r.status = kStatusDiverged;
    summary_.status = kStatusDiverged;
    summary_.message = fmt::format("at iteration 0: {}", reason);
  }
  records_.push_back(std::move(r));
}

IterationRecord RunRecorder::Account(int64_t iteration, const IterationTiming& timing) {
  const double iter_s = (timing.end - timing.start).seconds();
  const double compute_s = timing.compute.seconds();
  const double codec_s = timing.codec.seconds();
  const double saved_s = timing.overlap_saved.seconds();
  cum_bits_ += timing.up.bits + timing.down.bits;
  summary_.bits_up += timing.up.bits;
  summary_.bits_down += timing.down.bits;
  summary_.wire_bytes += timing.up.bytes + timing.down.bytes;
  sum_iter_s_ += iter_s;
  sum_compute_s_ += compute_s;
  sum_codec_s_ += codec_s;
  sum_saved_s_ += saved_s;
  completed_ = iteration;
  now_ = timing.end;
  IterationRecord r;
  r.algorithm = setup_.label;
  r.iteration = iteration;
  r.sim_time_s = timing.end.seconds();
  r.iter_time_s = iter_s;
  r.compute_time_s = compute_s;
  r.codec_time_s = codec_s;
  r.comm_time_s = iter_s - compute_s - codec_s;
  r.overlap_saved_s = saved_s;
  r.bits_up = timing.up.bits;
  r.bits_down = timing.down.bits;
  r.wire_bytes = timing.up.bytes + timing.down.bytes;
  r.cum_bits = cum_bits_;
  return r;
}

bool RunRecorder::EndIteration(int64_t iteration, const IterationTiming& timing,
                               const Evaluate& evaluate) {
  IterationRecord r = Account(iteration, timing);
  if (setup_.on_iteration) setup_.on_iteration(iteration);
  const bool last = iteration >= setup_.iterations;
  const bool due = setup_.metrics_every <= 1 || iteration % setup_.metrics_every == 0;
  if (!last && !due) return true;
  Learning(evaluate, r);
  const std::string reason = DivergenceReason(r);
  if (!reason.empty()) {
    r.status = kStatusDiverged;
    summary_.status = kStatusDiverged;
    summary_.message = fmt::format("at iteration {}: {}", iteration, reason);
  }
  records_.push_back(std::move(r));
  return reason.empty();
}

void RunRecorder::Stop(int64_t iteration, const IterationTiming& timing, const char* status,
                       const std::string& message, const Evaluate& evaluate) {
  IterationRecord r = Account(iteration, timing);
  try {
    Learning(evaluate, r);
  } catch (...) {
    r.loss = NAN;
  }
  r.status = status;
  summary_.status = status;
  summary_.message = fmt::format("at iteration {}: {}", iteration, message);
  records_.push_back(std::move(r));
}

std::string RunRecorder::DivergenceReason(const IterationRecord& r) const {
  if (!std::isfinite(r.loss)) return fmt::format("loss is {}", r.loss);
  if (r.loss > setup_.divergence_loss) {
    return fmt::format("loss {:.6g} > divergence_loss {:.6g}", r.loss, setup_.divergence_loss);
  }
  if (r.iteration > 0 && std::isfinite(initial_loss_) && initial_loss_ > 0 &&
      r.loss > setup_.divergence_factor * initial_loss_) {
    return fmt::format("loss {:.6g} > divergence_factor {:.6g} x initial loss {:.6g}", r.loss,
                       setup_.divergence_factor, initial_loss_);
  }
  return "";
}

void RunRecorder::Finish(std::vector<IterationRecord>* records, RunSummary* summary) {
  const IterationRecord& last = records_.back();
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
    summary_.mean_codec_time_s = sum_codec_s_ / static_cast<double>(completed_);
    summary_.mean_comm_time_s =
        summary_.mean_iter_time_s - summary_.mean_compute_time_s - summary_.mean_codec_time_s;
    summary_.mean_overlap_saved_s = sum_saved_s_ / static_cast<double>(completed_);
    const auto iterations = static_cast<double>(completed_);
    summary_.bits_per_iteration = static_cast<double>(cum_bits_) / iterations;
    if (setup_.objective != nullptr) {
      const double worker_iterations = iterations * setup_.objective->num_workers();
      summary_.bits_up_per_worker = static_cast<double>(summary_.bits_up) / worker_iterations;
      summary_.bits_down_per_worker = static_cast<double>(summary_.bits_down) / worker_iterations;
      summary_.bits_per_parameter =
          summary_.bits_up_per_worker / static_cast<double>(setup_.objective->dim());
    }
  }
  summary_.sim_time_s = now_.seconds();
  *records = std::move(records_);
  *summary = std::move(summary_);
}

void ConfigureEngine(Engine& engine, const RunSetup& setup) {
  engine.set_max_events(static_cast<uint64_t>(setup.limits.max_events));
  if (!setup.on_events) return;
  engine.set_heartbeat(static_cast<uint64_t>(setup.events_every), [&engine, &setup] {
    setup.on_events(static_cast<int64_t>(engine.events_processed()), engine.Now().seconds());
  });
}

}  // namespace commsim
