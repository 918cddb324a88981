// Builders of the layer profiles (models/layer_profile.h): computed from layer shapes, never
// measured. Conventions shared by every builder:
//   - a multiply-add (MAC) is 2 FLOPs; forward FLOPs per sample = 2 x MACs; backward = 2 x forward
//     (the gradients with respect to the input and to the weights each cost one forward);
//   - convolution k x k, c_in -> c_out, output H x W: k k c_in c_out (+ c_out bias) parameters,
//     k k c_in c_out H W MACs (the bias add is not counted);
//   - linear in -> out applied to `rows` vectors per sample (1 for a classifier, the sequence
//     length for a transformer): in out (+ out bias) parameters, in out rows MACs;
//   - normalization (batch norm, layer norm) over `elements` values per sample: 2 c parameters
//     (scale, shift), one MAC per element (the affine part);
//   - ReLU, pooling, softmax and residual additions cost nothing here (they are memory-bound and
//     small next to the matrix products).
// Layer names follow the usual implementations (PyTorch torchvision / Hugging Face), so a profile
// can be compared with a printed model.
#ifndef COMMSIM_MODELS_PROFILES_H_
#define COMMSIM_MODELS_PROFILES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "models/layer_profile.h"

namespace commsim {

Layer ConvLayer(std::string name, int kernel, int64_t c_in, int64_t c_out, int64_t out_height,
                int64_t out_width, bool bias);
Layer LinearLayer(std::string name, int64_t in, int64_t out, bool bias, int64_t rows = 1);
Layer NormLayer(std::string name, int64_t channels, int64_t elements);
// A layer without parameters that still computes (e.g. attention scores): `macs` per sample.
Layer ComputeLayer(std::string name, double macs);

// The models commsim trains itself; their objects report these profiles (dim() = TotalParams()).
// LeNet-5 on channels x height x width images (models/lenet5.h); the MLP of layer widths
// {input, hidden..., classes} (models/mlp.h).
LayerProfile LeNet5Profile(int channels, int height, int width, int64_t classes);
LayerProfile MlpProfile(const std::vector<int64_t>& widths);

// Published architectures (profiles_cnn.cc, profiles_transformer.cc).
LayerProfile ResNet18CifarProfile();
LayerProfile ResNet20CifarProfile();
LayerProfile ResNet50Profile();
LayerProfile ResNet101Profile();
LayerProfile ResNeXt50Profile();
LayerProfile ResNeXt101Profile();
LayerProfile Vgg16Profile();
LayerProfile Gpt2SmallProfile();
LayerProfile BertBaseProfile();

}  // namespace commsim

#endif  // COMMSIM_MODELS_PROFILES_H_
