#include <fmt/format.h>

#include <string_view>

#include "app/commands.h"
#include "sim/params_text.h"
#include "sim/topology_registry.h"

namespace commsim::app {
namespace {

// One section per registry: each entry's name and help, then its parameters with defaults.
template <class R>
void PrintSection(std::string_view title, const R& registry) {
  fmt::print("{}:\n", title);
  for (const auto& entry : registry.entries()) {
    fmt::print("  {}  {}\n", entry.name, entry.help);
    fmt::print("{}", DescribeParams(*entry.make_config(), "      "));
  }
}

}  // namespace

void AddListCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "List the registered components and their parameters");
  cmd->callback([] {
    PrintSection("topologies (built for n = workers on star kinds, n = nodes otherwise)",
                 TopologyRegistry());
  });
}

}  // namespace commsim::app
