// The shipped layer profiles, built once (on first use) from the architectures in profiles_*.cc.
#include "models/layer_profile.h"

#include <algorithm>

#include "models/profiles.h"

namespace commsim {
namespace {

const std::vector<LayerProfile>& Shipped() {
  static const std::vector<LayerProfile> profiles = [] {
    std::vector<LayerProfile> all;
    all.push_back(BertBaseProfile());
    all.push_back(Gpt2SmallProfile());
    all.push_back(LeNet5Profile(1, 28, 28, 10));  // MNIST
    all.push_back(MlpProfile({784, 64, 10}));     // MNIST, the default hidden layer
    all.push_back(ResNet18CifarProfile());
    all.push_back(ResNet20CifarProfile());
    all.push_back(ResNet50Profile());
    all.push_back(ResNet101Profile());
    all.push_back(ResNeXt50Profile());
    all.push_back(ResNeXt101Profile());
    all.push_back(Vgg16Profile());
    std::sort(all.begin(), all.end(),
              [](const LayerProfile& a, const LayerProfile& b) { return a.name < b.name; });
    return all;
  }();
  return profiles;
}

}  // namespace

const LayerProfile* FindLayerProfile(std::string_view name) {
  for (const LayerProfile& p : Shipped()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::vector<std::string> LayerProfileNames() {
  std::vector<std::string> names;
  for (const LayerProfile& p : Shipped()) names.push_back(p.name);
  return names;
}

}  // namespace commsim
