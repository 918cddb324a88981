#include "python/runs.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "analysis/output_folder.h"
#include "base/error.h"
#include "python/background.h"
#include "scenarios/json_config.h"
#include "scenarios/runner.h"
#include "scenarios/sweep.h"
#include "scenarios/sweep_point.h"
#include "scenarios/sweep_runner.h"
#include "scenarios/trajectory_reuse.h"

namespace py = pybind11;

namespace commsim::python {
namespace {

std::atomic<int> active_runs{0};

// Counts a run in progress for as long as it lives.
struct ActiveRun {
  ActiveRun() { ++active_runs; }
  ~ActiveRun() { --active_runs; }
  ActiveRun(const ActiveRun&) = delete;
  ActiveRun& operator=(const ActiveRun&) = delete;
};

std::string WorkingDir() { return std::filesystem::current_path().string(); }

Scenario LoadScenarioSource(const Source& source, const std::vector<std::string>& sets) {
  if (!source.file.empty()) return LoadScenario(source.file, sets);
  nlohmann::json doc = ParseJsonText(source.text, kDictOrigin);
  for (const std::string& set : sets) ApplySet(doc, set);
  return ParseScenario(doc, kDictOrigin, WorkingDir());
}

Sweep LoadSweepSource(const Source& source) {
  if (!source.file.empty()) return LoadSweep(source.file);
  return ParseSweep(ParseJsonText(source.text, kDictOrigin), kDictOrigin, WorkingDir());
}

// Calls progress(done, total) unless it is None. REQUIRES: the GIL is held.
void Report(const py::object& progress, int64_t done, int64_t total) {
  if (!progress.is_none()) progress(done, total);
}

}  // namespace

bool RunInProgress() { return active_runs > 0; }

std::string RunScenarioTo(const Source& source, const std::vector<std::string>& sets,
                          const std::string& out, int jobs, int threads,
                          const py::object& progress) {
  const Scenario scenario = LoadScenarioSource(source, sets);
  const std::string folder = out.empty() ? "results/" + scenario.name : out;
  CheckOutputWritable(folder, OutputKind::kRun, folder);
  const size_t entries = scenario.algorithms.size();
  const int64_t per_entry = std::max<int64_t>(1, scenario.iterations);
  auto done = std::make_unique<std::atomic<int64_t>[]>(entries);
  std::atomic<bool> cancel{false};
  RunOptions options;
  options.jobs = jobs > 0 ? jobs : DefaultJobs();
  options.threads = std::max(1, threads);
  options.on_iteration = [&](size_t entry, int64_t iterations) {
    if (cancel) throw std::runtime_error("interrupted");
    done[entry] = iterations;
  };
  const ActiveRun active;
  RunResult result;
  RunInBackground([&] { result = RunScenario(scenario, options); },
                  [&] {
                    int64_t sum = 0;
                    for (size_t i = 0; i < entries; ++i) sum += std::min(done[i].load(), per_entry);
                    Report(progress, sum, per_entry * static_cast<int64_t>(entries));
                  },
                  cancel);
  WriteRunFolder(scenario, result, folder);
  Report(progress, per_entry * static_cast<int64_t>(entries),
         per_entry * static_cast<int64_t>(entries));  // entries that stopped early are done too
  return folder;
}

std::string RunSweepTo(const Source& source, const std::string& out, int jobs, int threads,
                       bool keep_runs, bool restart, const py::object& progress) {
  const Sweep sweep = LoadSweepSource(source);
  const std::string folder = out.empty() ? "results/" + sweep.name : out;
  ValidateSweepPoints(sweep);
  std::atomic<bool> cancel{false};
  std::atomic<int64_t> points_done{0};
  TrajectoryStore trajectories;
  const bool reuse = SweepReuseBlocker(sweep).empty();
  const PointRunner inner =
      ScenarioPointRunner(sweep, nullptr, reuse ? &trajectories : nullptr, std::max(1, threads));
  const PointRunner runner = [&](const nlohmann::json& doc, const std::string& run_dir) {
    if (cancel) throw UserError("interrupted");
    std::string csv = inner(doc, run_dir);
    ++points_done;
    return csv;
  };
  SweepOptions options;
  options.jobs = jobs;
  options.keep_runs = keep_runs;
  options.restart = restart;
  const ActiveRun active;
  const auto total = static_cast<int64_t>(sweep.size());
  RunInBackground([&] { RunSweep(sweep, folder, options, runner); },
                  [&] { Report(progress, points_done.load(), total); }, cancel);
  Report(progress, total, total);  // points stored by an earlier call count as done
  return folder;
}

std::vector<std::string> ValidateSource(const Source& source,
                                        const std::vector<std::string>& sets) {
  const nlohmann::json doc =
      source.file.empty() ? ParseJsonText(source.text, kDictOrigin) : LoadJsonFile(source.file);
  if (!(doc.is_object() && doc.contains("axes"))) {
    const Scenario scenario = LoadScenarioSource(source, sets);
    CheckScenario(scenario);
    return scenario.notes;
  }
  const std::string origin = source.file.empty() ? kDictOrigin : source.file;
  if (!sets.empty()) throw UserError(fmt::format("{}: set applies to scenarios", origin));
  const Sweep sweep = LoadSweepSource(source);
  const std::vector<std::string> notes = ValidateSweepPoints(sweep);
  for (size_t k = 0; k < sweep.size(); ++k) {
    try {
      CheckScenario(ParseScenario(sweep.PointScenario(k), "scenario", sweep.base_dir));
    } catch (const UserError& e) {
      throw UserError(
          fmt::format("{}: point {} ({}): {}", origin, k, sweep.DescribePoint(k), e.what()));
    }
  }
  return notes;
}

}  // namespace commsim::python
