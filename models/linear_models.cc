#include "models/linear_models.h"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>

#include "models/nn_ops.h"

namespace commsim {
namespace {

// log(1 + exp(t)) without overflow.
double Softplus(double t) { return std::max(t, 0.0) + std::log1p(std::exp(-std::abs(t))); }
double Sigmoid(double t) {
  return t >= 0 ? 1.0 / (1.0 + std::exp(-t)) : std::exp(t) / (1.0 + std::exp(t));
}

constexpr int64_t kMaxSolveFeatures = 2000;

}  // namespace

void LinearModelConfig::Describe(ParamVisitor& v) {
  v.Real("l2", l2, Range::NonNegative(), "l2 regularisation weight: adds (l2/2)||x||^2");
  v.Real("l1", l1, Range::NonNegative(), "l1 regularisation weight: adds l1 ||x||_1 (via prox)");
}

void LeastSquaresConfig::Describe(ParamVisitor& v) {
  v.Real("l2", l2, Range::NonNegative(), "l2 regularisation weight: adds (l2/2)||x||^2");
}

// --- linear regression -------------------------------------------------------------------

LinearRegression::LinearRegression(const LeastSquaresConfig& config,
                                   std::shared_ptr<const ProblemData> data)
    : DataObjective(std::move(data), config.l2, 0.0) {
  set_dim(this->data().train.num_features());
  const Dataset& train = this->data().train;
  const auto n = static_cast<double>(train.num_samples());
  if (train.num_features() > 20000) return;  // a d x d solve would be too large
  Eigen::MatrixXd h = train.features * train.features.transpose() / n;
  h.diagonal().array() += l2();
  const Eigen::VectorXd rhs = train.features * train.targets / n;
  Eigen::LDLT<Eigen::MatrixXd> ldlt(h);
  if (ldlt.info() != Eigen::Success || !ldlt.isPositive() || ldlt.rcond() < 1e-12) return;
  Optimum opt;
  opt.x = ldlt.solve(rhs);
  // One step of iterative refinement brings x* to working precision.
  const Eigen::VectorXd residual = rhs - h * opt.x;
  opt.x += ldlt.solve(residual);
  opt.loss = Loss(opt.x);
  set_optimum(std::move(opt));
}

double LinearRegression::BatchLoss(const ConstVec& x, const ConstMat& features,
                                   const ConstVec& targets, Eigen::VectorXd* grad) const {
  const auto b = static_cast<double>(features.cols());
  Eigen::VectorXd residual = targets;
  residual.noalias() = features.transpose() * x - targets;
  if (grad != nullptr) grad->noalias() = features * residual / b;
  return 0.5 * residual.squaredNorm() / b;
}

Eigen::VectorXi LinearRegression::Predict(const ConstVec& x, const ConstMat& features) const {
  const Eigen::VectorXd y = features.transpose() * x;
  return y.array().round().cast<int>();
}

// --- logistic regression -----------------------------------------------------------------

LogisticRegression::LogisticRegression(const LinearModelConfig& config,
                                       std::shared_ptr<const ProblemData> data)
    : DataObjective(std::move(data), config.l2, config.l1) {
  set_dim(this->data().train.num_features());
  RequireClasses("logistic_regression", 2, 2);
  if (l2() > 0.0 && dim() <= kMaxSolveFeatures) {
    if (l1() == 0.0) {
      SolveNewton();
    } else {
      SolveProximalGradient();
    }
  }
}

double LogisticRegression::BatchLoss(const ConstVec& x, const ConstMat& features,
                                     const ConstVec& targets, Eigen::VectorXd* grad) const {
  const Eigen::Index b = features.cols();
  Eigen::VectorXd z(b);
  z.noalias() = features.transpose() * x;
  double loss = 0.0;
  for (Eigen::Index i = 0; i < b; ++i) {
    const double s = targets[i] > 0.5 ? 1.0 : -1.0;
    loss += Softplus(-s * z[i]);
    z[i] = -s * Sigmoid(-s * z[i]) / static_cast<double>(b);  // d loss / d z, reusing z
  }
  if (grad != nullptr) grad->noalias() = features * z;
  return loss / static_cast<double>(b);
}

Eigen::VectorXi LogisticRegression::Predict(const ConstVec& x, const ConstMat& features) const {
  const Eigen::VectorXd z = features.transpose() * x;
  return (z.array() > 0.0).cast<int>();
}

void LogisticRegression::SolveNewton() {
  const Dataset& train = data().train;
  const auto n = static_cast<double>(train.num_samples());
  Eigen::VectorXd x = Eigen::VectorXd::Zero(dim());
  Eigen::VectorXd g(dim());
  auto objective = [&](const Eigen::VectorXd& at, Eigen::VectorXd* grad) {
    double f = MeanLoss(train, 0, train.num_samples(), at, grad) + 0.5 * l2() * at.squaredNorm();
    if (grad != nullptr) *grad += l2() * at;
    return f;
  };
  double f = objective(x, &g);
  for (int iter = 0; iter < 100 && g.norm() >= 1e-10; ++iter) {
    const Eigen::VectorXd z = train.features.transpose() * x;
    Eigen::VectorXd w(z.size());
    for (Eigen::Index i = 0; i < z.size(); ++i) {
      const double p = Sigmoid(z[i]);
      w[i] = p * (1.0 - p) / n;
    }
    Eigen::MatrixXd h = train.features * w.asDiagonal() * train.features.transpose();
    h.diagonal().array() += l2();
    const Eigen::VectorXd step = h.ldlt().solve(g);
    // Backtracking (Armijo) keeps Newton monotone far from the optimum.
    double t = 1.0;
    Eigen::VectorXd trial = x - step;
    double f_trial = objective(trial, nullptr);
    while (f_trial > f - 1e-4 * t * g.dot(step) && t > 1e-10) {
      t *= 0.5;
      trial = x - t * step;
      f_trial = objective(trial, nullptr);
    }
    x = trial;
    f = objective(x, &g);
  }
  if (g.norm() < 1e-10) set_optimum(Optimum{x, Loss(x)});
}

void LogisticRegression::SolveProximalGradient() {
  const Dataset& train = data().train;
  const auto n = static_cast<double>(train.num_samples());
  // Lipschitz constant of the smooth part: lambda_max(A A^T) / (4N) + l2.
  const Eigen::MatrixXd gram = train.features * train.features.transpose() / (4.0 * n);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(gram, Eigen::EigenvaluesOnly);
  const double step = 1.0 / (eig.eigenvalues().maxCoeff() + l2());
  Eigen::VectorXd x = Eigen::VectorXd::Zero(dim());
  Eigen::VectorXd g(dim());
  // Bounded work: at most ~4e9 flops of full gradients.
  const double flops_per_pass = 4.0 * n * static_cast<double>(dim());
  const auto max_iters = static_cast<int64_t>(std::min(200000.0, 4e9 / flops_per_pass));
  for (int64_t iter = 0; iter < max_iters; ++iter) {
    MeanLoss(train, 0, train.num_samples(), x, &g);
    g += l2() * x;
    Eigen::VectorXd next = x - step * g;
    Prox(step, next);
    // Gradient mapping norm ||x - prox(x - step g)|| / step: zero exactly at the optimum.
    const double mapping = (x - next).norm() / step;
    x = next;
    if (mapping < 1e-10) {
      set_optimum(Optimum{x, Loss(x)});
      return;
    }
  }
}

// --- softmax regression -------------------------------------------------------------------

SoftmaxRegression::SoftmaxRegression(const LinearModelConfig& config,
                                     std::shared_ptr<const ProblemData> data)
    : DataObjective(std::move(data), config.l2, config.l1), classes_(0) {
  RequireClasses("softmax_regression", 2, 1 << 20);
  classes_ = this->data().train.num_classes;
  set_dim(classes_ * this->data().train.num_features());
}

double SoftmaxRegression::BatchLoss(const ConstVec& x, const ConstMat& features,
                                    const ConstVec& targets, Eigen::VectorXd* grad) const {
  const Eigen::Map<const Eigen::MatrixXd> w(x.data(), classes_, features.rows());
  Eigen::MatrixXd logits(classes_, features.cols());
  logits.noalias() = w * features;
  Eigen::MatrixXd dlogits;
  const double loss = SoftmaxCrossEntropy(logits, targets, grad != nullptr ? &dlogits : nullptr);
  if (grad != nullptr) {
    grad->resize(dim());
    Eigen::Map<Eigen::MatrixXd> dw(grad->data(), classes_, features.rows());
    dw.noalias() = dlogits * features.transpose();
  }
  return loss;
}

Eigen::VectorXi SoftmaxRegression::Predict(const ConstVec& x, const ConstMat& features) const {
  const Eigen::Map<const Eigen::MatrixXd> w(x.data(), classes_, features.rows());
  const Eigen::MatrixXd logits = w * features;
  return ArgmaxColumns(logits);
}

}  // namespace commsim
