#include "algorithms/ps/doublesqueeze.h"

#include "algorithms/ps/sgd.h"
#include "algorithms/registry.h"
#include "models/objective.h"

namespace commsim {

DoubleSqueezeConfig::DoubleSqueezeConfig()
    : uplink(CompressorSpec("top_k")), downlink(CompressorSpec("top_k")) {}

void DoubleSqueezeConfig::Describe(ParamVisitor& v) {
  DescribeLinks(v, uplink, downlink);
  v.Real("contractive_scale", contractive_scale, Range::OpenClosed(0, 1),
         "multiply decoded messages by this (1/(1+C) makes an unbiased Q contractive)");
}

DoubleSqueezeRule::DoubleSqueezeRule(const DoubleSqueezeConfig& config)
    : TwoWayRule(config.uplink, config.downlink),
      scale_(config.contractive_scale) {}

void DoubleSqueezeRule::Init(int workers, const ConstVec& x0, const Objective& objective) {
  InitModel(x0, objective);
  replicas_.assign(workers, x0);
  worker_errors_.assign(workers, Eigen::VectorXd::Zero(x0.size()));
  server_error_ = Eigen::VectorXd::Zero(x0.size());
  v_.resize(x0.size());
  decoded_.resize(x0.size());
}

Message DoubleSqueezeRule::WorkerEncode(int w, const ConstVec& grad, double /*step*/, Rng& rng) {
  Eigen::VectorXd& delta = worker_errors_[w];
  v_ = grad + delta;
  Message message = uplink_->Encode(v_, rng);
  uplink_->Decode(message, decoded_);
  delta = v_ - scale_ * decoded_;
  return message;
}

void DoubleSqueezeRule::ServerReceive(int w, const Message& uplink) {
  if (w == 0) v_ = server_error_;
  const double weight = scale_ / static_cast<double>(replicas_.size());
  uplink_->Decode(uplink, decoded_);
  v_ += weight * decoded_;
}

Message DoubleSqueezeRule::ServerRound(double step, Rng& rng) {
  Message message = downlink_->Encode(v_, rng);
  downlink_->Decode(message, decoded_);
  server_error_ = v_ - scale_ * decoded_;
  x_ -= (step * scale_) * decoded_;
  objective_->Prox(step, x_);
  return message;
}

void DoubleSqueezeRule::WorkerReceive(int w, const Message& downlink, double step) {
  downlink_->Decode(downlink, decoded_);
  replicas_[w] -= (step * scale_) * decoded_;
  objective_->Prox(step, replicas_[w]);
}

void DoubleSqueezeRule::Extra(std::map<std::string, double>& out) const {
  double sum = 0;
  for (const Eigen::VectorXd& e : worker_errors_) sum += e.squaredNorm();
  out["worker_error_sq"] = sum / static_cast<double>(worker_errors_.size());
  out["server_error_sq"] = server_error_.squaredNorm();
}

}  // namespace commsim
