#include "models/objective.h"

namespace commsim {

bool Objective::FiniteGradient(int worker, const Eigen::Ref<const Eigen::VectorXd>& x,
                               int64_t batch, Rng& rng, Eigen::Ref<Eigen::VectorXd> grad) const {
  Gradient(worker, x, batch, rng, grad);
  return grad.allFinite();
}

void Objective::Prox(double step, Eigen::Ref<Eigen::VectorXd> x) const {
  const double t = step * l1();
  if (t <= 0.0) return;
  x = x.array().sign() * (x.array().abs() - t).max(0.0);
}

}  // namespace commsim
