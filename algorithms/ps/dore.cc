#include "algorithms/ps/dore.h"

#include "algorithms/ps/sgd.h"
#include "algorithms/registry.h"
#include "models/objective.h"

namespace commsim {

void DoreConfig::Describe(ParamVisitor& v) {
  DescribeLinks(v);
  v.Real("alpha", alpha, Range::OpenClosed(0, 1), "gradient-shift learning rate");
  v.Real("beta", beta, Range::OpenClosed(0, 1), "model update step on the compressed residual");
  v.Real("eta", eta, Range::NonNegative(), "weight of the model-residual error feedback");
  DescribeStorage(v,
                  "debug: every worker keeps its own x^ and checks it against the server's every round");
}

DoreRule::DoreRule(const DoreConfig& config)
    : TwoWayRule(config),
      alpha_(config.alpha),
      beta_(config.beta),
      eta_(config.eta),
      worker_shift_(config.single()) {}

void DoreRule::Init(int workers, const ConstVec& x0, const Objective& objective) {
  InitModel(workers, x0, objective, "x^");
  const int64_t d = x0.size();
  grad_residual_sq_of_.assign(static_cast<size_t>(workers), 0.0);
  worker_shift_.Init(workers, d);
  xhat_ = x0;
  shift_ = Eigen::VectorXd::Zero(d);
  error_ = Eigen::VectorXd::Zero(d);
  // mean_ may hold x0 (ServerScratch): sized by the first ServerReceive.
}

// d_i = g_i - h_i (in grad); then h_i <- h_i + alpha d^_i.
Message DoreRule::WorkerEncode(int w, GradVec grad, double /*step*/, Rng& rng) {
  worker_shift_.AddTo(w, grad, /*subtract=*/true);
  grad_residual_sq_of_[static_cast<size_t>(w)] = grad.squaredNorm();
  return worker_shift_.EncodeAndAccumulate(*uplink_, w, grad, alpha_, rng);
}

void DoreRule::ServerReceive(int w, const Message& uplink) {
  if (w == 0) mean_.setZero(x_.size());
  uplink_->DecodeInto(uplink, DecodeTarget(mean_, mean_, 1.0));
}

Message DoreRule::ServerRound(double step, Rng& rng) {
  grad_residual_sq_ = MeanInWorkerOrder(grad_residual_sq_of_);
  const int64_t d = x_.size();
  const double n = static_cast<double>(worker_shift_.size());
  // d^ = mean d^_i; g^ = h + d^ (into x as x^ - gamma g^); h <- h + alpha d^: one pass.
  for (int64_t j = 0; j < d; ++j) {
    const double mean = mean_[j] / n;
    x_[j] = xhat_[j] - step * (shift_[j] + mean);
    shift_[j] += alpha_ * mean;
  }
  objective_->Prox(step, x_);
  Eigen::VectorXd& q = mean_;  // the sum is used up
  q = x_ - xhat_ + eta_ * error_;
  model_residual_sq_ = q.squaredNorm();
  // The encoder writes q^ into error_ (e is in q already); then x^ += beta q^, e = q - q^.
  Message message = downlink_->EncodeWithDecoded(q, rng, DecodeTarget(error_));
  for (int64_t j = 0; j < d; ++j) {
    const double q_hat = error_[j];
    xhat_[j] += beta_ * q_hat;
    error_[j] = q[j] - q_hat;
  }
  return message;
}

void DoreRule::ApplyDownlink(const Message& downlink, double /*step*/, Eigen::VectorXd& xhat) {
  downlink_->DecodeInto(downlink, DecodeTarget(xhat, xhat, beta_));
}

void DoreRule::Extra(std::map<std::string, double>& out) const {
  out["grad_residual_sq"] = grad_residual_sq_;
  out["model_residual_sq"] = model_residual_sq_;
}

}  // namespace commsim
