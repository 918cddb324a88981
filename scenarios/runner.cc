#include "scenarios/runner.h"

#include <fmt/format.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include "algorithms/algorithm.h"
#include "algorithms/registry.h"
#include "analysis/writers.h"
#include "models/compute_time.h"
#include "models/objective.h"
#include "models/problem.h"
#include "scenarios/json_config.h"
#include "sim/error.h"
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

SharedWorld BuildWorld(const Scenario& s) {
  SharedWorld world;
  ProblemSpec problem{s.model, s.data, s.partition};
  try {
    world.objective = BuildProblem(problem, static_cast<int>(s.workers), s.seed);
  } catch (const ProblemError& e) {
    const char* part = e.part() == ProblemError::Part::kData        ? "/data"
                       : e.part() == ProblemError::Part::kPartition ? "/partition"
                                                                    : "/model";
    const std::string pointer = e.key().empty() ? part : JoinPointer(part, e.key());
    throw UserError(fmt::format("{}: {}: {}", s.file, pointer, e.what()));
  } catch (const UserError& e) {
    throw UserError(fmt::format("{}: /model: {}", s.file, e.what()));
  }
  world.compute = std::make_unique<ComputeTimeModel>(
      s.compute, world.objective->flops_per_sample(), static_cast<int>(s.workers), s.seed);
  world.topologies.push_back(BuildTopology(s.topology, s.workers, s.file, "/network/topology"));
  ErrorList errors;
  for (size_t i = 0; i < s.algorithms.size(); ++i) {
    const AlgorithmEntry& e = s.algorithms[i];
    const Topology* topology = world.topologies.front().get();
    if (e.topology.config) {
      world.topologies.push_back(
          BuildTopology(e.topology, s.workers, s.file, fmt::format("/algorithms/{}/topology", i)));
      topology = world.topologies.back().get();
    }
    world.entry_topology.push_back(topology);
    std::unique_ptr<Algorithm> algorithm = AlgorithmRegistry().Make(e.algorithm);
    if (algorithm->family() == "parameter_server" && !topology->server().has_value()) {
      errors.Add(fmt::format("/algorithms/{}", i),
                 fmt::format("\"{}\" is a parameter-server algorithm and needs a topology with a "
                             "server (star or star_direct); give the scenario's network one, or "
                             "the decentralized entries their own \"topology\"",
                             e.algorithm.name));
    }
    if (algorithm->family() == "decentralized" && topology->server().has_value()) {
      errors.Add(fmt::format("/algorithms/{}", i),
                 fmt::format("\"{}\" is decentralized and needs a graph topology (ring, torus, "
                             "complete, erdos_renyi, explicit), not a star; give this entry its "
                             "own \"topology\"",
                             e.algorithm.name));
    }
    world.algorithms.push_back(std::move(algorithm));
  }
  errors.ThrowIfAny(s.file);
  return world;
}

RunSetup MakeSetup(const Scenario& s, const SharedWorld& world, size_t entry) {
  const AlgorithmEntry& e = s.algorithms[entry];
  RunSetup setup;
  setup.label = e.label;
  setup.seed = s.seed;
  setup.objective = world.objective.get();
  setup.topology = world.entry_topology[entry];
  setup.compute = world.compute.get();
  setup.mtu_bits = s.mtu_bits;
  setup.header_bits = s.header_bits;
  setup.multicast_downlink = s.multicast_downlink;
  setup.broadcast = s.broadcast;
  setup.iterations = s.iterations;
  setup.batch = s.batch;
  setup.metrics_every = s.metrics_every;
  setup.divergence_loss = s.divergence_loss;
  setup.step = e.step;
  setup.limits = s.limits;
  return setup;
}

}  // namespace

void ApplySet(json& doc, const std::string& assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos || assignment.empty() || assignment[0] != '/') {
    throw UserError(fmt::format("--set {}: expected /json/pointer=value", assignment));
  }
  const std::string pointer = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  std::optional<json> value = TryParseJsonText(text, "--set " + pointer);
  if (!value) {
    try {
      (void)json(text).dump();  // JSON strings must be UTF-8 (the resolved scenario is written)
    } catch (const json::exception&) {
      throw UserError(fmt::format("--set {}: the value is not valid UTF-8 text", pointer));
    }
  }
  const std::string problem = SetAtPointer(doc, pointer, value ? *value : json(text));
  if (!problem.empty()) {
    throw UserError(fmt::format("--set {}: cannot set {}: {}", assignment, pointer, problem));
  }
}

Scenario LoadScenario(const std::string& file, const std::vector<std::string>& sets) {
  json doc = LoadJsonFile(file);
  for (const std::string& s : sets) ApplySet(doc, s);
  const std::string base_dir = std::filesystem::path(file).parent_path().string();
  return ParseScenario(doc, file, base_dir);
}

void CheckScenario(const Scenario& scenario) { BuildWorld(scenario); }

RunResult RunScenario(const Scenario& s, const RunOptions& options) {
  SharedWorld world = BuildWorld(s);
  const size_t entries = s.algorithms.size();
  RunResult result;
  result.records.resize(entries);
  result.summaries.resize(entries);
  std::vector<RunSetup> setups;
  for (size_t i = 0; i < entries; ++i) setups.push_back(MakeSetup(s, world, i));

  std::atomic<size_t> next{0};
  std::mutex done_mutex;
  std::exception_ptr failure;
  auto worker = [&] {
    for (size_t i = next++; i < entries; i = next++) {
      try {
        world.algorithms[i]->Run(setups[i], &result.records[i], &result.summaries[i]);
        result.summaries[i].algorithm = s.algorithms[i].algorithm.name;
      } catch (...) {
        std::lock_guard<std::mutex> lock(done_mutex);
        if (!failure) failure = std::current_exception();
        continue;
      }
      std::lock_guard<std::mutex> lock(done_mutex);
      if (options.on_entry_done) options.on_entry_done(i, result.summaries[i]);
    }
  };
  const int threads = std::max(1, std::min<int>(options.jobs, static_cast<int>(entries)));
  if (threads == 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
  }
  if (failure) std::rethrow_exception(failure);

  for (size_t i = 0; i < entries; ++i) {
    if (s.algorithms[i].algorithm.name != "sgd" || result.summaries[i].total_bits <= 0) continue;
    const double sgd_bits = static_cast<double>(result.summaries[i].total_bits);
    for (RunSummary& summary : result.summaries) {
      summary.bits_fraction_of_sgd = static_cast<double>(summary.total_bits) / sgd_bits;
    }
    break;
  }
  return result;
}

void WriteRunFolder(const Scenario& scenario, const RunResult& result, const std::string& out_dir) {
  const std::string staging = MakeStagingDirectory(out_dir);
  try {
    WriteFileAtomic(staging + "/metrics.csv", MetricsCsv(result));
    WriteFileAtomic(staging + "/summary.csv", SummaryCsv(result));
    WriteFileAtomic(staging + "/summary.json", SummaryJson(result).dump(2) + "\n");
    WriteFileAtomic(staging + "/scenario.resolved.json", scenario.resolved.dump(2) + "\n");
    PublishDirectory(staging, out_dir);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove_all(staging, ec);
    throw;
  }
}

}  // namespace commsim
