// Linear models on data: least squares, binary logistic regression, multinomial (softmax)
// regression. Parameters: one weight per feature (softmax: a classes x features matrix, stored
// column-major); no intercept (standardise the data, or add a constant feature).
//
//   linear_regression    loss_i = (a_i.x - b_i)^2 / 2; knows x* = (A A^T/N + l2 I)^-1 A b / N
//                        (LDLT) and F(x*) whenever that system is well conditioned
//   logistic_regression  labels {0,1} -> s = +-1, loss_i = log(1 + exp(-s a_i.x)); with l2 > 0
//                        knows x*: Newton (l1 = 0) or proximal gradient (l1 > 0), both run until
//                        the (prox-)gradient norm < 1e-10, for up to 2000 features
//   softmax_regression   loss_i = logsumexp(W a_i) - (W a_i)_{y_i}; no x* (not computed)
// FLOPs per sample (forward + backward): 4d (linear, logistic), 6 K d (softmax).
#ifndef COMMSIM_MODELS_LINEAR_MODELS_H_
#define COMMSIM_MODELS_LINEAR_MODELS_H_

#include <string_view>

#include "base/params.h"
#include "models/data_objective.h"

namespace commsim {

struct LinearModelConfig final : ConfigBase<LinearModelConfig> {
  double l2 = 0.0;
  double l1 = 0.0;
  void Describe(ParamVisitor& v) override;
};

struct LeastSquaresConfig final : ConfigBase<LeastSquaresConfig> {
  double l2 = 0.0;
  void Describe(ParamVisitor& v) override;
};

class LinearRegression final : public DataObjective {
 public:
  LinearRegression(const LeastSquaresConfig& config, std::shared_ptr<const ProblemData> data);
  std::string_view Name() const override { return "linear_regression"; }
  double flops_per_sample() const override { return 4.0 * static_cast<double>(dim()); }
  std::optional<double> TestAccuracy(const Eigen::Ref<const Eigen::VectorXd>&) const override {
    return std::nullopt;
  }
  bool has_test_accuracy() const override { return false; }
  double BatchLoss(const ConstVec& x, const ConstMat& features, const ConstVec& targets,
                   Eigen::VectorXd* grad) const override;
  Eigen::VectorXi Predict(const ConstVec& x, const ConstMat& features) const override;
};

class LogisticRegression final : public DataObjective {
 public:
  LogisticRegression(const LinearModelConfig& config, std::shared_ptr<const ProblemData> data);
  std::string_view Name() const override { return "logistic_regression"; }
  double flops_per_sample() const override { return 4.0 * static_cast<double>(dim()); }
  double BatchLoss(const ConstVec& x, const ConstMat& features, const ConstVec& targets,
                   Eigen::VectorXd* grad) const override;
  Eigen::VectorXi Predict(const ConstVec& x, const ConstMat& features) const override;

 private:
  void SolveNewton();
  void SolveProximalGradient();
};

class SoftmaxRegression final : public DataObjective {
 public:
  SoftmaxRegression(const LinearModelConfig& config, std::shared_ptr<const ProblemData> data);
  std::string_view Name() const override { return "softmax_regression"; }
  double flops_per_sample() const override { return 6.0 * static_cast<double>(dim()); }
  double BatchLoss(const ConstVec& x, const ConstMat& features, const ConstVec& targets,
                   Eigen::VectorXd* grad) const override;
  Eigen::VectorXi Predict(const ConstVec& x, const ConstMat& features) const override;

 private:
  int64_t classes_;
};

}  // namespace commsim

#endif  // COMMSIM_MODELS_LINEAR_MODELS_H_
