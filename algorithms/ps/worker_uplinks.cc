#include "algorithms/ps/worker_uplinks.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
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
    if (Streamed(w, r)) return;
    Eigen::VectorXd& grad = Buffer(slot);
    WorkerGradient(setup_, w, rule_.WorkerPoint(w), batch_rngs_[static_cast<size_t>(w)], grad);
    const WallTimer timer;
    r.uplink = rule_.WorkerEncode(w, grad, step, encode_rngs_[static_cast<size_t>(w)]);
    r.encode_wall_s = timer.Seconds();
  } catch (...) {
    r.error = std::current_exception();
  }
}

bool WorkerUplinks::Streamed(int w, Result& r) {
  if (setup_.codec.mode == CodecMode::kMeasured) return false;
  const std::unique_ptr<ChunkEncoder> encoder = rule_.WorkerChunkEncoder(w);
  if (encoder == nullptr) return false;
  const Objective& objective = *setup_.objective;
  Rng rng = batch_rngs_[static_cast<size_t>(w)];  // kept for the ordinary path
  const std::optional<bool> finite = objective.StreamFiniteGradient(
      w, rule_.WorkerPoint(w), EffectiveBatch(setup_, objective, w), rng,
      [&encoder](const double* values, int64_t n) { encoder->Put(values, n); });
  if (!finite.value_or(false)) return false;
  std::optional<Message> uplink = encoder->Finish();
  if (!uplink) return false;
  batch_rngs_[static_cast<size_t>(w)] = rng;
  r.uplink = std::move(*uplink);
  return true;
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
