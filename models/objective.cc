#include "models/objective.h"

namespace commsim {

void Objective::Prox(double step, Eigen::Ref<Eigen::VectorXd> x) const {
  const double t = step * l1();
  if (t <= 0.0) return;
  x = x.array().sign() * (x.array().abs() - t).max(0.0);
}

}  // namespace commsim
