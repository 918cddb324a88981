#include "algorithms/collective/allreduce_sgd.h"

#include "models/objective.h"

namespace commsim {

void AllReduceSgdConfig::Describe(ParamVisitor& v) {
  common.Describe(v);
  v.Real("momentum", momentum, Range::ClosedOpen(0, 1), "heavy-ball momentum mu (0 = none)");
}

std::vector<CollectivePhase> AllReduceSgdRule::Phases(int64_t dim,
                                                      const LayerProfile* /*layers*/) const {
  return {{.kind = PhaseKind::kAllReduce, .length = dim, .gradient = true}};
}

void AllReduceSgdRule::Input(int /*w*/, int /*phase*/,
                             const Eigen::Ref<const Eigen::VectorXd>& grad, double /*step*/,
                             Eigen::Ref<Eigen::VectorXd> out) {
  out = grad;
}

// Every worker ends with the same sum (collective_rule.h): worker 0's stands for all.
void AllReduceSgdRule::AllReduced(int w, int /*phase*/,
                                  const Eigen::Ref<const Eigen::VectorXd>& sum) {
  if (w == 0) mean_ = sum / static_cast<double>(workers_);
}

void AllReduceSgdRule::EndRound(double step) {
  if (momentum_ > 0.0) {
    if (velocity_.size() == 0) velocity_ = Eigen::VectorXd::Zero(x_.size());
    velocity_ = momentum_ * velocity_ + mean_;
    x_ -= step * velocity_;
  } else {
    x_ -= step * mean_;
  }
  objective_->Prox(step, x_);
}

}  // namespace commsim
