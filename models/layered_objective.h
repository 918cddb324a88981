// LayeredObjective: the shared half of the neural networks (MLP, LeNet-5): a DataObjective whose
// parameters are a sequence of weight layers, each W (rows x cols, column-major) followed by its
// `rows` biases, stored layer after layer in x.
//
// A subclass's constructor calls SetLayers once with its layer shapes and the LayerProfile of the
// same layers (models/profiles.h); this class then answers dim(), layers() and
// flops_per_sample() (= forward + backward FLOPs of the profile) and draws the initial point:
// He initialisation, W ~ N(0, 2 / cols) drawn from the Rng layer after layer, biases 0.
#ifndef COMMSIM_MODELS_LAYERED_OBJECTIVE_H_
#define COMMSIM_MODELS_LAYERED_OBJECTIVE_H_

#include <memory>
#include <utility>
#include <vector>

#include "models/data_objective.h"
#include "models/layer_profile.h"

namespace commsim {

class LayeredObjective : public DataObjective {
 public:
  // One weight layer: W is rows x cols (cols = fan-in), then `rows` biases.
  struct WeightLayer {
    int64_t rows = 0, cols = 0;
    int64_t offset = 0;  // start of W in x
  };

  using DataObjective::DataObjective;

  double flops_per_sample() const final;
  const LayerProfile* layers() const final { return &profile_; }
  void InitialPoint(Rng& rng, Eigen::Ref<Eigen::VectorXd> x0) const final;

 protected:
  // Sets the layers from their {rows, cols} shapes, dim() to their parameter count and the
  // profile. REQUIRES: called once, by the constructor; profile.TotalParams() == that count.
  void SetLayers(const std::vector<std::pair<int64_t, int64_t>>& shapes, LayerProfile profile);
  const WeightLayer& weight_layer(size_t l) const { return layers_[l]; }
  size_t weight_layer_count() const { return layers_.size(); }

 private:
  std::vector<WeightLayer> layers_;
  LayerProfile profile_;
};

}  // namespace commsim

#endif  // COMMSIM_MODELS_LAYERED_OBJECTIVE_H_
