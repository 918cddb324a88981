#include "algorithms/ps/model_broadcast_rule.h"

#include "models/objective.h"

namespace commsim {

ModelBroadcastRule::ModelBroadcastRule(std::unique_ptr<Compressor> uplink,
                                       std::unique_ptr<Compressor> downlink, double momentum)
    : uplink_(std::move(uplink)), downlink_(std::move(downlink)), momentum_(momentum) {}

void ModelBroadcastRule::Init(int workers, const Eigen::Ref<const Eigen::VectorXd>& x0,
                              const Objective& objective) {
  objective_ = &objective;
  x_ = x0;
  velocity_ = Eigen::VectorXd::Zero(x0.size());
  mean_.resize(x0.size());
  scratch_.resize(x0.size());
  decoded_down_.resize(x0.size());
  replicas_.assign(workers, x0);
  InitWorkers(workers, x0.size());
}

void ModelBroadcastRule::MeanOfUplinks(std::span<const Message> uplinks) {
  mean_.setZero();
  for (const Message& m : uplinks) {
    uplink_->Decode(m, scratch_);
    mean_ += scratch_;
  }
  mean_ /= static_cast<double>(uplinks.size());
}

Message ModelBroadcastRule::ServerRound(std::span<const Message> uplinks, double step, Rng& rng) {
  MeanOfUplinks(uplinks);
  ServerDirection(mean_);
  if (direction_has_step()) {
    x_ -= mean_;
  } else if (momentum_ > 0.0) {
    velocity_ = momentum_ * velocity_ + mean_;
    x_ -= step * velocity_;
  } else {
    x_ -= step * mean_;
  }
  objective_->Prox(step, x_);
  return downlink_->Encode(x_, rng);
}

void ModelBroadcastRule::DecodeDownlink(const Message& downlink) {
  downlink_->Decode(downlink, decoded_down_);
}

void ModelBroadcastRule::WorkerApply(int w, double /*step*/) { replicas_[w] = decoded_down_; }

}  // namespace commsim
