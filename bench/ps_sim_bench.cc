// Simulation speed of the parameter-server path: wall seconds per simulated iteration of an
// algorithm at ResNet-18 size (d = 11,173,962, n = 8 by default), next to one memcpy pass over
// n*d doubles measured in the same run (the memory-bound floor). Goal for DORE: <= 15 passes.
// Wall time counts the time other processes hold the core on a shared machine; the CPU columns
// (this process's user CPU time, memcpy timed the same way) are steadier there.
// Each algorithm runs with 1 thread and with T threads inside the run (--threads, default 2:
// the workers' gradients and encodes in parallel); the last column is wall(1) / wall(T). CPU time
// is the whole process's, all threads summed.
//
//   build/bench/ps_sim_bench [--dim D] [--workers N] [--iterations K] [--algorithms a,b,...]
//                            [--threads T]
//                            [--precision float32]  (the algorithms' state precision; each named
//                                                    algorithm must have the key)
// An algorithm named NAME+counter (e.g. dore+counter, the default list's third row) runs NAME with
// its default block_ternary uplink and downlink set to "rng": "counter" (Philox draws instead of
// the xoshiro stream), so the two rows compare the random draws' share of an iteration.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_timing.h"
#include "scenarios/runner.h"

namespace {

using bench::Time;
using bench::Timing;

// The best of three memcpy passes over `doubles` doubles, in wall and in CPU time.
Timing MemcpySeconds(size_t doubles) {
  std::vector<double> a(doubles, 1.0), b(doubles, 0.0);
  std::memcpy(b.data(), a.data(), doubles * sizeof(double));  // warm the pages
  Timing best{1e30, 1e30};
  for (int rep = 0; rep < 3; ++rep) {
    const Timing t = Time([&] { std::memcpy(b.data(), a.data(), doubles * sizeof(double)); });
    best.wall_s = std::min(best.wall_s, t.wall_s);
    best.cpu_s = std::min(best.cpu_s, t.cpu_s);
  }
  if (b[doubles / 2] != 1.0) std::abort();
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  bench::UseCommsimAllocator();
  int64_t dim = 11173962;
  int workers = 8;
  int iterations = 3;
  std::string algorithms = "sgd,dore,dore+counter";
  int threads = 2;
  std::string precision;  // "": the algorithms' default
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--dim") dim = std::stoll(argv[i + 1]);
    if (flag == "--workers") workers = std::stoi(argv[i + 1]);
    if (flag == "--iterations") iterations = std::stoi(argv[i + 1]);
    if (flag == "--algorithms") algorithms = argv[i + 1];
    if (flag == "--threads") threads = std::max(1, std::stoi(argv[i + 1]));
    if (flag == "--precision") precision = argv[i + 1];
  }
  const Timing memcpy = MemcpySeconds(static_cast<size_t>(dim) * workers);
  fmt::print("memcpy of n*d doubles ({} x {}): {:.4f} s wall, {:.4f} s CPU ({:.2f} GB/s)\n",
             workers, dim, memcpy.wall_s, memcpy.cpu_s, 8.0 * workers * dim / memcpy.wall_s / 1e9);
  fmt::print("{:<14} {:>7} {:>12} {:>12} {:>14} {:>14} {:>9} {:>12}\n", "algorithm", "threads",
             "wall s/iter", "CPU s/iter", "passes (wall)", "passes (CPU)", "setup s",
             "speed-up");
  std::stringstream list(algorithms);
  std::string name;
  while (std::getline(list, name, ',')) {
    nlohmann::json doc = {
        {"name", "bench"},
        {"workers", workers},
        {"iterations", iterations},
        {"metrics_every", iterations},
        {"model", {{"name", "synthetic_quadratic"}, {"dim", dim}}},
        {"network", {{"topology", {{"name", "star"}, {"worker_bandwidth", "1Gbps"},
                                   {"server_bandwidth", "1Gbps"}}}}},
        {"compute", {{"mode", "fixed"}, {"seconds", 0.1}}},
        {"step", {{"size", 0.1}}},
        {"algorithms", {{{"name", name}}}}};
    if (const size_t plus = name.find("+counter"); plus != std::string::npos) {
      const nlohmann::json q = {{"name", "block_ternary"}, {"rng", "counter"}};
      doc["algorithms"][0] = {{"name", name.substr(0, plus)}, {"uplink", q}, {"downlink", q}};
    }
    if (!precision.empty()) doc["algorithms"][0]["precision"] = precision;
    // A warm-up run, then two runs of K and 2K iterations: building the problem, touching the
    // state and evaluating cost the same in both (each starts from the heap the previous run
    // left), so their difference is K iterations. (Subtracting a run of 0 iterations misleads:
    // the first run pays the page faults of fresh memory, the second may not.)
    nlohmann::json twice = doc;
    twice["iterations"] = 2 * iterations;
    twice["metrics_every"] = 2 * iterations;
    const commsim::Scenario once_k = commsim::ParseScenario(doc, "bench", ".");
    const commsim::Scenario twice_k = commsim::ParseScenario(twice, "bench", ".");
    nlohmann::json warm = doc;
    warm["iterations"] = 1;
    const commsim::Scenario warm_up = commsim::ParseScenario(warm, "bench", ".");
    double wall_one = 0;
    for (const int t : {1, threads}) {
      if (t == 1 && wall_one > 0) break;  // --threads 1: one row
      commsim::RunOptions options;
      options.threads = t;
      commsim::RunScenario(warm_up, options);
      const Timing first = Time([&] { commsim::RunScenario(once_k, options); });
      const Timing second = Time([&] { commsim::RunScenario(twice_k, options); });
      const double wall = (second.wall_s - first.wall_s) / iterations;
      const double cpu = (second.cpu_s - first.cpu_s) / iterations;
      if (t == 1) wall_one = wall;
      fmt::print("{:<14} {:>7} {:>12.4f} {:>12.4f} {:>14.2f} {:>14.2f} {:>9.3f} {:>12}\n", name, t,
                 wall, cpu, wall / memcpy.wall_s, cpu / memcpy.cpu_s,
                 first.wall_s - iterations * wall,
                 t == 1 ? std::string("1") : fmt::format("{:.2f}x", wall_one / wall));
    }
  }
  return 0;
}
