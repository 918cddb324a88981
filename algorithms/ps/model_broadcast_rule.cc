#include "algorithms/ps/model_broadcast_rule.h"

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

void ModelBroadcastRule::ServerReceiveRun(int w, std::span<const Message* const> uplinks) {
  uplink_->DecodeSumInto(uplinks, SumFrom(w));
}

// x <- x - step * (sum / n) in one pass when the direction is the mean: per element the same
// operations as the separate passes (mean = sum / n; x -= step * mean), the mean not stored.
// Returns whether every x_j is finite afterwards.
bool ModelBroadcastRule::StepByMean(double step) {
  const double n = static_cast<double>(workers());
  const double* sum = mean_.data();
  double* x = x_.data();
  uint64_t bad = 0;
  for (Eigen::Index j = 0; j < x_.size(); ++j) {
    const double mean = sum[j] / n;
    x[j] -= step * mean;
    bad |= NonFiniteFlag(x[j]);
  }
  return (bad >> 63) == 0;
}

Message ModelBroadcastRule::ServerRound(double step, Rng& rng) {
  model_finite_ = false;
  if (direction_is_mean() && momentum_ == 0.0 && !direction_has_step()) {
    model_finite_ = StepByMean(step);  // the prox keeps a finite x finite
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
  return downlink_->EncodeWithDecoded(x_, rng, DecodeTarget(replica_));
}

// The downlink is the model: the worker's replica is the decoded message (without
// verify_replicas, the one ServerRound decoded already).
void ModelBroadcastRule::WorkerReceive(int w, const Message& downlink, double /*step*/) {
  if (!replicas_.verify()) return;
  downlink_->Decode(downlink, replicas_.Own(w));
  replicas_.Check(w, replica_);
}

}  // namespace commsim
