#include "algorithms/collective/compressed_mean_rule.h"

#include "models/objective.h"

namespace commsim {

void CompressedMeanRule::InitMean(uint64_t seed) {
  seed_ = seed;
  mean_.resize(x_.size());
  if (error_feedback_) {
    memory_.assign(static_cast<size_t>(workers_), Eigen::VectorXd::Zero(x_.size()));
  }
}

void CompressedMeanRule::EndRound(double step) {
  if (error_feedback_) {
    x_ -= mean_;
  } else {
    x_ -= step * mean_;
  }
  objective_->Prox(step, x_);
  ++round_;
}

void CompressedMeanRule::Extra(std::map<std::string, double>& out) const {
  if (!error_feedback_) return;
  double sum = 0;
  for (const Eigen::VectorXd& m : memory_) sum += m.squaredNorm();
  out["memory_sq"] = sum / static_cast<double>(memory_.size());
}

}  // namespace commsim
