#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "app/commands.h"
#include "sim/error.h"

int main(int argc, char** argv) {
  CLI::App app{"commsim: discrete-event network simulator for communication-compressed learning"};
  app.set_version_flag("--version", "commsim " COMMSIM_VERSION);
  app.require_subcommand(0, 1);
  commsim::app::AddListCommand(app);
  commsim::app::AddNetCommand(app);
  commsim::app::AddDataCommand(app);
  commsim::app::AddCompressCommand(app);
  commsim::app::AddTuneConsensusCommand(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const commsim::UserError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  if (app.get_subcommands().empty()) {
    std::fputs(app.help().c_str(), stdout);
  }
  return 0;
}
