#include "scenarios/tune_consensus.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "algorithms/decentralized/choco.h"
#include "algorithms/decentralized/decentralized_run.h"
#include "algorithms/registry.h"
#include "base/error.h"
#include "scenarios/json_config.h"
#include "sim/topology_registry.h"

namespace commsim {
namespace {

ComponentSpec ReadOption(const std::string& option, const std::string& text, std::string kind) {
  nlohmann::json value;
  try {
    value = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error&) {
    value = text;  // a bare name: --compressor top_k
  }
  ComponentSpec spec;
  spec.kind = std::move(kind);
  ErrorList errors;
  ReadComponent(value, "", spec, errors);
  errors.ThrowIfAny(option);
  return spec;
}

}  // namespace

TuneReport RunTuneConsensus(const TuneRequest& request) {
  if (request.nodes < 2) {
    throw UserError(fmt::format("--nodes: need at least 2 nodes, got {}", request.nodes));
  }
  if (request.options.dim < 1) {
    throw UserError(fmt::format("--dim: must be >= 1, got {}", request.options.dim));
  }
  if (request.options.rounds < 1) {
    throw UserError(fmt::format("--rounds: must be >= 1, got {}", request.options.rounds));
  }
  for (double g : request.options.grid) {
    if (!(g > 0.0 && g <= 1.0)) {
      throw UserError(fmt::format("--grid: every gamma_c must be in (0, 1], got {}", g));
    }
  }
  if (std::find(MixingKinds().begin(), MixingKinds().end(), request.mixing) ==
      MixingKinds().end()) {
    throw UserError(fmt::format("--mixing: expected one of {}, got \"{}\"",
                                fmt::join(MixingKinds(), ", "), request.mixing));
  }
  if (request.options.rescale != "auto" && request.options.rescale != "none") {
    throw UserError(
        fmt::format("--rescale: expected auto or none, got \"{}\"", request.options.rescale));
  }
  const ComponentSpec topology_spec =
      ReadOption("--topology", request.topology_json, std::string(kTopologyKind));
  const ComponentSpec compressor_spec =
      ReadOption("--compressor", request.compressor_json, std::string(kCompressorKind));
  if (std::find(GraphChoices().begin(), GraphChoices().end(), request.graph) ==
      GraphChoices().end()) {
    throw UserError(fmt::format("--graph: expected one of {}, got \"{}\"",
                                fmt::join(GraphChoices(), ", "), request.graph));
  }
  const Topology topology = BuildTopology(topology_spec, static_cast<int>(request.nodes));
  const MixingMatrix mixing = MixingForTopology(request.mixing, request.graph, topology);
  const std::unique_ptr<Compressor> compressor = CompressorRegistry().Make(compressor_spec);

  TuneReport report;
  report.tuning = TuneConsensus(mixing, *compressor, request.options);
  const MixingMatrix::Spectrum spectrum = mixing.ComputeSpectrum();
  report.spectral_gap = spectrum.spectral_gap;
  report.rho = spectrum.rho;
  report.compressor = WriteComponent(compressor_spec).dump();
  report.topology = WriteComponent(topology_spec).dump();
  report.tau = ChocoScale(request.options.rescale, *compressor, request.options.dim);
  return report;
}

std::string FormatTuneReport(const TuneRequest& request, const TuneReport& report) {
  const ConsensusTuning& t = report.tuning;
  const int64_t rounds = request.options.rounds;
  std::string out = fmt::format(
      "CHOCO gossip, {} nodes on {}\n  mixing {}: spectral gap {:.4f}, rho {:.4f}\n"
      "  compressor {} (tau {:.4g}, rescale {})\n  d = {}, {} rounds, seed {}\n\n",
      request.nodes, report.topology, request.mixing, report.spectral_gap, report.rho,
      report.compressor, report.tau, request.options.rescale, request.options.dim, rounds,
      request.options.seed);
  out += fmt::format("  {:>8}  {:>12}  {:>10}  {:>14}\n", "gamma_c", "final error", "rate/round",
                     "bits/node/round");
  for (size_t g = 0; g < t.grid.size(); ++g) {
    const bool diverged = !std::isfinite(t.final_error[g]);
    const std::string rate =
        diverged
            ? "-"
            : fmt::format("{:.4f}", std::pow(t.final_error[g], 1.0 / static_cast<double>(rounds)));
    const size_t done = t.curves[g].size() - 1;
    out += fmt::format(
        "  {:>8.4g}  {:>12}  {:>10}  {:>14.1f}{}\n", t.grid[g],
        diverged ? fmt::format("diverged@{}", done) : fmt::format("{:.3e}", t.final_error[g]), rate,
        static_cast<double>(t.bits[g]) /
            static_cast<double>(request.nodes * std::max<size_t>(done, 1)),
        g == t.best ? "  <- best" : "");
  }
  out += fmt::format("\nbest: \"gamma_c\": {}\n", t.best_gamma());
  return out;
}

}  // namespace commsim
