#include "algorithms/ps/model_broadcast_rule.h"

#include "models/objective.h"

namespace commsim {

ModelBroadcastRule::ModelBroadcastRule(const ComponentSpec& uplink, const ComponentSpec& downlink,
                                       double momentum)
    : uplink_(MakeLink(uplink)), downlink_(MakeLink(downlink)), momentum_(momentum) {}

void ModelBroadcastRule::Init(int workers, const Eigen::Ref<const Eigen::VectorXd>& x0,
                              const Objective& objective) {
  objective_ = &objective;
  x_ = x0;
  velocity_ = Eigen::VectorXd::Zero(x0.size());
  mean_.resize(x0.size());
  scratch_.resize(x0.size());
  replicas_.assign(workers, x0);
  InitWorkers(workers, x0.size());
}

void ModelBroadcastRule::ServerReceive(int w, const Message& uplink) {
  if (w == 0) mean_.setZero();
  uplink_->Decode(uplink, scratch_);
  mean_ += scratch_;
}

Message ModelBroadcastRule::ServerRound(double step, Rng& rng) {
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
  objective_->Prox(step, x_);
  return downlink_->Encode(x_, rng);
}

// The downlink is the model: the worker's replica is the decoded message.
void ModelBroadcastRule::WorkerReceive(int w, const Message& downlink, double /*step*/) {
  downlink_->Decode(downlink, replicas_[w]);
}

}  // namespace commsim
