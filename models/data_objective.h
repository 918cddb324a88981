// DataObjective: the shared half of every objective defined by a loss over data samples
// (linear/logistic/softmax regression, MLP, LeNet-5).
//
// A subclass supplies the per-batch mean loss and gradient (BatchLoss) and, for classifiers,
// Predict; this class does shards, mini-batch sampling, chunked full passes, the regularisers
// and test accuracy. Semantics (see objective.h):
//   F(x) = mean over the training samples of the loss + (l2 / 2) ||x||^2,  R(x) = l1 ||x||_1.
//   Gradient() returns the mini-batch loss including the l2 term (not R) and its gradient; a
//   mini-batch is `batch` distinct samples of the worker's shard drawn uniformly with `rng`.
#ifndef COMMSIM_MODELS_DATA_OBJECTIVE_H_
#define COMMSIM_MODELS_DATA_OBJECTIVE_H_

#include <memory>
#include <optional>
#include <string>

#include "models/objective.h"
#include "models/problem_data.h"

namespace commsim {

class DataObjective : public Objective {
 public:
  // Shorthands for the read-only vector and matrix arguments of the per-batch hooks.
  using ConstVec = Eigen::Ref<const Eigen::VectorXd>;
  using ConstMat = Eigen::Ref<const Eigen::MatrixXd>;

  DataObjective(std::shared_ptr<const ProblemData> data, double l2, double l1);

  // The parameter count a subclass's constructor set (set_dim).
  int64_t dim() const final { return dim_; }
  // x0 = 0 (the linear models); the networks override it.
  void InitialPoint(Rng& rng, Eigen::Ref<Eigen::VectorXd> x0) const override;

  int num_workers() const final { return data_->workers(); }
  int64_t shard_size(int worker) const final { return data_->shard_size(worker); }
  double Gradient(int worker, const Eigen::Ref<const Eigen::VectorXd>& x, int64_t batch, Rng& rng,
                  Eigen::Ref<Eigen::VectorXd> grad) const final;
  double Loss(const Eigen::Ref<const Eigen::VectorXd>& x) const final;
  std::optional<double> TestAccuracy(const Eigen::Ref<const Eigen::VectorXd>& x) const override;
  bool has_test_accuracy() const override {
    return data_->test.is_classification() && data_->test.num_samples() > 0;
  }
  const Optimum* optimum() const final { return optimum_ ? &*optimum_ : nullptr; }
  int64_t test_samples() const final { return data_->test.num_samples(); }
  double l1() const final { return l1_; }
  double l2() const { return l2_; }

  // Mean loss (no regulariser) over the samples in the columns of `features`; when grad is
  // non-null it is set to the mean gradient. Thread-safe (scratch is local).
  virtual double BatchLoss(const ConstVec& x, const ConstMat& features, const ConstVec& targets,
                           Eigen::VectorXd* grad) const = 0;
  // Predicted class of each column. Only called when the data set is a classification set.
  virtual Eigen::VectorXi Predict(const ConstVec& x, const ConstMat& features) const = 0;

  // Mean per-sample loss (no regulariser) over samples [begin, begin + count) of `set`, in
  // chunks; grad (if non-null) receives its gradient. Used by Loss(), full-shard passes, tests.
  double MeanLoss(const Dataset& set, int64_t begin, int64_t count,
                  const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::VectorXd* grad) const;
  // The same over the columns of a matrix, evaluated eval_chunk() samples at a time.
  double ChunkedLoss(const Eigen::Ref<const Eigen::MatrixXd>& features,
                     const Eigen::Ref<const Eigen::VectorXd>& targets,
                     const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::VectorXd* grad) const;

  const ProblemData& data() const { return *data_; }

 protected:
  // Samples per BatchLoss call in full passes and large mini-batches: bounds scratch memory,
  // which keeps big networks' temporaries in reused heap memory instead of fresh pages.
  virtual int64_t eval_chunk() const { return 4096; }
  void set_optimum(Optimum optimum) { optimum_ = std::move(optimum); }
  // Called once by the subclass's constructor, before anything uses dim().
  void set_dim(int64_t dim) { dim_ = dim; }
  // Throws UserError unless the data set is a classification set with the given class count
  // range; `model` names the caller.
  void RequireClasses(std::string_view model, int min_classes, int max_classes) const;

 private:
  std::shared_ptr<const ProblemData> data_;
  double l2_;
  double l1_;
  int64_t dim_ = 0;
  std::optional<Optimum> optimum_;
};

}  // namespace commsim

#endif  // COMMSIM_MODELS_DATA_OBJECTIVE_H_
