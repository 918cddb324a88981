// mlp: a fully connected network, ReLU hidden layers, softmax cross-entropy output — the
// non-convex model. Parameters, layer after layer: W_l (out x in, column-major) then b_l (out).
// Batches go through Eigen GEMMs (one per layer and direction), never per-sample loops.
// A LayeredObjective (models/layered_objective.h): He initialisation; FLOPs per sample and
// layers() from MlpProfile(widths) (models/profiles.h), one layer per weight matrix and its biases,
// 6 x the multiply-adds of the weights (forward 2, backward 4).
#ifndef COMMSIM_MODELS_MLP_H_
#define COMMSIM_MODELS_MLP_H_

#include <vector>

#include "base/params.h"
#include "models/layered_objective.h"

namespace commsim {

struct MlpConfig final : ConfigBase<MlpConfig> {
  std::vector<double> hidden = {64};
  double l2 = 0.0;
  void Describe(ParamVisitor& v) override;
  void Validate(ParamProblems& problems) const override;
};

class Mlp final : public LayeredObjective {
 public:
  Mlp(const MlpConfig& config, std::shared_ptr<const ProblemData> data);
  std::string_view Name() const override { return "mlp"; }
  double BatchLoss(const ConstVec& x, const ConstMat& features, const ConstVec& targets,
                   Eigen::VectorXd* grad) const override;
  Eigen::VectorXi Predict(const ConstVec& x, const ConstMat& features) const override;
  const std::vector<int64_t>& widths() const { return widths_; }

 protected:
  int64_t eval_chunk() const override { return 1024; }

 private:
  // Forward pass; activations[0] is the input, the last entry the logits.
  void Forward(const Eigen::Ref<const Eigen::VectorXd>& x,
               const Eigen::Ref<const Eigen::MatrixXd>& features,
               std::vector<Eigen::MatrixXd>& activations) const;

  std::vector<int64_t> widths_;  // input, hidden..., classes
};

}  // namespace commsim

#endif  // COMMSIM_MODELS_MLP_H_
