// The rules of every registered algorithm of one family, each with the registry's default config:
// the suites that must cover every rule of a family (the threading suites of the three drivers)
// iterate these, so a new registry line is covered without editing any test. The toy rules of the
// plug-in recipe (toy_rules_test_util.h, a registry of their own) come last: a rule registered by
// the recipe is covered as a shipped one is.
#ifndef COMMSIM_ALGORITHMS_REGISTERED_RULES_TEST_UTIL_H_
#define COMMSIM_ALGORITHMS_REGISTERED_RULES_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "algorithms/toy_rules_test_util.h"

namespace commsim::testing {

template <class FamilyDriver>
struct RegisteredRule {
  std::string name;
  typename FamilyDriver::RuleFactory make;
};

// Every algorithm of AlgorithmRegistry(), then of ToyAlgorithmRegistry(), that is a
// FamilyAlgorithm<FamilyDriver>, in registry order (algorithm.h: every RuleAlgorithm is one).
template <class FamilyDriver>
std::vector<RegisteredRule<FamilyDriver>> RegisteredRules() {
  std::vector<RegisteredRule<FamilyDriver>> out;
  for (const Registry<Algorithm>* registry : {&AlgorithmRegistry(), &ToyAlgorithmRegistry()}) {
    for (const Registry<Algorithm>::Entry& entry : registry->entries()) {
      const std::unique_ptr<Config> config = entry.make_config();
      const std::unique_ptr<Algorithm> algorithm = entry.make(*config);
      const auto* family = dynamic_cast<const FamilyAlgorithm<FamilyDriver>*>(algorithm.get());
      if (family != nullptr) out.push_back({entry.name, family->rule_factory()});
    }
  }
  return out;
}

}  // namespace commsim::testing

#endif  // COMMSIM_ALGORITHMS_REGISTERED_RULES_TEST_UTIL_H_
