#include "algorithms/ps/diana.h"

#include "algorithms/ps/sgd.h"
#include "compression/registry.h"

namespace commsim {

void DianaConfig::Describe(ParamVisitor& v) {
  DescribeLinks(v);
  v.Real("alpha", alpha, Range::OpenClosed(0, 1), "shift learning rate (theory: <= 1/(omega+1))");
  v.Real("momentum", momentum, Range::ClosedOpen(0, 1), "heavy-ball momentum mu (0 = none)");
  DescribeStorage(v);
}

DianaRule::DianaRule(const DianaConfig& config)
    : ModelBroadcastRule(config, config.momentum), alpha_(config.alpha), shifts_(config.single()) {}

void DianaRule::InitWorkers(int workers, int64_t dim) {
  shifts_.Init(workers, dim);
  server_shift_ = Eigen::VectorXd::Zero(dim);
  residual_sq_of_.assign(static_cast<size_t>(workers), 0.0);
  residual_sq_ = 0;
}

// d_i = g_i - h_i (in grad); then h_i <- h_i + alpha d^_i.
Message DianaRule::WorkerEncode(int w, GradVec grad, double /*step*/, Rng& rng) {
  residual_sq_of_[static_cast<size_t>(w)] = shifts_.AddToSquaredNorm(w, grad, /*subtract=*/true);
  return shifts_.EncodeAndAccumulate(uplink(), w, grad, alpha_, rng);
}

void DianaRule::ServerDirection(Eigen::Ref<Eigen::VectorXd> mean_uplink) {
  // mean_uplink holds d^ on entry and g^ = h + d^ on exit; h <- h + alpha d^.
  residual_sq_ = MeanInWorkerOrder(residual_sq_of_);
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
