#include "algorithms/collective/cocod_sgd.h"

#include "models/objective.h"

namespace commsim {

void CocodSgdConfig::Describe(ParamVisitor& v) {
  common.Describe(v);
  v.Int("local_steps", local_steps, Range::Closed(1, 1e6),
        "local SGD steps per round, run while the previous models are all-reduced");
}

void CocodSgdRule::InitRule(const LayerProfile* /*layers*/, uint64_t /*seed*/) {
  models_.assign(static_cast<size_t>(workers_), x_);
  anchors_.assign(static_cast<size_t>(workers_), x_);
}

std::vector<CollectivePhase> CocodSgdRule::Phases(int64_t dim,
                                                  const LayerProfile* /*layers*/) const {
  return {{.kind = PhaseKind::kAllReduce, .length = dim, .at_round_start = true}};
}

void CocodSgdRule::LocalStep(int w, const Eigen::Ref<const Eigen::VectorXd>& grad, double step) {
  Eigen::VectorXd& y = models_[Index(w)];
  y -= step * grad;
  objective_->Prox(step, y);
}

void CocodSgdRule::Input(int w, int /*phase*/, const Eigen::Ref<const Eigen::VectorXd>& grad,
                         double step, Eigen::Ref<Eigen::VectorXd> out) {
  LocalStep(w, grad, step);
  out = anchors_[Index(w)];
}

// x_i <- mean anchor + (y_i - a_i); a_i <- x_i.
void CocodSgdRule::AllReduced(int w, int /*phase*/, const Eigen::Ref<const Eigen::VectorXd>& sum) {
  Eigen::VectorXd& x = models_[Index(w)];
  Eigen::VectorXd& anchor = anchors_[Index(w)];
  const double inv = 1.0 / static_cast<double>(workers_);
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    x[j] = sum[j] * inv + (x[j] - anchor[j]);
    anchor[j] = x[j];
  }
}

void CocodSgdRule::EndRound(double /*step*/) {
  x_.setZero();
  for (const Eigen::VectorXd& m : models_) x_ += m;
  x_ /= static_cast<double>(workers_);
}

void CocodSgdRule::Extra(std::map<std::string, double>& out) const {
  double spread = 0;
  for (const Eigen::VectorXd& m : models_) spread += (m - x_).squaredNorm();
  out["model_spread_sq"] = spread / static_cast<double>(workers_);
}

}  // namespace commsim
