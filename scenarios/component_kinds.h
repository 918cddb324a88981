// The component kinds that scenario JSON can name ("compressor", "algorithm", "model", ...): for
// each, the registered names and a factory for a name's default config. ReadComponent looks kinds
// up here; this is the one place that connects the registries to the JSON reader.
#ifndef COMMSIM_SCENARIOS_COMPONENT_KINDS_H_
#define COMMSIM_SCENARIOS_COMPONENT_KINDS_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/params.h"
#include "base/registry.h"

namespace commsim {

struct ComponentKind {
  std::string kind;
  std::function<std::vector<std::string>()> names;
  // nullptr when `name` is not registered.
  std::function<std::unique_ptr<Config>(std::string_view name)> make_config;
};

class ComponentKinds {
 public:
  ComponentKinds& Add(ComponentKind kind);
  // Adapts a Registry: Add(FromRegistry("compressor", CompressorRegistry())).
  template <class R>
  static ComponentKind FromRegistry(std::string kind, const R& registry) {
    return ComponentKind{std::move(kind), [&registry] { return registry.names(); },
                         [&registry](std::string_view name) -> std::unique_ptr<Config> {
                           const auto* entry = registry.Find(name);
                           return entry ? entry->make_config() : nullptr;
                         }};
  }
  const ComponentKind* Find(std::string_view kind) const;

 private:
  std::vector<ComponentKind> kinds_;
};

// Every kind of the program (built once from the registries; immutable).
const ComponentKinds& AllComponentKinds();

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_COMPONENT_KINDS_H_
