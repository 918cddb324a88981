#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "app/commands.h"
#include "scenarios/net_run.h"
#include "scenarios/net_spec.h"

namespace commsim::app {

void AddNetCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "net", "Run a message pattern on a topology; print message times and link utilisation");
  struct Options {
    std::string spec;
    bool all_links = false;
    bool resolved = false;
    std::vector<std::string> sets;
  };
  auto options = std::make_shared<Options>();
  cmd->add_option("spec", options->spec, "net spec JSON file (see scenarios/net/)")->required();
  cmd->add_flag("--all-links", options->all_links, "also list links that carried nothing");
  cmd->add_flag("--resolved", options->resolved, "print the spec with every default and exit");
  cmd->add_option("--set", options->sets, "override a value: /json/pointer=value (repeatable)");
  cmd->callback([options] {
    const NetSpec spec = LoadNetSpec(options->spec, options->sets);
    if (options->resolved) {
      fmt::print("{}\n", ResolvedNetSpec(spec).dump(2));
      return;
    }
    fmt::print("{}", FormatNetReport(spec, RunNetSpec(spec), options->all_links));
  });
}

}  // namespace commsim::app
