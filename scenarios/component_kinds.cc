#include "scenarios/component_kinds.h"

#include <algorithm>

#include "algorithms/registry.h"
#include "models/registry.h"
#include "sim/topology_registry.h"

namespace commsim {

ComponentKinds& ComponentKinds::Add(ComponentKind kind) {
  kinds_.push_back(std::move(kind));
  return *this;
}

const ComponentKind* ComponentKinds::Find(std::string_view kind) const {
  auto it = std::find_if(kinds_.begin(), kinds_.end(),
                         [&](const ComponentKind& k) { return k.kind == kind; });
  return it == kinds_.end() ? nullptr : &*it;
}

const ComponentKinds& AllComponentKinds() {
  // One line per kind: ComponentKinds::FromRegistry("<kind>", <Kind>Registry()).
  static const ComponentKinds kinds = [] {
    ComponentKinds k;
    k.Add(ComponentKinds::FromRegistry(std::string(kAlgorithmKind), AlgorithmRegistry()));
    k.Add(ComponentKinds::FromRegistry(std::string(kCompressorKind), CompressorRegistry()));
    k.Add(ComponentKinds::FromRegistry(kTopologyKind, TopologyRegistry()));
    k.Add(ComponentKinds::FromRegistry(std::string(kModelKind), ModelRegistry()));
    k.Add(ComponentKinds::FromRegistry(std::string(kDatasetKind), DatasetRegistry()));
    k.Add(ComponentKinds::FromRegistry(std::string(kPartitionKind), PartitionRegistry()));
    return k;
  }();
  return kinds;
}

}  // namespace commsim
