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
}

DianaRule::DianaRule(const DianaConfig& config)
    : ModelBroadcastRule(config.uplink,
                         config.downlink, config.momentum),
      alpha_(config.alpha) {}

void DianaRule::InitWorkers(int workers, int64_t dim) {
  shifts_.assign(workers, Eigen::VectorXd::Zero(dim));
  server_shift_ = Eigen::VectorXd::Zero(dim);
  delta_.resize(dim);
  decoded_.resize(dim);
  residual_sq_ = 0;
  residual_acc_ = 0;
}

Message DianaRule::WorkerEncode(int w, const Eigen::Ref<const Eigen::VectorXd>& grad,
                                double /*step*/, Rng& rng) {
  Eigen::VectorXd& h = shifts_[w];
  delta_ = grad - h;
  residual_acc_ += delta_.squaredNorm() / static_cast<double>(shifts_.size());
  Message message = uplink().Encode(delta_, rng);
  uplink().Decode(message, decoded_);
  h += alpha_ * decoded_;
  return message;
}

void DianaRule::ServerDirection(Eigen::Ref<Eigen::VectorXd> mean_uplink) {
  // mean_uplink holds d^ on entry and g^ = h + d^ on exit; h <- h + alpha d^.
  residual_sq_ = residual_acc_;
  residual_acc_ = 0;
  delta_ = mean_uplink;
  mean_uplink += server_shift_;
  server_shift_ += alpha_ * delta_;
}

void DianaRule::Extra(std::map<std::string, double>& out) const {
  out["grad_residual_sq"] = residual_sq_;
}

}  // namespace commsim
