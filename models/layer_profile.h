// LayerProfile: a model's layers as the time model sees them (parameters and FLOPs per layer).
//
// Layers are listed in forward order and the model's parameter vector is laid out in that order
// (layer 0's parameters first). The backward pass visits them in reverse order: the gradient of
// layer j is ready when the backward passes of layers L-1, ..., j are done. FLOPs are per
// training sample (multiply by the batch); backward is typically about twice forward.
// Profiles are computed from the architectures (layer shapes), not measured.
#ifndef COMMSIM_MODELS_LAYER_PROFILE_H_
#define COMMSIM_MODELS_LAYER_PROFILE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace commsim {

struct Layer {
  std::string name;
  int64_t params = 0;
  double forward_flops_per_sample = 0;
  double backward_flops_per_sample = 0;
  // The layer's parameter tensors in parameter order (weight, then bias; a norm's scale, then
  // shift), summing to params. Empty: one tensor of params.
  std::vector<int64_t> tensors;
  // The first tensor's rows when it is a weight (output channels or features; the rest of its
  // shape is its columns); 0 when the layer has no weight matrix (norms, embeddings as given).
  int64_t out = 0;
};

struct LayerProfile {
  std::string name;
  std::vector<Layer> layers;  // forward order

  int64_t TotalParams() const {
    int64_t total = 0;
    for (const Layer& l : layers) total += l.params;
    return total;
  }
  double ForwardFlopsPerSample() const {
    double total = 0;
    for (const Layer& l : layers) total += l.forward_flops_per_sample;
    return total;
  }
  double BackwardFlopsPerSample() const {
    double total = 0;
    for (const Layer& l : layers) total += l.backward_flops_per_sample;
    return total;
  }
};

// The shipped profile called `name` ("resnet18", "resnet50", "vgg16", ...), or nullptr.
const LayerProfile* FindLayerProfile(std::string_view name);
// The shipped profiles' names, sorted.
std::vector<std::string> LayerProfileNames();

}  // namespace commsim

#endif  // COMMSIM_MODELS_LAYER_PROFILE_H_
