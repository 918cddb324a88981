#include "algorithms/ps/model_broadcast_rule.h"

#include <memory>
#include <optional>
#include <utility>

#include "models/objective.h"
#include "sim/finite.h"

namespace commsim {

ModelBroadcastRule::ModelBroadcastRule(const PsLinkKeys& links, double momentum)
    : uplink_(MakeLink(links.uplink)),
      downlink_(MakeLink(links.downlink)),
      momentum_(momentum),
      verify_replicas_(links.verify_replicas) {}

void ModelBroadcastRule::Init(int workers, const Eigen::Ref<const Eigen::VectorXd>& x0,
                              const Objective& objective) {
  objective_ = &objective;
  workers_ = workers;
  x_ = x0;
  velocity_ = momentum_ > 0.0 ? Eigen::VectorXd::Zero(x0.size()) : Eigen::VectorXd();
  replica_ = x0;
  kept_.Clear();
  replicas_.Init(workers, x0, verify_replicas_, "model");
  InitWorkers(workers, x0.size());
}

DecodeTarget ModelBroadcastRule::SumFrom(int w) {
  if (w == 0) mean_.setZero(x_.size());  // mean_ may have held x0 (ServerScratch)
  return DecodeTarget(mean_, mean_, 1.0);
}

void ModelBroadcastRule::ServerReceive(int w, const Message& uplink) {
  uplink_->DecodeInto(uplink, SumFrom(w));
}

// Every uplink of the round at once (n > 1: the measured codec mode takes them one by one and
// times each) with a mean-direction step: kept for ServerRound, which decodes them and steps in
// one pass (ps_rule.h: they stay valid until then).
void ModelBroadcastRule::ServerReceiveRun(int w, std::span<const Message* const> uplinks) {
  if (StepsByMean() && kept_.KeepIfWholeRound(w, uplinks, workers())) return;
  uplink_->DecodeSumInto(uplinks, SumFrom(w));
}

bool ModelBroadcastRule::StepsByMean() const {
  return direction_is_mean() && momentum_ == 0.0 && !direction_has_step();
}

namespace {

// x_j <- x_j - step * (sum_j / n) for j in [begin, end), sum_j = sum[j - begin], ORing the new
// x_j's NonFiniteFlag into bad: the operations of the separate passes (mean = sum / n;
// x -= step * mean), the mean not stored. The new chunk of x then goes to `down` (if any) while
// it is in cache.
struct MeanStep {
  double* x;
  double n, step;
  ChunkEncoder* down;
  uint64_t bad = 0;
  void operator()(int64_t begin, int64_t end, const double* sum) {
    for (int64_t j = begin; j < end; ++j) {
      const double mean = sum[j - begin] / n;
      x[j] -= step * mean;
      bad |= NonFiniteFlag(x[j]);
    }
    if (down != nullptr) down->Put(x + begin, end - begin);
  }
};

}  // namespace

// The step by the mean of the sum in mean_, or of the uplinks kept by ServerReceiveRun (summed
// chunk by chunk, the step taken on each while it is in cache; mean_ is the scratch), each new
// chunk of x put into `down` (if not null). Returns whether x is finite.
bool ModelBroadcastRule::StepByMean(double step, ChunkEncoder* down) {
  mean_.resize(x_.size());  // a no-op unless it was lent empty
  MeanStep apply{x_.data(), static_cast<double>(workers()), step, down};
  // One pointer captured: held inside the std::function, no allocation.
  kept_.ForEachSumChunk(
      *uplink_, mean_,
      [a = &apply](int64_t begin, int64_t end, const double* sum) { (*a)(begin, end, sum); });
  return (apply.bad >> 63) == 0;
}

Message ModelBroadcastRule::ServerRound(double step, Rng& rng) {
  model_finite_ = false;
  const DecodeTarget to_replica(replica_);
  if (StepsByMean()) {
    // Without a prox to follow, the downlink encodes x as the step makes it, chunk by chunk (a
    // downlink that can: one that draws no random numbers), and delivers the workers' model.
    const std::unique_ptr<ChunkEncoder> down =
        objective_->l1() > 0.0 ? nullptr : downlink_->ChunkEncode(x_.size(), &to_replica);
    model_finite_ = StepByMean(step, down.get());  // the prox keeps a finite x finite
    if (down != nullptr) {
      std::optional<Message> message = down->Finish();
      if (message)
        return std::move(*message);  // else x is not on the wire: encode it for the error
    }
  } else {
    mean_ /= static_cast<double>(workers());
    ServerDirection(mean_);
    if (direction_has_step()) {
      x_ -= mean_;
    } else if (momentum_ > 0.0) {
      velocity_ = momentum_ * velocity_ + mean_;
      x_ -= step * velocity_;
    } else {
      x_ -= step * mean_;
    }
  }
  objective_->Prox(step, x_);
  // The workers' model is the decoded downlink, delivered by the encoder from its own pass.
  return downlink_->EncodeWithDecoded(x_, rng, to_replica);
}

// The downlink is the model: the worker's replica is the decoded message (without
// verify_replicas, the one ServerRound decoded already).
void ModelBroadcastRule::WorkerReceive(int w, const Message& downlink, double /*step*/) {
  if (!replicas_.verify()) return;
  downlink_->Decode(downlink, replicas_.Own(w));
  replicas_.Check(w, replica_);
}

}  // namespace commsim
