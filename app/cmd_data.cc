#include <fmt/format.h>

#include "app/commands.h"
#include "models/data/cache.h"
#include "models/data/raw_sources.h"

namespace commsim::app {

void AddDataCommand(CLI::App& app) {
  auto* data = app.add_subcommand("data", "Manage the built-in data sets");
  data->require_subcommand(1);
  auto* build = data->add_subcommand(
      "build",
      "Convert the raw downloads (data/raw, from scripts/fetch_data.sh) into the binary "
      "cache data/cache/*.bin; skips what is up to date");
  struct Options {
    bool quiet = false;
    bool force = false;
  };
  auto options = std::make_shared<Options>();
  build->add_flag("--quiet", options->quiet, "print nothing when everything is up to date");
  build->add_flag("--force", options->force, "rebuild every cache");
  build->callback([options] {
    const std::string dir = DataDir();
    const DataBuildReport report = BuildDataCache(dir, options->force);
    for (const std::string& name : report.built) {
      fmt::print("data: built {}\n", CachePath(dir, name));
    }
    if (!options->quiet && report.built.empty()) {
      fmt::print("data: all {} caches in {}/cache are up to date\n", report.up_to_date.size(), dir);
    }
  });
}

}  // namespace commsim::app
