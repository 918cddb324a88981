// Convolutional network profiles (see profiles.h for the counting conventions).
#include <fmt/format.h>

#include <string>
#include <utility>

#include "models/profiles.h"

namespace commsim {
namespace {

// Adds conv (no bias) + batch norm, as every ResNet convolution is followed by one.
void AddConvBn(LayerProfile& p, const std::string& prefix, const std::string& conv,
               const std::string& bn, int kernel, int64_t c_in, int64_t c_out, int64_t out_size) {
  p.layers.push_back(ConvLayer(prefix + conv, kernel, c_in, c_out, out_size, out_size, false));
  p.layers.push_back(NormLayer(prefix + bn, c_out, c_out * out_size * out_size));
}

// ResNet basic block (two 3x3 convolutions) on `in_size` x `in_size` inputs; when the shape
// changes the shortcut is a 1x1 convolution + batch norm (`projection`) or parameter-free (option
// A of He et al. 2016: identity with zero-padded channels).
void AddBasicBlock(LayerProfile& p, const std::string& prefix, int64_t c_in, int64_t c_out,
                   int stride, int64_t in_size, bool projection) {
  const int64_t out = in_size / stride;
  AddConvBn(p, prefix, "conv1", "bn1", 3, c_in, c_out, out);
  AddConvBn(p, prefix, "conv2", "bn2", 3, c_out, c_out, out);
  if (projection && (stride != 1 || c_in != c_out)) {
    AddConvBn(p, prefix, "downsample.0", "downsample.1", 1, c_in, c_out, out);
  }
}

// A ResNet of basic blocks for CIFAR-10: 3x3 stem 3 -> `width` without max-pool on 32x32 images,
// `stages` stages of `blocks` blocks (channels doubling and size halving from the second stage),
// global average pool, linear -> 10.
LayerProfile CifarBasicResNet(std::string name, int64_t width, int stages, int blocks,
                              bool projection) {
  LayerProfile p{std::move(name), {}};
  AddConvBn(p, "", "conv1", "bn1", 3, 3, width, 32);
  int64_t channels = width, size = 32;
  for (int stage = 0; stage < stages; ++stage) {
    const int64_t c_out = width << stage;
    for (int block = 0; block < blocks; ++block) {
      const int stride = stage > 0 && block == 0 ? 2 : 1;
      AddBasicBlock(p, fmt::format("layer{}.{}.", stage + 1, block), channels, c_out, stride, size,
                    projection);
      channels = c_out;
      size /= stride;
    }
  }
  p.layers.push_back(LinearLayer("fc", channels, 10, true));
  return p;
}

// ResNet bottleneck (torchvision, "v1.5": the stride sits in the 3x3 convolution): 1x1 to
// `width`, 3x3 in `groups` groups (ResNeXt; 1 for ResNet), 1x1 to `c_out` channels.
void AddBottleneck(LayerProfile& p, const std::string& prefix, int64_t c_in, int64_t width,
                   int64_t c_out, int64_t groups, int stride, int64_t in_size) {
  const int64_t out = in_size / stride;
  AddConvBn(p, prefix, "conv1", "bn1", 1, c_in, width, in_size);
  // A grouped convolution is `groups` convolutions of width/groups input channels each.
  AddConvBn(p, prefix, "conv2", "bn2", 3, width / groups, width, out);
  AddConvBn(p, prefix, "conv3", "bn3", 1, width, c_out, out);
  if (stride != 1 || c_in != c_out) {
    AddConvBn(p, prefix, "downsample.0", "downsample.1", 1, c_in, c_out, out);
  }
}

// torchvision's ResNet/ResNeXt for ImageNet: 7x7 stride-2 stem + max-pool on 224x224 images,
// stages of `blocks` bottlenecks (planes 64, 128, 256, 512 at 56, 28, 14, 7 pixels; width =
// planes x width_per_group / 64 x groups, output 4 x planes), linear 2048 -> 1000.
LayerProfile BottleneckResNet(std::string name, const int (&blocks)[4], int64_t groups,
                              int64_t width_per_group) {
  LayerProfile p{std::move(name), {}};
  AddConvBn(p, "", "conv1", "bn1", 7, 3, 64, 112);
  int64_t channels = 64, size = 56;
  for (int stage = 0; stage < 4; ++stage) {
    const int64_t planes = 64LL << stage;
    const int64_t width = planes * width_per_group / 64 * groups;
    for (int block = 0; block < blocks[stage]; ++block) {
      const int stride = stage > 0 && block == 0 ? 2 : 1;
      AddBottleneck(p, fmt::format("layer{}.{}.", stage + 1, block), channels, width, 4 * planes,
                    groups, stride, size);
      channels = 4 * planes;
      size /= stride;
    }
  }
  p.layers.push_back(LinearLayer("fc", 2048, 1000, true));
  return p;
}

}  // namespace

// ResNet-18 for CIFAR-10 (He et al. 2016, the variant of the common CIFAR training code): 3x3
// stem without max-pool on 32x32 images, stages of 2 basic blocks (64, 128, 256, 512 channels at
// 32, 16, 8, 4 pixels), projection shortcuts, global average pool, linear 512 -> 10.
LayerProfile ResNet18CifarProfile() { return CifarBasicResNet("resnet18", 64, 4, 2, true); }

// ResNet-20 for CIFAR-10 (He et al. 2016, section 4.2): stages of 3 basic blocks (16, 32, 64
// channels at 32, 16, 8 pixels) with parameter-free shortcuts (option A), linear 64 -> 10.
LayerProfile ResNet20CifarProfile() { return CifarBasicResNet("resnet20", 16, 3, 3, false); }

// torchvision resnet50 (stages 3, 4, 6, 3) and resnet101 (3, 4, 23, 3).
LayerProfile ResNet50Profile() { return BottleneckResNet("resnet50", {3, 4, 6, 3}, 1, 64); }
LayerProfile ResNet101Profile() { return BottleneckResNet("resnet101", {3, 4, 23, 3}, 1, 64); }

// torchvision resnext50_32x4d and resnext101_32x8d (Xie et al. 2017): 32 groups of 4 (8)
// channels per group at the first stage.
LayerProfile ResNeXt50Profile() { return BottleneckResNet("resnext50_32x4d", {3, 4, 6, 3}, 32, 4); }
LayerProfile ResNeXt101Profile() {
  return BottleneckResNet("resnext101_32x8d", {3, 4, 23, 3}, 32, 8);
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
