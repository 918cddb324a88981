#include "algorithms/ps/dore.h"

#include "algorithms/ps/sgd.h"
#include "algorithms/registry.h"
#include "models/objective.h"

namespace commsim {

DoreConfig::DoreConfig()
    : uplink(CompressorSpec("block_ternary")), downlink(CompressorSpec("block_ternary")) {}

void DoreConfig::Describe(ParamVisitor& v) {
  DescribeLinks(v, uplink, downlink);
  v.Real("alpha", alpha, Range::OpenClosed(0, 1), "gradient-shift learning rate");
  v.Real("beta", beta, Range::OpenClosed(0, 1), "model update step on the compressed residual");
  v.Real("eta", eta, Range::NonNegative(), "weight of the model-residual error feedback");
}

DoreRule::DoreRule(const DoreConfig& config)
    : TwoWayRule(config.uplink, config.downlink),
      alpha_(config.alpha),
      beta_(config.beta),
      eta_(config.eta) {}

void DoreRule::Init(int workers, const ConstVec& x0, const Objective& objective) {
  InitModel(x0, objective);
  const int64_t d = x0.size();
  worker_xhat_.assign(workers, x0);
  worker_shift_.assign(workers, Eigen::VectorXd::Zero(d));
  xhat_ = x0;
  shift_ = Eigen::VectorXd::Zero(d);
  error_ = Eigen::VectorXd::Zero(d);
  q_.resize(d);
  delta_.resize(d);
  decoded_.resize(d);
  mean_.resize(d);
}

Message DoreRule::WorkerEncode(int w, const ConstVec& grad, double /*step*/, Rng& rng) {
  Eigen::VectorXd& h = worker_shift_[w];
  delta_ = grad - h;
  grad_residual_acc_ += delta_.squaredNorm() / static_cast<double>(worker_shift_.size());
  Message message = uplink_->Encode(delta_, rng);
  uplink_->Decode(message, decoded_);
  h += alpha_ * decoded_;
  return message;
}

void DoreRule::ServerReceive(int w, const Message& uplink) {
  if (w == 0) mean_.setZero();
  uplink_->Decode(uplink, decoded_);
  mean_ += decoded_;
}

Message DoreRule::ServerRound(double step, Rng& rng) {
  grad_residual_sq_ = grad_residual_acc_;
  grad_residual_acc_ = 0;
  mean_ /= static_cast<double>(worker_xhat_.size());
  // g^ = h + d^ (into x_ as x^ - gamma g^), then h <- h + alpha d^.
  x_ = xhat_ - step * (shift_ + mean_);
  shift_ += alpha_ * mean_;
  objective_->Prox(step, x_);
  q_ = x_ - xhat_ + eta_ * error_;
  model_residual_sq_ = q_.squaredNorm();
  Message message = downlink_->Encode(q_, rng);
  downlink_->Decode(message, decoded_);
  error_ = q_ - decoded_;
  xhat_ += beta_ * decoded_;
  return message;
}

void DoreRule::WorkerReceive(int w, const Message& downlink, double /*step*/) {
  downlink_->Decode(downlink, decoded_);
  worker_xhat_[w] += beta_ * decoded_;
}

void DoreRule::Extra(std::map<std::string, double>& out) const {
  out["grad_residual_sq"] = grad_residual_sq_;
  out["model_residual_sq"] = model_residual_sq_;
}

}  // namespace commsim
