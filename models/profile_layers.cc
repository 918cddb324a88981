// Layer helpers and the profiles of the models commsim trains itself (see profiles.h).
#include <fmt/format.h>

#include <utility>

#include "base/check.h"
#include "models/nn_ops.h"
#include "models/profiles.h"

namespace commsim {

Layer ComputeLayer(std::string name, double macs) {
  return Layer{std::move(name), 0, 2.0 * macs, 4.0 * macs};
}

Layer ConvLayer(std::string name, int kernel, int64_t c_in, int64_t c_out, int64_t out_height,
                int64_t out_width, bool bias) {
  const int64_t weights = static_cast<int64_t>(kernel) * kernel * c_in * c_out;
  Layer layer = ComputeLayer(
      std::move(name), static_cast<double>(weights) * static_cast<double>(out_height * out_width));
  layer.params = weights + (bias ? c_out : 0);
  layer.tensors = {weights};
  if (bias) layer.tensors.push_back(c_out);
  layer.out = c_out;
  return layer;
}

Layer LinearLayer(std::string name, int64_t in, int64_t out, bool bias, int64_t rows) {
  Layer layer =
      ComputeLayer(std::move(name), static_cast<double>(in * out) * static_cast<double>(rows));
  layer.params = in * out + (bias ? out : 0);
  layer.tensors = {in * out};
  if (bias) layer.tensors.push_back(out);
  layer.out = out;
  return layer;
}

Layer NormLayer(std::string name, int64_t channels, int64_t elements) {
  Layer layer = ComputeLayer(std::move(name), static_cast<double>(elements));
  layer.params = 2 * channels;
  layer.tensors = {channels, channels};
  return layer;
}

// Shapes as in LeNet5's constructor: conv 5x5 pad 2 -> pool 2 -> conv 5x5 -> pool 2 -> 3 fc.
LayerProfile LeNet5Profile(int channels, int height, int width, int64_t classes) {
  const ConvShape conv1{channels, height, width, 5, 2};
  const ConvShape conv2{6, height / 2, width / 2, 5, 0};
  COMMSIM_CHECK(conv2.out_height() > 0 && conv2.out_width() > 0, "image {}x{}", height, width);
  const int64_t flat = 16LL * (conv2.out_height() / 2) * (conv2.out_width() / 2);
  LayerProfile p{"lenet5", {}};
  p.layers.push_back(
      ConvLayer("conv1", 5, channels, 6, conv1.out_height(), conv1.out_width(), true));
  p.layers.push_back(ConvLayer("conv2", 5, 6, 16, conv2.out_height(), conv2.out_width(), true));
  p.layers.push_back(LinearLayer("fc1", flat, 120, true));
  p.layers.push_back(LinearLayer("fc2", 120, 84, true));
  p.layers.push_back(LinearLayer("fc3", 84, classes, true));
  return p;
}

LayerProfile MlpProfile(const std::vector<int64_t>& widths) {
  COMMSIM_CHECK(widths.size() >= 2, "{} widths", widths.size());
  LayerProfile p{"mlp", {}};
  for (size_t l = 0; l + 1 < widths.size(); ++l) {
    p.layers.push_back(LinearLayer(fmt::format("fc{}", l + 1), widths[l], widths[l + 1], true));
  }
  return p;
}

}  // namespace commsim
