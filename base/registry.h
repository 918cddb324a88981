// A registry of named components of one kind (one explicit registry file per kind, one
// line per component, no static-initializer self-registration).
//
// An entry pairs a name and help text with two factories: a default typed config, and the
// component built from such a config plus the construction arguments `Args...` the kind needs.
// Registries are built once by a function in the kind's registry file and then only read.
#ifndef COMMSIM_BASE_REGISTRY_H_
#define COMMSIM_BASE_REGISTRY_H_

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/check.h"
#include "base/params.h"

namespace commsim {

template <class Base, class... Args>
class Registry {
 public:
  struct Entry {
    std::string name;
    std::string help;
    std::function<std::unique_ptr<Config>()> make_config;
    std::function<std::unique_ptr<Base>(const Config&, Args...)> make;
  };

  // Impl must be constructible from (const Cfg&, Args...).
  template <class Impl, class Cfg>
  Registry& Add(std::string name, std::string help) {
    COMMSIM_CHECK(Find(name) == nullptr, "duplicate registry name {}", name);
    entries_.push_back(Entry{std::move(name), std::move(help),
                             [] { return std::make_unique<Cfg>(); },
                             [](const Config& config, Args... args) -> std::unique_ptr<Base> {
                               return std::make_unique<Impl>(static_cast<const Cfg&>(config),
                                                             std::forward<Args>(args)...);
                             }});
    return *this;
  }

  // The same, with registry-specific defaults applied to the fresh config (e.g. `qsgd` is `sgd`
  // with another default uplink compressor).
  template <class Impl, class Cfg>
  Registry& Add(std::string name, std::string help, void (*set_defaults)(Cfg&)) {
    Add<Impl, Cfg>(std::move(name), std::move(help));
    entries_.back().make_config = [set_defaults] {
      auto config = std::make_unique<Cfg>();
      set_defaults(*config);
      return std::unique_ptr<Config>(std::move(config));
    };
    return *this;
  }

  // A hand-made entry, for kinds whose factory needs more than Impl(config, args...) (e.g. the
  // algorithms, built with their registry metadata).
  Registry& AddEntry(Entry entry) {
    COMMSIM_CHECK(Find(entry.name) == nullptr, "duplicate registry name {}", entry.name);
    entries_.push_back(std::move(entry));
    return *this;
  }

  // Adds `entry`, or replaces the entry of that name (a component defined while the program runs,
  // redefined). The caller keeps readers away meanwhile: Find's pointers are invalidated.
  Registry& Put(Entry entry) {
    auto it = std::find_if(entries_.begin(), entries_.end(),
                           [&](const Entry& e) { return e.name == entry.name; });
    if (it == entries_.end()) {
      entries_.push_back(std::move(entry));
    } else {
      *it = std::move(entry);
    }
    return *this;
  }

  const Entry* Find(std::string_view name) const {
    auto it = std::find_if(entries_.begin(), entries_.end(),
                           [&](const Entry& e) { return e.name == name; });
    return it == entries_.end() ? nullptr : &*it;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Entry& e : entries_) out.push_back(e.name);
    return out;
  }
  const std::vector<Entry>& entries() const { return entries_; }

  // A spec holding `name`'s default config. REQUIRES: name is registered.
  ComponentSpec DefaultSpec(std::string_view kind, std::string_view name) const {
    const Entry* e = Find(name);
    COMMSIM_CHECK(e != nullptr, "no {} named {}", kind, name);
    return ComponentSpec(std::string(kind), std::string(name), e->make_config());
  }
  // Builds the component a spec describes. REQUIRES: spec.name is registered, spec.config is set.
  std::unique_ptr<Base> Make(const ComponentSpec& spec, Args... args) const {
    const Entry* e = Find(spec.name);
    COMMSIM_CHECK(e != nullptr && spec.config != nullptr, "no {} named {}", spec.kind, spec.name);
    return e->make(*spec.config, std::forward<Args>(args)...);
  }

 private:
  std::vector<Entry> entries_;
};

}  // namespace commsim

#endif  // COMMSIM_BASE_REGISTRY_H_
