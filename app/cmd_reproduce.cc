// `commsim reproduce [NAME ...|all]`: runs the papers' reproductions (scenarios/reproductions.h)
// into one folder — a run folder per reproduction with its figures — and writes reproduction.md:
// per claim, the paper's number or shape, commsim's values and whether the claim holds, each
// "holds" computed from the run (analysis/claims.h).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "analysis/claims.h"
#include "analysis/output_folder.h"
#include "analysis/plot.h"
#include "analysis/version.h"
#include "app/commands.h"
#include "app/home.h"
#include "base/error.h"
#include "base/owned_folder.h"
#include "scenarios/reproductions.h"
#include "scenarios/runner.h"

namespace commsim::app {
namespace {

struct ReproduceArgs {
  std::vector<std::string> names;
  std::string manifest;
  bool list = false;
  RunFolderArgs run;
};

std::vector<Reproduction> Selected(const std::vector<Reproduction>& all,
                                   const std::vector<std::string>& names,
                                   const std::string& manifest) {
  if (names.empty() || std::find(names.begin(), names.end(), "all") != names.end()) return all;
  std::vector<Reproduction> out;
  for (const std::string& name : names) {
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const Reproduction& r) { return r.name == name; });
    if (it == all.end()) {
      std::vector<std::string> known;
      for (const Reproduction& r : all) known.push_back(r.name);
      throw UserError(fmt::format("reproduce: no reproduction named \"{}\" in {} (known: {}, all)",
                                  name, manifest, fmt::join(known, ", ")));
    }
    out.push_back(*it);
  }
  return out;
}

// A cell of a markdown table: no line breaks, '|' escaped.
std::string Cell(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::string out;
  for (const char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

// One reproduction's section of reproduction.md; counts its claims and those that hold.
// `shown_manifest`: the manifest's path as reproduction.md names it (scenario paths are shown
// beside it).
std::string Section(const Reproduction& r, const std::string& shown_manifest,
                    const RunResult& result, const std::vector<std::string>& labels, bool plots,
                    int* claims, int* held) {
  std::string md = fmt::format("## {} — {}\n\n", r.paper, r.figure);
  const std::string scenario =
      (std::filesystem::path(shown_manifest).parent_path() / r.scenario_as_written)
          .lexically_normal()
          .generic_string();
  md += fmt::format("Run: [`{0}/`]({0}/) from `{1}`. Differs from the paper: {2}\n\n", r.name,
                    scenario, r.differs);
  if (plots) {
    md += fmt::format(
        "Figures: [`{0}/plots/`]({0}/plots/) (loss, distance and accuracy against "
        "iterations, bits and time; bits and time per entry).\n\n",
        r.name);
  }
  md += "| claim | paper | commsim | holds |\n|---|---|---|---|\n";
  for (const ClaimConfig& c : r.claims) {
    const ClaimOutcome o = EvaluateClaim(c, result, labels);
    ++*claims;
    *held += o.holds ? 1 : 0;
    const std::string measured = c.note.empty() ? o.measured : o.measured + ". " + c.note;
    md += fmt::format("| {} | {} | {} | {} |\n", Cell(c.claim), Cell(c.paper), Cell(measured),
                      o.holds ? "yes" : "**no**");
  }
  return md + "\n";
}

void DoReproduce(const ReproduceArgs& args) {
  const std::string manifest = args.manifest.empty() ? RequireHome("the shipped reproductions") +
                                                           "/scenarios/papers/reproductions.json"
                                                     : args.manifest;
  const std::vector<Reproduction> chosen =
      Selected(LoadReproductions(manifest), args.names, manifest);
  if (args.list) {
    for (const Reproduction& r : chosen) {
      fmt::print("{:<24} {} — {} ({} claims)\n", r.name, r.paper, r.figure, r.claims.size());
    }
    return;
  }
  std::vector<Scenario> scenarios;  // every input checked before anything runs
  for (const Reproduction& r : chosen) scenarios.push_back(LoadScenario(r.scenario));
  const std::string out = args.run.out.empty() ? "results/reproduction" : args.run.out;
  const std::string origin = args.run.out.empty() ? out : "--out " + out;
  EnsureOutputFolder(out, OutputKind::kReproduction, origin);
  for (const Reproduction& r : chosen) {
    CheckOutputWritable(out + "/" + r.name, OutputKind::kRun, origin + "/" + r.name);
  }
  const std::string shown_manifest =
      args.manifest.empty() ? "scenarios/papers/reproductions.json" : manifest;
  std::string md = fmt::format(
      "# Reproduction of the papers' claims\n\ncommsim {}. Every \"holds\" below is computed "
      "from the run by the check the manifest names (`{}`); the values in \"commsim\" are the "
      "ones it compared.\n\n",
      CommsimVersion(), shown_manifest);
  int claims = 0, held = 0;
  for (size_t i = 0; i < chosen.size(); ++i) {
    const Reproduction& r = chosen[i];
    if (!args.run.quiet) fmt::print(stderr, "reproduce: {} ({})\n", r.name, r.scenario);
    RunOptions options;
    options.jobs = args.run.jobs > 0 ? args.run.jobs : DefaultJobs();
    options.threads = args.run.threads;
    const RunResult result = RunScenario(scenarios[i], options);
    const std::string dir = out + "/" + r.name;
    WriteRunFolder(scenarios[i], result, dir, origin + "/" + r.name);
    OwnedFolder(out).Record(r.name);
    const bool plots = !args.run.no_plots && PlotRunFolder(dir, {.size = args.run.size});
    std::vector<std::string> labels;
    for (const AlgorithmEntry& e : scenarios[i].algorithms) labels.push_back(e.label);
    md += Section(r, shown_manifest, result, labels, plots, &claims, &held);
  }
  OwnedFolder(out).WriteFile("reproduction.md", md);
  fmt::print("reproduce: {} of {} claims hold; {}/reproduction.md\n", held, claims, out);
}

}  // namespace

void AddReproduceCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "reproduce", "Run the papers' reproductions and check each claim: reproduction.md");
  auto args = std::make_shared<ReproduceArgs>();
  cmd->add_option("names", args->names, "reproductions to run (default: all)");
  cmd->add_option("--manifest", args->manifest,
                  "the reproductions file (default: scenarios/papers/reproductions.json)");
  cmd->add_option("--out", args->run.out, "output folder (default results/reproduction)");
  cmd->add_option("--jobs", args->run.jobs, "entries in parallel (default: one per core)");
  AddThreadsOption(*cmd, args->run.threads);
  cmd->add_flag("--list", args->list, "list the reproductions and exit");
  AddOutputFlags(*cmd, args->run);
  cmd->callback([args] { DoReproduce(*args); });
}

}  // namespace commsim::app
