#include <fmt/format.h>

#include <memory>

#include "app/commands.h"
#include "scenarios/tune_consensus.h"

namespace commsim::app {

void AddTuneConsensusCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "tune-consensus",
      "Pick CHOCO's consensus step gamma_c: gossip-only runs from random vectors over a grid");
  auto request = std::make_shared<TuneRequest>();
  cmd->add_option("--topology", request->topology_json,
                  "topology JSON or name, e.g. '{\"name\": \"torus\"}' (default ring)");
  cmd->add_option("--nodes", request->nodes, "number of nodes (default 8)");
  cmd->add_option("--compressor", request->compressor_json,
                  "compressor JSON or name, e.g. '{\"name\": \"top_k\", \"fraction\": 0.01}'");
  cmd->add_option("--mixing", request->mixing, "mixing matrix kind (default auto)");
  cmd->add_option("--graph", request->graph,
                  "gossip graph: auto, topology, ring, torus, complete (default auto)");
  cmd->add_option("--rescale", request->options.rescale,
                  "auto: CHOCO's tau = 1 + omega for unbiased compressors; none (default auto)");
  cmd->add_option("--dim", request->options.dim, "vector dimension (default 1000)");
  cmd->add_option("--rounds", request->options.rounds, "gossip rounds per gamma_c (default 300)");
  cmd->add_option("--grid", request->options.grid, "gamma_c values (default 1 ... 0.002)")
      ->delimiter(',');
  cmd->add_option("--seed", request->options.seed, "seed of the random start (default 1)");
  cmd->callback([request] {
    const TuneReport report = RunTuneConsensus(*request);
    fmt::print("{}", FormatTuneReport(*request, report));
  });
}

}  // namespace commsim::app
