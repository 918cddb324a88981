#include "algorithms/ps/diana.h"

#include "algorithms/ps/sgd.h"
#include "algorithms/registry.h"

namespace commsim {

DianaConfig::DianaConfig()
    : uplink(CompressorSpec("block_ternary")), downlink(CompressorSpec("identity")) {}

void DianaConfig::Describe(ParamVisitor& v) {
  DescribeLinks(v, uplink, downlink);
  v.Real("alpha", alpha, Range::OpenClosed(0, 1), "shift learning rate (theory: <= 1/(omega+1))");
  v.Real("momentum", momentum, Range::ClosedOpen(0, 1), "heavy-ball momentum mu (0 = none)");
  DescribeVerifyReplicas(v, verify_replicas);
  DescribePrecision(v, precision);
}

DianaRule::DianaRule(const DianaConfig& config)
    : ModelBroadcastRule(config.uplink, config.downlink, config.momentum,
                         config.verify_replicas),
      alpha_(config.alpha),
      single_(IsSinglePrecision(config.precision)) {}

void DianaRule::InitWorkers(int workers, int64_t dim) {
  shifts_.Init(workers, dim, single_);
  server_shift_ = Eigen::VectorXd::Zero(dim);
  residual_sq_ = 0;
  residual_acc_ = 0;
}

// d_i = g_i - h_i (in grad); then h_i <- h_i + alpha d^_i.
Message DianaRule::WorkerEncode(int w, GradVec grad, double /*step*/, Rng& rng) {
  shifts_.AddTo(w, grad, /*subtract=*/true);
  residual_acc_ += grad.squaredNorm() / static_cast<double>(shifts_.size());
  return shifts_.EncodeAndAccumulate(uplink(), w, grad, alpha_, rng);
}

void DianaRule::ServerDirection(Eigen::Ref<Eigen::VectorXd> mean_uplink) {
  // mean_uplink holds d^ on entry and g^ = h + d^ on exit; h <- h + alpha d^.
  residual_sq_ = residual_acc_;
  residual_acc_ = 0;
  double* g = mean_uplink.data();
  double* h = server_shift_.data();
  for (Eigen::Index j = 0; j < mean_uplink.size(); ++j) {
    const double d_hat = g[j];
    g[j] = d_hat + h[j];
    h[j] += alpha_ * d_hat;
  }
}

void DianaRule::Extra(std::map<std::string, double>& out) const {
  out["grad_residual_sq"] = residual_sq_;
}

}  // namespace commsim
