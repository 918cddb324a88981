#include "algorithms/ps/worker_uplinks.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "algorithms/codec_time.h"
#include "algorithms/compressors/compressor.h"
#include "algorithms/sync_rounds.h"
#include "models/objective.h"
#include "sim/check.h"

namespace commsim {

WorkerUplinks::WorkerUplinks(const RunSetup& setup, PsRule& rule)
    : setup_(setup),
      rule_(rule),
      pool_(RunThreads(setup, setup.objective->num_workers())),
      lent_(rule.ServerScratch()) {
  const int workers = setup.objective->num_workers();
  for (int w = 0; w < workers; ++w) {
    batch_rngs_.emplace_back(setup.seed, w, "batch");
    encode_rngs_.emplace_back(setup.seed, w, "uplink");
  }
  grads_.resize(static_cast<size_t>(pool_.threads()));
  results_.resize(static_cast<size_t>(workers));
}

void WorkerUplinks::Compute(double step) {
  pool_.ForEach(static_cast<int64_t>(results_.size()), [this, step](int64_t w, int slot) {
    ComputeOne(static_cast<int>(w), slot, step);
  });
}

void WorkerUplinks::ComputeOne(int w, int slot, double step) {
  Result& r = results_[static_cast<size_t>(w)];
  r = Result{};
  try {
    Eigen::VectorXd& grad = Buffer(slot);
    WorkerGradient(setup_, w, rule_.WorkerPoint(w), batch_rngs_[static_cast<size_t>(w)], grad);
    const WallTimer timer;
    r.uplink = rule_.WorkerEncode(w, grad, step, encode_rngs_[static_cast<size_t>(w)]);
    r.encode_wall_s = timer.Seconds();
  } catch (...) {
    r.error = std::current_exception();
  }
}

Eigen::VectorXd& WorkerUplinks::Buffer(int slot) {
  Eigen::VectorXd& buffer =
      slot == 0 && lent_ != nullptr ? *lent_ : grads_[static_cast<size_t>(slot)];
  buffer.resize(setup_.objective->dim());
  return buffer;
}

Eigen::VectorXd& WorkerUplinks::FreeBuffer() { return Buffer(0); }

Message WorkerUplinks::Take(int w, double* encode_wall_s) {
  Result& r = results_[static_cast<size_t>(w)];
  if (r.error) std::rethrow_exception(std::exchange(r.error, nullptr));
  *encode_wall_s = r.encode_wall_s;
  return std::move(r.uplink);
}

}  // namespace commsim
