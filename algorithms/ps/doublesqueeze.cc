#include "algorithms/ps/doublesqueeze.h"

#include "algorithms/ps/sgd.h"
#include "compression/compressors/scaled_sign.h"
#include "compression/registry.h"
#include "models/objective.h"

namespace commsim {

void DoubleSqueezeConfig::Describe(ParamVisitor& v) {
  DescribeLinks(v);
  v.Real("contractive_scale", contractive_scale, Range::OpenClosed(0, 1),
         "multiply decoded messages by this (1/(1+C) makes an unbiased Q contractive)");
  v.Real("momentum", momentum, Range::ClosedOpen(0, 1),
         "worker momentum mu: compress m <- mu m + g (0: none)");
  v.Bool("nesterov", nesterov, "compress g + mu m (Nesterov) instead of m");
  v.Bool("error_feedback", error_feedback,
         "keep the compression errors (delta_i, delta) and add them to the next round");
  v.Bool("per_tensor", per_tensor,
         "every tensor of the layer profile is its own message, compressed on its own");
  DescribeStorage(v);
}

void DoubleSqueezeConfig::EfBlockSgdDefaults(DoubleSqueezeConfig& c) {
  ComponentSpec sign = CompressorSpec("scaled_sign");
  static_cast<ScaledSignConfig&>(*sign.config).block = 0;
  c.uplink = sign;
  c.downlink = sign;
  c.momentum = 0.9;
  c.nesterov = true;
  c.per_tensor = true;
}

void DoubleSqueezeConfig::FoSgdDefaults(DoubleSqueezeConfig& c) {
  c.uplink = CompressorSpec("hadamard");
  c.downlink = CompressorSpec("hadamard");
  c.error_feedback = false;
}

void DoubleSqueezeConfig::SignumDefaults(DoubleSqueezeConfig& c) {
  c.uplink = CompressorSpec("sign");
  c.downlink = CompressorSpec("sign");
  c.momentum = 0.9;
  c.error_feedback = false;
}

DoubleSqueezeRule::DoubleSqueezeRule(const DoubleSqueezeConfig& config)
    : TwoWayRule(config),
      scale_(config.contractive_scale),
      momentum_(config.momentum),
      nesterov_(config.nesterov),
      error_feedback_(config.error_feedback),
      per_tensor_(config.per_tensor),
      momenta_(config.single()),
      worker_errors_(config.single()) {}

void DoubleSqueezeRule::Init(int workers, const ConstVec& x0, const Objective& objective) {
  InitModel(workers, x0, objective, "model");
  if (momentum_ > 0) momenta_.Init(workers, x0.size());
  if (error_feedback_) worker_errors_.Init(workers, x0.size());
  workers_ = workers;
  server_error_ = Eigen::VectorXd::Zero(x0.size());
  // v_ may hold x0 (ServerScratch); the first ServerReceive sets it.
}

// v_i = g_i + delta_i (in grad; g_i the momentum direction with momentum); then
// delta_i <- v_i - scale Q(v_i).
Message DoubleSqueezeRule::WorkerEncode(int w, GradVec grad, double /*step*/, Rng& rng) {
  if (momentum_ > 0) momenta_.Momentum(w, grad, momentum_, nesterov_);
  if (!error_feedback_) return uplink_->Encode(grad, rng);
  worker_errors_.AddTo(w, grad, /*subtract=*/false);
  return worker_errors_.EncodeAndKeep(*uplink_, w, grad, -scale_, rng);
}

void DoubleSqueezeRule::ServerReceive(int w, const Message& uplink) {
  const Message* one[] = {&uplink};
  ServerReceiveRun(w, one);
}

void DoubleSqueezeRule::ServerReceiveRun(int w, std::span<const Message* const> uplinks) {
  if (w == 0) v_ = server_error_;
  const double weight = scale_ / static_cast<double>(workers_);
  uplink_->DecodeSumInto(uplinks, DecodeTarget(v_, v_, weight));
}

// The encoder writes Q(v) into server_error_; then x -= gamma scale Q(v), delta = v - scale Q(v).
Message DoubleSqueezeRule::ServerRound(double step, Rng& rng) {
  Message message = downlink_->EncodeWithDecoded(v_, rng, DecodeTarget(server_error_));
  const double model_weight = step * scale_;
  for (Eigen::Index j = 0; j < v_.size(); ++j) {
    const double q = server_error_[j];
    x_[j] -= model_weight * q;
    server_error_[j] = error_feedback_ ? v_[j] - scale_ * q : 0.0;
  }
  objective_->Prox(step, x_);
  return message;
}

void DoubleSqueezeRule::ApplyDownlink(const Message& downlink, double step, Eigen::VectorXd& x) {
  downlink_->DecodeInto(downlink, DecodeTarget(x, x, -(step * scale_)));
  objective_->Prox(step, x);
}

void DoubleSqueezeRule::Extra(std::map<std::string, double>& out) const {
  if (!error_feedback_) return;
  double sum = 0;
  for (int w = 0; w < worker_errors_.size(); ++w) sum += worker_errors_.SquaredNorm(w);
  out["worker_error_sq"] = sum / static_cast<double>(worker_errors_.size());
  out["server_error_sq"] = server_error_.squaredNorm();
}

}  // namespace commsim
