#include "algorithms/ps/worker_uplinks.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "algorithms/codec_time.h"
#include "algorithms/sync_rounds.h"
#include "base/check.h"
#include "compression/compressors/compressor.h"
#include "models/objective.h"

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
  stream_encode_rngs_ = encode_rngs_;  // its size, kept (no allocation in Prepare)
  grads_.resize(static_cast<size_t>(pool_.threads()));
  results_.resize(static_cast<size_t>(workers));
  streamed_.resize(static_cast<size_t>(workers));
  encoders_.reserve(static_cast<size_t>(workers));
  const int groups = std::min(pool_.threads(), workers);
  group_rngs_.resize(static_cast<size_t>(groups));
  group_streams_.resize(static_cast<size_t>(groups));
  for (int g = 0; g < groups; ++g) {
    const size_t size = static_cast<size_t>((g + 1) * workers / groups - g * workers / groups);
    group_rngs_[static_cast<size_t>(g)].reserve(size);
    group_streams_[static_cast<size_t>(g)].resize(size);
  }
}

void WorkerUplinks::Prepare() {
  encoders_.clear();
  prepared_ = true;
  if (setup_.codec.mode == CodecMode::kMeasured) return;
  stream_encode_rngs_ = encode_rngs_;  // the encoders draw from these copies (read when made)
  for (int w = 0; w < static_cast<int>(results_.size()); ++w) {
    encoders_.push_back(rule_.WorkerChunkEncoder(w, stream_encode_rngs_[static_cast<size_t>(w)]));
    if (encoders_.back() == nullptr) {
      encoders_.clear();
      return;
    }
  }
}

void WorkerUplinks::Compute(double step) {
  if (!prepared_) Prepare();
  prepared_ = false;
  if (encoders_.empty()) {
    pool_.ForEach(static_cast<int64_t>(results_.size()), [this, step](int64_t w, int slot) {
      ComputeOne(static_cast<int>(w), slot, step);
    });
    return;
  }
  std::fill(streamed_.begin(), streamed_.end(), 0);
  // Captures of at most 16 bytes: the task is stored in the std::function, not on the heap.
  pool_.ForEach(static_cast<int64_t>(group_streams_.size()), [this, step](int64_t g, int slot) {
    const auto all = static_cast<int64_t>(results_.size());
    const auto groups = static_cast<int64_t>(group_streams_.size());
    const auto begin = static_cast<int>(g * all / groups);
    const auto end = static_cast<int>((g + 1) * all / groups);
    Streamed(static_cast<int>(g), begin, end);
    for (int w = begin; w < end; ++w) {
      if (streamed_[static_cast<size_t>(w)] == 0) ComputeOne(w, slot, step);
    }
  });
  encoders_.clear();
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

void WorkerUplinks::Streamed(int group, int begin, int end) {
  const Objective& objective = *setup_.objective;
  // Copies of the batch Rngs (the encoders have copies of the uplink Rngs, Prepare): the
  // originals stay for the ordinary path.
  std::vector<Rng>& rngs = group_rngs_[static_cast<size_t>(group)];
  rngs.assign(batch_rngs_.begin() + begin, batch_rngs_.begin() + end);
  std::vector<Objective::GradientStream>& streams = group_streams_[static_cast<size_t>(group)];
  for (int w = begin; w < end; ++w) {
    ChunkEncoder* encoder = encoders_[static_cast<size_t>(w)].get();
    const float* x32 = rule_.WorkerPoint32(w);  // else the double point
    streams[static_cast<size_t>(w - begin)] = {
        .worker = w,
        .x = x32 != nullptr ? nullptr : &rule_.WorkerPoint(w),
        .x32 = x32,
        .batch = EffectiveBatch(setup_, objective, w),
        .rng = &rngs[static_cast<size_t>(w - begin)],
        .sink = [encoder](const double* values, int64_t n) { encoder->Put(values, n); }};
    if (encoder->any_order()) {
      streams[static_cast<size_t>(w - begin)].sink_at =
          [encoder](int64_t at, const double* values, int64_t n) { encoder->PutAt(at, values, n); };
    }
  }
  try {
    if (!objective.StreamFiniteGradients(streams)) return;
  } catch (...) {  // kept for Take, as ComputeOne keeps its own
    for (int w = begin; w < end; ++w) {
      Result& r = results_[static_cast<size_t>(w)];
      r = Result{};
      r.error = std::current_exception();
      streamed_[static_cast<size_t>(w)] = 1;
    }
    return;
  }
  for (int w = begin; w < end; ++w) {
    const auto i = static_cast<size_t>(w - begin);
    if (!streams[i].finite) continue;
    std::optional<Message> uplink = encoders_[static_cast<size_t>(w)]->Finish();
    if (!uplink) continue;
    batch_rngs_[static_cast<size_t>(w)] = rngs[i];
    encode_rngs_[static_cast<size_t>(w)] = stream_encode_rngs_[static_cast<size_t>(w)];
    Result& r = results_[static_cast<size_t>(w)];
    r = Result{};
    r.uplink = std::move(*uplink);
    streamed_[static_cast<size_t>(w)] = 1;
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
