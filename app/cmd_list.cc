#include <fmt/format.h>

#include <memory>
#include <string_view>

#include "algorithms/registry.h"
#include "app/commands.h"
#include "models/compute_time.h"
#include "models/registry.h"
#include "sim/params_text.h"
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
}

}  // namespace

void AddListCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "List the registered components and their parameters");
  cmd->callback([] { PrintAll(); });
}

}  // namespace commsim::app
