// lenet5: LeCun et al.'s LeNet-5 as used in the DORE paper's MNIST experiment:
//   conv 5x5 (6, pad 2) -> ReLU -> maxpool 2 -> conv 5x5 (16) -> ReLU -> maxpool 2
//   -> fc 120 -> ReLU -> fc 84 -> ReLU -> fc classes, softmax cross-entropy.
// On 1x28x28 MNIST with 10 classes: 61,706 parameters. Convolutions are im2col + one Eigen GEMM
// per layer and direction over the whole batch (see nn_ops.h for the tensor layout; images
// must be stored pixel-major, channels fastest, which single-channel data is trivially).
// Parameter order: conv1 W (6 x 25C), b; conv2 W (16 x 150), b; fc1 W (120 x 400), b; fc2; fc3.
// layers(): LeNet5Profile (models/profiles.h) of the data's image shape; FLOPs per sample = 6 x
// the multiply-adds of the weights (forward 2, backward 4).
// InitialPoint: He initialisation from the Rng, biases 0.
#ifndef COMMSIM_MODELS_LENET5_H_
#define COMMSIM_MODELS_LENET5_H_

#include <array>

#include "models/data_objective.h"
#include "models/nn_ops.h"
#include "sim/params.h"

namespace commsim {

struct LeNet5Config final : ConfigBase<LeNet5Config> {
  double l2 = 0.0;
  void Describe(ParamVisitor& v) override {
    v.Real("l2", l2, Range::NonNegative(), "weight decay: adds (l2/2)||x||^2");
  }
};

class LeNet5 final : public DataObjective {
 public:
  LeNet5(const LeNet5Config& config, std::shared_ptr<const ProblemData> data);
  std::string_view Name() const override { return "lenet5"; }
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

 protected:
  int64_t eval_chunk() const override { return 64; }

 private:
  static constexpr int kLayers = 5;
  struct Layer {
    int64_t rows, cols;  // W is rows x cols, followed by `rows` biases
    int64_t offset;      // start of W in x
  };
  double Run(const Eigen::Ref<const Eigen::VectorXd>& x,
             const Eigen::Ref<const Eigen::MatrixXd>& features,
             const Eigen::Ref<const Eigen::VectorXd>* targets, Eigen::VectorXd* grad,
             Eigen::VectorXi* predicted) const;

  ConvShape conv1_{}, conv2_{};
  std::array<Layer, kLayers> layers_{};
  int64_t dim_ = 0;
  LayerProfile profile_;  // LeNet5Profile of the data's image shape
};

}  // namespace commsim

#endif  // COMMSIM_MODELS_LENET5_H_
