#include <fmt/format.h>

#include "app/commands.h"

namespace commsim::app {

void AddListCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "List the registered components and their parameters");
  cmd->callback([] { fmt::print("(nothing registered yet)\n"); });
}

}  // namespace commsim::app
