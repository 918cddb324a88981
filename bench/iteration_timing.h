// Seconds per simulated iteration of a scenario, at 1 and at T threads inside the run.
//
// A warm-up run of 1 iteration, then runs of K and 2K iterations: building the problem, touching
// the state and evaluating cost the same in both (each starts from the heap the previous run
// left), so their difference is K iterations. (Subtracting a run of 0 iterations misleads: the
// first run pays the page faults of fresh memory, the second may not.) CPU time is the whole
// process's, all threads summed.
#ifndef COMMSIM_BENCH_ITERATION_TIMING_H_
#define COMMSIM_BENCH_ITERATION_TIMING_H_

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/bench_timing.h"
#include "scenarios/runner.h"

namespace bench {

struct ThreadsRow {
  int threads = 1;
  Timing per_iteration;     // wall and CPU seconds per iteration
  double setup_wall_s = 0;  // the K-iteration run's wall time beyond its K iterations
  std::string speed_up;     // wall(1 thread) / wall(this row), "1" on the 1-thread row
};

// `doc` is a scenario of K iterations (its "iterations"); the rows are for 1 thread and for
// `threads` (one row when threads is 1).
inline std::vector<ThreadsRow> TimeIterations(const nlohmann::json& doc, int threads) {
  const int iterations = doc.at("iterations").get<int>();
  auto parse = [&](int k) {
    nlohmann::json scenario = doc;
    scenario["iterations"] = k;
    scenario["metrics_every"] = k;
    return commsim::ParseScenario(scenario, "bench", ".");
  };
  const commsim::Scenario warm = parse(1), once = parse(iterations), twice = parse(2 * iterations);
  std::vector<ThreadsRow> rows;
  for (const int t : {1, threads}) {
    if (t == 1 && !rows.empty()) break;  // --threads 1: one row
    commsim::RunOptions options;
    options.threads = t;
    commsim::RunScenario(warm, options);
    const Timing first = Time([&] { commsim::RunScenario(once, options); });
    const Timing second = Time([&] { commsim::RunScenario(twice, options); });
    ThreadsRow row;
    row.threads = t;
    row.per_iteration = {(second.wall_s - first.wall_s) / iterations,
                         (second.cpu_s - first.cpu_s) / iterations};
    row.setup_wall_s = first.wall_s - iterations * row.per_iteration.wall_s;
    row.speed_up =
        rows.empty()
            ? std::string("1")
            : fmt::format("{:.2f}x", rows[0].per_iteration.wall_s / row.per_iteration.wall_s);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace bench

#endif  // COMMSIM_BENCH_ITERATION_TIMING_H_
