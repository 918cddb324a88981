#include <fmt/format.h>

#include "algorithms/registry.h"
#include "app/commands.h"
#include "sim/params_text.h"

namespace commsim::app {
namespace {

template <class R>
void PrintSection(std::string_view title, const R& registry) {
  fmt::print("{}:\n", title);
  for (const auto& entry : registry.entries()) {
    fmt::print("  {:<14} {}\n", entry.name, entry.help);
    const std::unique_ptr<Config> config = entry.make_config();
    fmt::print("{}", DescribeParams(*config, "      "));
  }
}

}  // namespace

void AddListCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "List the registered components and their parameters");
  cmd->callback([] { PrintSection("compressors", CompressorRegistry()); });
}

}  // namespace commsim::app
