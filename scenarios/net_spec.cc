#include "scenarios/net_spec.h"

#include <fmt/format.h>

#include <limits>
#include <utility>

#include "base/error.h"
#include "scenarios/json_config.h"
#include "scenarios/runner.h"
#include "sim/topology_registry.h"

namespace commsim {
namespace {

// The spec's fields as a Config, so that reading, defaults and the resolved form all come from
// one Describe().
struct NetSpecConfig final : ConfigBase<NetSpecConfig> {
  NetSpec spec;
  std::string pattern = "incast";

  NetSpecConfig() { spec.topology = TopologyRegistry().DefaultSpec(kTopologyKind, "star"); }
  void Describe(ParamVisitor& v) override {
    v.Int("workers", spec.workers, Range::Closed(1, std::numeric_limits<int>::max()),
          "workers (star kinds) or nodes (other topologies)");
    v.Component("topology", spec.topology, "the network topology");
    DescribeNetworkKeys(v, spec.keys);
    v.Text("pattern", pattern, TrafficPatternNames(), "the message pattern to run");
    v.Int("message", spec.message_bits, Range::NonNegative(), "bits of each message", Unit::kBits);
  }
};

}  // namespace

NetSpec ParseNetSpec(const nlohmann::json& doc, const std::string& origin) {
  NetSpecConfig config;
  ErrorList errors;
  ReadConfig(doc, "", config, errors);
  config.spec.network = ResolveNetworkKeys(config.spec.keys, &doc, "", errors);
  errors.ThrowIfAny(origin);
  NetSpec spec = std::move(config.spec);
  spec.pattern = *ParseTrafficPattern(config.pattern);
  try {
    const Topology t = BuildNetTopology(spec);
    if (NeedsServer(spec.pattern) && !t.server()) {
      errors.Add("/pattern", fmt::format("\"{}\" needs a topology with a server ({}), got {}",
                                         config.pattern, ServerTopologyList(), spec.topology.name));
    }
  } catch (const UserError& e) {
    errors.Add("/topology", e.what());
  }
  errors.ThrowIfAny(origin);
  return spec;
}

NetSpec LoadNetSpec(const std::string& path, const std::vector<std::string>& sets) {
  nlohmann::json doc = LoadJsonFile(path);
  for (const std::string& set : sets) ApplySet(doc, set);
  return ParseNetSpec(doc, path);
}

nlohmann::json ResolvedNetSpec(const NetSpec& spec) {
  NetSpecConfig config;
  config.spec = spec;
  config.pattern = std::string(TrafficPatternNames()[static_cast<size_t>(spec.pattern)]);
  return WriteConfig(config);
}

Topology BuildNetTopology(const NetSpec& spec) {
  return BuildTopology(spec.topology, static_cast<int>(spec.workers));
}

}  // namespace commsim
