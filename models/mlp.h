// mlp: a fully connected network, ReLU hidden layers, softmax cross-entropy output — the
// non-convex model. Parameters, layer after layer: W_l (out x in, column-major) then b_l (out).
// InitialPoint: He initialisation, W ~ N(0, 2 / fan_in), b = 0, drawn from the Rng.
// Batches go through Eigen GEMMs (one per layer and direction), never per-sample loops.
// FLOPs per sample: 6 x (multiply-adds of the weights) (forward 2, backward 4); layers():
// MlpProfile(widths) (models/profiles.h), one layer per weight matrix and its biases.
#ifndef COMMSIM_MODELS_MLP_H_
#define COMMSIM_MODELS_MLP_H_

#include <vector>

#include "models/data_objective.h"
#include "sim/params.h"

namespace commsim {

struct MlpConfig final : ConfigBase<MlpConfig> {
  std::vector<double> hidden = {64};
  double l2 = 0.0;
  void Describe(ParamVisitor& v) override;
  void Validate(ParamProblems& problems) const override;
};

class Mlp final : public DataObjective {
 public:
  Mlp(const MlpConfig& config, std::shared_ptr<const ProblemData> data);
  std::string_view Name() const override { return "mlp"; }
  int64_t dim() const override { return dim_; }
  double flops_per_sample() const override;
  const LayerProfile* layers() const override { return &profile_; }
  void InitialPoint(Rng& rng, Eigen::Ref<Eigen::VectorXd> x0) const override;
  double BatchLoss(const Eigen::Ref<const Eigen::VectorXd>& x,
                   const Eigen::Ref<const Eigen::MatrixXd>& features,
                   const Eigen::Ref<const Eigen::VectorXd>& targets,
                   Eigen::VectorXd* grad) const override;
  Eigen::VectorXi Predict(const Eigen::Ref<const Eigen::VectorXd>& x,
                          const Eigen::Ref<const Eigen::MatrixXd>& features) const override;
  const std::vector<int64_t>& widths() const { return widths_; }

 protected:
  int64_t eval_chunk() const override { return 1024; }

 private:
  // Forward pass; activations[0] is the input, the last entry the logits.
  void Forward(const Eigen::Ref<const Eigen::VectorXd>& x,
               const Eigen::Ref<const Eigen::MatrixXd>& features,
               std::vector<Eigen::MatrixXd>& activations) const;

  std::vector<int64_t> widths_;   // input, hidden..., classes
  std::vector<int64_t> offsets_;  // start of layer l's W in x
  int64_t dim_ = 0;
  LayerProfile profile_;  // MlpProfile(widths_)
};

}  // namespace commsim

#endif  // COMMSIM_MODELS_MLP_H_
