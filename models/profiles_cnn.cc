// Convolutional network profiles (see profiles.h for the counting conventions).
#include <fmt/format.h>

#include "models/profiles.h"

namespace commsim {
namespace {

// Adds conv (no bias) + batch norm, as every ResNet convolution is followed by one.
void AddConvBn(LayerProfile& p, const std::string& prefix, const std::string& conv,
               const std::string& bn, int kernel, int64_t c_in, int64_t c_out, int64_t out_size) {
  p.layers.push_back(ConvLayer(prefix + conv, kernel, c_in, c_out, out_size, out_size, false));
  p.layers.push_back(NormLayer(prefix + bn, c_out, c_out * out_size * out_size));
}

// ResNet basic block (two 3x3 convolutions) on `in_size` x `in_size` inputs; the shortcut is a
// 1x1 convolution + batch norm when the shape changes.
void AddBasicBlock(LayerProfile& p, const std::string& prefix, int64_t c_in, int64_t c_out,
                   int stride, int64_t in_size) {
  const int64_t out = in_size / stride;
  AddConvBn(p, prefix, "conv1", "bn1", 3, c_in, c_out, out);
  AddConvBn(p, prefix, "conv2", "bn2", 3, c_out, c_out, out);
  if (stride != 1 || c_in != c_out) {
    AddConvBn(p, prefix, "downsample.0", "downsample.1", 1, c_in, c_out, out);
  }
}

// ResNet bottleneck (torchvision, "v1.5": the stride sits in the 3x3 convolution); output
// channels 4 x width.
void AddBottleneck(LayerProfile& p, const std::string& prefix, int64_t c_in, int64_t width,
                   int stride, int64_t in_size) {
  const int64_t out = in_size / stride;
  AddConvBn(p, prefix, "conv1", "bn1", 1, c_in, width, in_size);
  AddConvBn(p, prefix, "conv2", "bn2", 3, width, width, out);
  AddConvBn(p, prefix, "conv3", "bn3", 1, width, 4 * width, out);
  if (stride != 1 || c_in != 4 * width) {
    AddConvBn(p, prefix, "downsample.0", "downsample.1", 1, c_in, 4 * width, out);
  }
}

}  // namespace

// ResNet-18 for CIFAR-10 (He et al. 2016, the variant of the common CIFAR training code): 3x3
// stem without max-pool on 32x32 images, stages of 2 basic blocks (64, 128, 256, 512 channels at
// 32, 16, 8, 4 pixels), global average pool, linear 512 -> 10.
LayerProfile ResNet18CifarProfile() {
  LayerProfile p{"resnet18", {}};
  AddConvBn(p, "", "conv1", "bn1", 3, 3, 64, 32);
  int64_t channels = 64, size = 32;
  for (int stage = 0; stage < 4; ++stage) {
    const int64_t c_out = 64LL << stage;
    for (int block = 0; block < 2; ++block) {
      const int stride = stage > 0 && block == 0 ? 2 : 1;
      AddBasicBlock(p, fmt::format("layer{}.{}.", stage + 1, block), channels, c_out, stride, size);
      channels = c_out;
      size /= stride;
    }
  }
  p.layers.push_back(LinearLayer("fc", 512, 10, true));
  return p;
}

// ResNet-50 for ImageNet (torchvision resnet50): 7x7 stride-2 stem + max-pool on 224x224 images,
// stages of 3, 4, 6, 3 bottlenecks (widths 64, 128, 256, 512 at 56, 28, 14, 7 pixels), linear
// 2048 -> 1000.
LayerProfile ResNet50Profile() {
  LayerProfile p{"resnet50", {}};
  AddConvBn(p, "", "conv1", "bn1", 7, 3, 64, 112);
  const int blocks[4] = {3, 4, 6, 3};
  int64_t channels = 64, size = 56;
  for (int stage = 0; stage < 4; ++stage) {
    const int64_t width = 64LL << stage;
    for (int block = 0; block < blocks[stage]; ++block) {
      const int stride = stage > 0 && block == 0 ? 2 : 1;
      AddBottleneck(p, fmt::format("layer{}.{}.", stage + 1, block), channels, width, stride, size);
      channels = 4 * width;
      size /= stride;
    }
  }
  p.layers.push_back(LinearLayer("fc", 2048, 1000, true));
  return p;
}

// VGG-16 for ImageNet (Simonyan & Zisserman 2015, configuration D; torchvision vgg16, without
// batch norm): 13 3x3 convolutions with biases on 224x224 images, max-pools after blocks of 2,
// 2, 3, 3, 3, then linear 25088 -> 4096 -> 4096 -> 1000.
LayerProfile Vgg16Profile() {
  LayerProfile p{"vgg16", {}};
  const int convs[5] = {2, 2, 3, 3, 3};
  const int64_t widths[5] = {64, 128, 256, 512, 512};
  int64_t channels = 3, size = 224;
  int index = 0;
  for (int block = 0; block < 5; ++block) {
    for (int c = 0; c < convs[block]; ++c) {
      p.layers.push_back(ConvLayer(fmt::format("features.{}", index), 3, channels, widths[block],
                                   size, size, true));
      channels = widths[block];
      index += 2;  // conv, ReLU
    }
    size /= 2;
    ++index;  // max-pool
  }
  p.layers.push_back(LinearLayer("classifier.0", channels * size * size, 4096, true));
  p.layers.push_back(LinearLayer("classifier.3", 4096, 4096, true));
  p.layers.push_back(LinearLayer("classifier.6", 4096, 1000, true));
  return p;
}

}  // namespace commsim
