#include "scenarios/runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <thread>

#include "algorithms/algorithm.h"
#include "algorithms/registry.h"
#include "analysis/output_folder.h"
#include "analysis/targets.h"
#include "analysis/writers.h"
#include "base/error.h"
#include "base/owned_folder.h"
#include "models/compute_time.h"
#include "models/objective.h"
#include "models/problem.h"
#include "scenarios/json_config.h"
#include "scenarios/scenario_checks.h"
#include "scenarios/time_model_line.h"
#include "scenarios/trajectory_reuse.h"
#include "sim/topology.h"
#include "sim/topology_registry.h"

namespace commsim {
namespace {

using nlohmann::json;

// Everything the entries of one scenario share, built once and then only read.
struct SharedWorld {
  std::shared_ptr<const Objective> objective;
  std::unique_ptr<ComputeTimeModel> compute;
  std::vector<std::unique_ptr<Topology>> topologies;  // [0] = the scenario's; then overrides
  std::vector<const Topology*> entry_topology;
  std::vector<std::unique_ptr<Algorithm>> algorithms;
};

std::unique_ptr<Topology> BuildTopology(const ComponentSpec& spec, int64_t workers,
                                        const std::string& file, const std::string& pointer) {
  try {
    return std::make_unique<Topology>(
        TopologyRegistry().Make(spec)->Build(static_cast<int>(workers)));
  } catch (const UserError& e) {
    throw UserError(fmt::format("{}: {}: {}", file, pointer, e.what()));
  }
}

RunSetup MakeSetup(const Scenario& s, const SharedWorld& world, size_t entry, int threads);

// The family mismatch of an entry and its topology or framework, in the scenario's terms; ""
// when none.
std::string FamilyMismatch(const Algorithm& algorithm, const Topology& topology,
                           const AlgorithmEntry& entry) {
  const std::string& name = entry.algorithm.name;
  if (algorithm.family() != Family::kCollective && !entry.framework.ideal()) {
    return fmt::format(
        "\"{}\" is a {} algorithm; only collective algorithms follow a framework profile (here "
        "\"{}\"): give this entry \"framework\": \"ideal\"",
        name, FamilyName(algorithm.family()), entry.framework.name);
  }
  if (algorithm.family() == Family::kParameterServer && !topology.server().has_value()) {
    return fmt::format(
        "\"{}\" is a parameter-server algorithm and needs a topology with a server ({}); give "
        "the scenario's network one, or this entry its own \"topology\" with a server",
        name, ServerTopologyList());
  }
  if (algorithm.family() == Family::kDecentralized && topology.server().has_value()) {
    return fmt::format(
        "\"{}\" is decentralized and needs a graph topology ({}), not one with a server; give "
        "this entry its own \"topology\"",
        name, GraphTopologyList());
  }
  return "";
}

using AlgorithmFactory = std::function<std::unique_ptr<Algorithm>(const ComponentSpec&)>;

// With `trajectories`, the objective is the store's shared one (built once per store). Entries
// are checked for `threads` threads per run (RunSetup::threads).
SharedWorld BuildWorld(const Scenario& s, const AlgorithmFactory& make_algorithm = {},
                       TrajectoryStore* trajectories = nullptr, int threads = 1) {
  SharedWorld world;
  ProblemSpec problem{s.model, s.data, s.partition, s.limits.max_memory};
  const auto build = [&] { return BuildProblem(problem, static_cast<int>(s.workers), s.seed); };
  try {
    world.objective = trajectories ? trajectories->SharedObjective(build) : build();
  } catch (const ProblemError& e) {
    const char* part = e.part() == ProblemError::Part::kData        ? "/data"
                       : e.part() == ProblemError::Part::kPartition ? "/partition"
                                                                    : "/model";
    const std::string pointer = e.key().empty() ? part : JoinPointer(part, e.key());
    throw UserError(fmt::format("{}: {}: {}", s.file, pointer, e.what()));
  } catch (const UserError& e) {
    throw UserError(fmt::format("{}: /model: {}", s.file, e.what()));
  }
  try {
    world.compute = std::make_unique<ComputeTimeModel>(
        s.compute, world.objective->flops_per_sample(), static_cast<int>(s.workers), s.seed);
  } catch (const UserError& e) {
    throw UserError(fmt::format("{}: /compute/{}", s.file, e.what()));
  }
  world.topologies.push_back(BuildTopology(s.topology, s.workers, s.file, "/network/topology"));
  ErrorList errors;
  CheckCertainLimits(s, *world.compute, *world.objective, errors);
  std::vector<Family> families;
  for (size_t i = 0; i < s.algorithms.size(); ++i) {
    const AlgorithmEntry& e = s.algorithms[i];
    const Topology* topology = world.topologies.front().get();
    if (e.topology.config) {
      world.topologies.push_back(
          BuildTopology(e.topology, s.workers, s.file, fmt::format("/algorithms/{}/topology", i)));
      topology = world.topologies.back().get();
    }
    world.entry_topology.push_back(topology);
    world.algorithms.push_back(make_algorithm ? make_algorithm(e.algorithm)
                                              : AlgorithmRegistry().Make(e.algorithm));
    families.push_back(world.algorithms.back()->family());
    const std::string pointer = fmt::format("/algorithms/{}", i);
    const std::string mismatch = FamilyMismatch(*world.algorithms.back(), *topology, e);
    if (!mismatch.empty()) {
      errors.Add(pointer, mismatch);
      continue;
    }
    try {
      world.algorithms.back()->Check(MakeSetup(s, world, i, threads));
    } catch (const UserError& error) {
      errors.Add(pointer, error.what());
    }
  }
  CheckKeysHaveEffect(s, families, *world.objective, errors);
  errors.ThrowIfAny(s.file);
  return world;
}

RunSetup MakeSetup(const Scenario& s, const SharedWorld& world, size_t entry, int threads) {
  const AlgorithmEntry& e = s.algorithms[entry];
  RunSetup setup;
  static_cast<RunKeys&>(setup) = s;
  setup.label = e.label;
  setup.objective = world.objective.get();
  setup.layers = world.objective->layers();
  setup.topology = world.entry_topology[entry];
  setup.compute = world.compute.get();
  setup.codec = e.codec;
  setup.framework = e.framework;
  setup.network = s.network;
  setup.network.max_packets_per_message = s.limits.max_packets_per_message;
  setup.step = e.step;
  setup.threads = threads;
  return setup;
}

ProblemInfo DescribeProblem(const Objective& objective, int64_t batch) {
  ProblemInfo p;
  p.dim = objective.dim();
  p.workers = objective.num_workers();
  p.test_samples = objective.test_samples();
  for (int w = 0; w < objective.num_workers(); ++w) {
    const int64_t shard = objective.shard_size(w);
    const int64_t b = batch > 0 ? std::min(batch, shard) : shard;
    p.train_samples += shard;
    p.shard_min = w == 0 ? shard : std::min(p.shard_min, shard);
    p.shard_max = std::max(p.shard_max, shard);
    p.batch_min = w == 0 ? b : std::min(p.batch_min, b);
    p.batch_max = std::max(p.batch_max, b);
  }
  return p;
}

// Every entry's bits relative to a baseline: the entry the scenario's `baseline` names when it
// names one; else its family's full-precision one (the first entry of an algorithm registered as
// its family's baseline that ran and sent bits); without one in the scenario, the first such
// baseline of any family; without any, the first entry that ran and sent bits. So every entry has
// a comparison whenever one entry sent bits.
void SetBaselines(const SharedWorld& world, const std::string& chosen, RunResult& result) {
  const size_t entries = world.algorithms.size();
  std::map<Family, const RunSummary*> base_of;
  const RunSummary* any_base = nullptr;
  const RunSummary* first_sent = nullptr;
  for (size_t i = 0; i < entries; ++i) {
    const RunSummary& b = result.summaries[i];
    if (b.iterations <= 0 || b.total_bits <= 0) continue;
    if (first_sent == nullptr) first_sent = &b;
    if (!world.algorithms[i]->info().baseline) continue;
    base_of.emplace(world.algorithms[i]->family(), &b);  // keeps the first
    if (any_base == nullptr) any_base = &b;
  }
  const RunSummary* common = any_base != nullptr ? any_base : first_sent;
  if (!chosen.empty()) {
    base_of.clear();
    common = nullptr;
    for (const RunSummary& b : result.summaries) {
      if (b.name == chosen && b.iterations > 0 && b.total_bits > 0) common = &b;
    }
  }
  for (size_t i = 0; i < entries; ++i) {
    const auto it = base_of.find(world.algorithms[i]->family());
    const RunSummary* base = it != base_of.end() ? it->second : common;
    if (base == nullptr) continue;
    RunSummary& summary = result.summaries[i];
    summary.baseline = base->name;
    if (summary.iterations <= 0) continue;
    const double base_per_iter =
        static_cast<double>(base->total_bits) / static_cast<double>(base->iterations);
    const double per_iter =
        static_cast<double>(summary.total_bits) / static_cast<double>(summary.iterations);
    summary.bits_fraction_of_baseline = per_iter / base_per_iter;
  }
}

}  // namespace

void CheckScenario(const Scenario& scenario) { BuildWorld(scenario); }

namespace {

// Runs entry i; an exception that escapes the algorithm (one thrown before its rounds start)
// becomes status "error" with the message.
void RunEntry(const Scenario& s, const SharedWorld& world, const RunSetup& setup, size_t i,
              TrajectoryStore* trajectories, RunResult& result) {
  const auto start = std::chrono::steady_clock::now();
  RunSummary& summary = result.summaries[i];
  std::string error;
  try {
    RunAlgorithmEntry(*world.algorithms[i], setup, i, trajectories, &result.records[i], &summary);
  } catch (const std::bad_alloc&) {
    error = "out of memory while running this entry";
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (!error.empty()) {
    result.records[i].clear();
    summary = RunSummary{};
    summary.name = s.algorithms[i].label;
    summary.family = std::string(FamilyName(world.algorithms[i]->family()));
    summary.status = kStatusError;
    summary.message = error;
    summary.final_loss = NAN;
  }
  summary.algorithm = s.algorithms[i].algorithm.name;
  summary.color = world.algorithms[i]->info().color;
  result.entry_wall_time_s[i] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int DefaultJobs() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

RunResult RunScenario(const Scenario& s, const RunOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  SharedWorld world = BuildWorld(s, options.make_algorithm, options.trajectories, options.threads);
  const size_t entries = s.algorithms.size();
  RunResult result;
  result.records.resize(entries);
  result.summaries.resize(entries);
  result.entry_wall_time_s.resize(entries);
  result.problem = DescribeProblem(*world.objective, s.batch);
  result.time_model = TimeModelLine(s);
  std::vector<RunSetup> setups;
  for (size_t i = 0; i < entries; ++i) {
    setups.push_back(MakeSetup(s, world, i, options.threads));
    if (options.on_iteration) {
      setups.back().on_iteration = [&options, i](int64_t done) { options.on_iteration(i, done); };
    }
    if (options.on_events) {
      setups.back().on_events = [&options, i](int64_t events, double sim_s) {
        options.on_events(i, events, sim_s);
      };
      setups.back().events_every = options.events_every;
    }
  }

  std::atomic<size_t> next{0};
  std::mutex done_mutex;
  auto worker = [&] {
    for (size_t i = next++; i < entries; i = next++) {
      RunEntry(s, world, setups[i], i, options.trajectories, result);
      std::lock_guard<std::mutex> lock(done_mutex);
      if (options.on_entry_done) options.on_entry_done(i, result.summaries[i]);
    }
  };
  const int jobs = options.jobs > 0 ? options.jobs : DefaultJobs();
  const int threads = std::max(1, std::min<int>(jobs, static_cast<int>(entries)));
  if (threads == 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
  }

  // F* = F(x*) + R(x*) where the objective knows it: plots show the suboptimality F(x) - F*.
  if (const Optimum* optimum = world.objective->optimum()) {
    for (RunSummary& summary : result.summaries) summary.extra["optimal_loss"] = optimum->loss;
  }
  SetBaselines(world, s.baseline, result);
  ApplyTargets(result, TargetOptions{s.target_loss, s.target_accuracy});
  result.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

bool AnyEntryFailed(const RunResult& result) {
  for (const RunSummary& s : result.summaries) {
    if (s.status == kStatusError) return true;
  }
  return false;
}

void WriteRunFolder(const Scenario& scenario, const RunResult& result, const std::string& out_dir,
                    const std::string& origin, const std::string& trace) {
  const std::string from = origin.empty() ? out_dir : origin;
  StagedFolder folder(out_dir, OutputKind::kRun, from);
  try {
    OwnedFolder staging(folder.path());
    staging.WriteFile("metrics.csv", MetricsCsv(result));
    staging.WriteFile("summary.csv", SummaryCsv(result));
    staging.WriteFile("summary.json", SummaryJson(result).dump(2) + "\n");
    staging.WriteFile("run.json", RunJson(result).dump(2) + "\n");
    staging.WriteFile("scenario.resolved.json", scenario.resolved.dump(2) + "\n");
    if (!trace.empty()) staging.WriteFile("trace.txt", trace);
  } catch (const UserError& e) {  // names the staging file; say which output it was for
    throw UserError(fmt::format("{}: {} (nothing was published)", from, e.what()));
  }
  folder.Publish();
}

}  // namespace commsim
