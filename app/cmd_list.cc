#include <fmt/format.h>

#include <memory>
#include <string>
#include <string_view>

#include "algorithms/registry.h"
#include "app/commands.h"
#include "base/params_text.h"
#include "models/compute_time.h"
#include "models/layer_profile.h"
#include "models/registry.h"
#include "sim/topology_registry.h"

namespace commsim::app {
namespace {

// One section per registry: each entry's name and help, then its parameters with defaults.
template <class R>
void PrintSection(std::string_view title, const R& registry) {
  fmt::print("{}:\n", title);
  for (const auto& entry : registry.entries()) {
    fmt::print("  {:<14} {}\n", entry.name, entry.help);
    const std::unique_ptr<Config> config = entry.make_config();
    fmt::print("{}", DescribeParams(*config, "      "));
  }
}

// The shipped layer profiles: parameters, layers and FLOPs per sample (forward, and forward +
// backward, which is what the compute-time model charges per sample in mode flops).
void PrintProfiles() {
  fmt::print(
      "layer profiles (model key \"profile\" of synthetic_quadratic; lenet5 and mlp report their "
      "own):\n");
  fmt::print("  {:<12} {:>13} {:>7} {:>16} {:>20}\n", "name", "parameters", "layers",
             "GFLOP/sample fwd", "GFLOP/sample fwd+bwd");
  for (const std::string& name : LayerProfileNames()) {
    const LayerProfile& p = *FindLayerProfile(name);
    const double forward = p.ForwardFlopsPerSample();
    fmt::print("  {:<12} {:>13} {:>7} {:>16.4g} {:>20.4g}\n", name, p.TotalParams(),
               p.layers.size(), forward / 1e9, (forward + p.BackwardFlopsPerSample()) / 1e9);
  }
}

void PrintAll() {
  PrintSection("algorithms (scenario key \"algorithms\")", AlgorithmRegistry());
  PrintSection("topologies (n = the scenario's workers; a server is an extra host)",
               TopologyRegistry());
  PrintSection("compressors", CompressorRegistry());
  PrintSection("models", ModelRegistry());
  PrintSection("datasets", DatasetRegistry());
  PrintSection("partitions", PartitionRegistry());
  ComputeTimeConfig compute;
  fmt::print("compute (scenario key \"compute\"):\n{}", DescribeParams(compute, "      "));
  PrintProfiles();
}

}  // namespace

void AddListCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "list",
      "List the registered components and their parameters (`list profiles`: the layer "
      "profiles only)");
  auto section = std::make_shared<std::string>();
  cmd->add_option("section", *section, "print only this part")->check(CLI::IsMember({"profiles"}));
  cmd->callback([section] { *section == "profiles" ? PrintProfiles() : PrintAll(); });
}

}  // namespace commsim::app
