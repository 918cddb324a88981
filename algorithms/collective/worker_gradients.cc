#include "algorithms/collective/worker_gradients.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "algorithms/sync_rounds.h"
#include "base/check.h"
#include "compression/compressors/compressor.h"
#include "models/objective.h"

namespace commsim {
WorkerGradients::WorkerGradients(const RunSetup& setup, const CollectiveRule& rule,
                                 int64_t scratch_dim)
    : setup_(setup), rule_(rule), pool_(RunThreads(setup, setup.objective->num_workers())) {
  const int workers = setup.objective->num_workers();
  for (int w = 0; w < workers; ++w) batch_rngs_.emplace_back(setup.seed, w, "batch");
  const auto threads = static_cast<size_t>(pool_.threads());
  grads_.assign(threads, Eigen::VectorXd(setup.objective->dim()));
  scratch_.assign(threads, Eigen::VectorXd(scratch_dim));
  results_.resize(static_cast<size_t>(workers));
}

void WorkerGradients::Compute(const First& first, const Local& local) {
  pool_.ForEach(static_cast<int64_t>(results_.size()), [this, &first, &local](int64_t w, int slot) {
    ComputeOne(static_cast<int>(w), slot, first, local);
  });
}

void WorkerGradients::ComputeOne(int w, int slot, const First& first, const Local& local) {
  Result& r = results_[static_cast<size_t>(w)];
  r = Result{};
  try {
    Eigen::VectorXd& grad = grads_[static_cast<size_t>(slot)];
    Rng& batches = batch_rngs_[static_cast<size_t>(w)];
    for (int s = 1; s < rule_.LocalSteps(); ++s) {
      WorkerGradient(setup_, w, rule_.WorkerPoint(w), batches, grad);
      local(w, grad);
    }
    WorkerGradient(setup_, w, rule_.WorkerPoint(w), batches, grad);
    r.message = first(w, grad, scratch_[static_cast<size_t>(slot)]);
  } catch (...) {
    r.error = std::current_exception();
  }
}

Message WorkerGradients::Take(int w) {
  Result& r = results_[static_cast<size_t>(w)];
  if (r.error) std::rethrow_exception(std::exchange(r.error, nullptr));
  return std::move(r.message);
}

}  // namespace commsim
