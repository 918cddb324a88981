// The registries of pluggable algorithm components (one explicit registry file, one
// line per component, no static-initializer self-registration).
//
// AlgorithmRegistry(): every learning algorithm, one AddAlgorithm line each carrying its
// metadata (AlgorithmInfo: family, baseline, plot colour, help).
// The compressors have their own registry (compression/registry.h).
#ifndef COMMSIM_ALGORITHMS_REGISTRY_H_
#define COMMSIM_ALGORITHMS_REGISTRY_H_

#include <memory>
#include <string_view>
#include <utility>

#include "algorithms/algorithm.h"
#include "base/params.h"
#include "base/registry.h"
#include "compression/registry.h"

namespace commsim {

inline constexpr std::string_view kAlgorithmKind = "algorithm";

const Registry<Algorithm>& AlgorithmRegistry();

// Registers Impl, which is a RuleAlgorithm (algorithm.h): PsAlgorithm<Rule> (ps/ps_driver.h),
// DecentralizedAlgorithm<Rule> (decentralized/decentralized_run.h) or CollectiveAlgorithm<Rule>
// (collective/collective_driver.h); or any Algorithm with `using Config`, a `static constexpr
// Family kFamily` and a constructor (const Config&, AlgorithmInfo). `set_defaults` adjusts the
// fresh config (e.g. `qsgd` is `sgd` with another default uplink compressor).
template <class Impl>
void AddAlgorithm(Registry<Algorithm>& registry, AlgorithmInfo info,
                  void (*set_defaults)(typename Impl::Config&) = nullptr) {
  using Cfg = typename Impl::Config;
  info.family = Impl::kFamily;
  Registry<Algorithm>::Entry entry;
  entry.name = info.name;
  entry.help = info.help;
  entry.make_config = [set_defaults]() -> std::unique_ptr<Config> {
    auto config = std::make_unique<Cfg>();
    if (set_defaults != nullptr) set_defaults(*config);
    return config;
  };
  entry.make = [info = std::move(info)](const Config& config) -> std::unique_ptr<Algorithm> {
    return std::make_unique<Impl>(static_cast<const Cfg&>(config), info);
  };
  registry.AddEntry(std::move(entry));
}

// The registered algorithm `name` built from `config` (tests, tools).
// REQUIRES: name is registered and config has its config type.
std::unique_ptr<Algorithm> MakeAlgorithm(std::string_view name, const Config& config);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_REGISTRY_H_
