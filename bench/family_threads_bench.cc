// Threads inside a run for the decentralized and collective families: wall seconds per simulated
// iteration of CHOCO-SGD (8 nodes on a ring, qsgd 4 bits) and ring all-reduce SGD (8 workers)
// on a quadratic of d parameters, with 1 and with T threads (--threads, default 2) in the same
// run, and the ratio wall(1) / wall(T). CPU time is the whole process's, all threads summed.
// Wall time counts the time other processes hold the cores on a shared machine: note `uptime`.
// What the threads cover (docs/outputs.md, --threads): CHOCO's steps, decodes and combines; the
// all-reduce's gradients and inputs, while its partial sums stay on one thread.
//
//   build/bench/family_threads_bench [--dim D] [--workers N] [--iterations K] [--threads T]
//                                    [--algorithms choco,allreduce_sgd]
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "bench/bench_timing.h"
#include "scenarios/runner.h"

namespace {

using bench::Time;
using bench::Timing;

nlohmann::json Scenario(const std::string& algorithm, int64_t dim, int workers, int iterations) {
  return {
      {"name", "bench"},
      {"workers", workers},
      {"iterations", iterations},
      {"metrics_every", iterations},
      {"model", {{"name", "synthetic_quadratic"}, {"dim", dim}}},
      {"network", {{"topology", {{"name", "ring"}, {"bandwidth", "10Gbps"}, {"latency", "10us"}}}}},
      {"compute", {{"mode", "fixed"}, {"seconds", 0.01}, {"jitter", 0.2}}},
      {"step", {{"size", 0.1}}},
      {"algorithms", {{{"name", algorithm}}}}};
}

}  // namespace

int main(int argc, char** argv) {
  bench::UseCommsimAllocator();
  int64_t dim = 2'000'000;
  int workers = 8;
  int iterations = 3;
  int threads = 2;
  std::string algorithms = "choco,allreduce_sgd";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--dim") dim = std::stoll(argv[i + 1]);
    if (flag == "--workers") workers = std::stoi(argv[i + 1]);
    if (flag == "--iterations") iterations = std::max(1, std::stoi(argv[i + 1]));
    if (flag == "--threads") threads = std::max(1, std::stoi(argv[i + 1]));
    if (flag == "--algorithms") algorithms = argv[i + 1];
  }
  fmt::print("d = {}, n = {}, {} iterations per timed run\n", dim, workers, iterations);
  fmt::print("{:<14} {:>7} {:>12} {:>12} {:>10}\n", "algorithm", "threads", "wall s/iter",
             "CPU s/iter", "speed-up");
  std::stringstream list(algorithms);
  std::string name;
  while (std::getline(list, name, ',')) {
    // A warm-up run, then runs of K and 2K iterations: their difference is K iterations (setup,
    // first touches and evaluation cost the same in both).
    const commsim::Scenario warm =
        commsim::ParseScenario(Scenario(name, dim, workers, 1), "bench", ".");
    const commsim::Scenario once =
        commsim::ParseScenario(Scenario(name, dim, workers, iterations), "bench", ".");
    const commsim::Scenario twice =
        commsim::ParseScenario(Scenario(name, dim, workers, 2 * iterations), "bench", ".");
    double wall_one = 0;
    for (const int t : {1, threads}) {
      if (t == 1 && wall_one > 0) break;  // --threads 1: one row
      commsim::RunOptions options;
      options.threads = t;
      commsim::RunScenario(warm, options);
      const Timing first = Time([&] { commsim::RunScenario(once, options); });
      const Timing second = Time([&] { commsim::RunScenario(twice, options); });
      const double wall = (second.wall_s - first.wall_s) / iterations;
      const double cpu = (second.cpu_s - first.cpu_s) / iterations;
      if (t == 1) wall_one = wall;
      fmt::print("{:<14} {:>7} {:>12.4f} {:>12.4f} {:>10}\n", name, t, wall, cpu,
                 t == 1 ? std::string("1") : fmt::format("{:.2f}x", wall_one / wall));
    }
  }
  return 0;
}
