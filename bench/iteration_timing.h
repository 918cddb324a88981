// Seconds per simulated iteration of a scenario, at 1 and at T threads inside the run.
//
// A warm-up run of 1 iteration, then one run of K iterations, timed from the end of its first
// iteration to the end of its last (RunOptions::on_iteration): K - 1 whole iterations in steady
// state, without building the problem, touching fresh state or the final evaluation. (Earlier
// this was the difference of a K- and a 2K-iteration run: the noise of both runs landed in one
// figure, sometimes far below the truth, and best-of-N runs then picked exactly those.) CPU time
// is the whole process's, all threads summed (bench_timing.h).
#ifndef COMMSIM_BENCH_ITERATION_TIMING_H_
#define COMMSIM_BENCH_ITERATION_TIMING_H_

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/bench_timing.h"
#include "scenarios/runner.h"

namespace bench {

struct ThreadsRow {
  int threads = 1;
  Timing per_iteration;     // wall and CPU seconds per iteration
  double setup_wall_s = 0;  // the K-iteration run's wall time beyond K such iterations
  std::string speed_up;     // wall(1 thread) / wall(this row), "1" on the 1-thread row
};

// `doc` is a scenario of K iterations (its "iterations"); the rows are for 1 thread and for
// `threads` (one row when threads is 1).
inline std::vector<ThreadsRow> TimeIterations(const nlohmann::json& doc, int threads) {
  const int iterations = doc.at("iterations").get<int>();
  if (iterations < 2) {
    fmt::print(stderr, "needs at least 2 iterations: it times iterations 2 to K\n");
    std::exit(2);
  }
  auto parse = [&](int k) {
    nlohmann::json scenario = doc;
    scenario["iterations"] = k;
    scenario["metrics_every"] = k;
    return commsim::ParseScenario(scenario, "bench", ".");
  };
  const commsim::Scenario warm = parse(1), run = parse(iterations);
  std::vector<ThreadsRow> rows;
  for (const int t : {1, threads}) {
    if (t == 1 && !rows.empty()) break;  // --threads 1: one row
    commsim::RunOptions options;
    options.threads = t;
    commsim::RunScenario(warm, options);
    // The clocks at the end of iteration 1 and of the last one (one entry: one thread calls).
    Mark first, last;
    options.on_iteration = [&](size_t, int64_t done) {
      if (done == 1) first = Now();
      if (done == iterations) last = Now();
    };
    const Timing whole = Time([&] { commsim::RunScenario(run, options); });
    ThreadsRow row;
    row.threads = t;
    row.per_iteration = {(last.wall_s - first.wall_s) / (iterations - 1),
                         (last.cpu_s - first.cpu_s) / (iterations - 1)};
    row.setup_wall_s = whole.wall_s - iterations * row.per_iteration.wall_s;
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
