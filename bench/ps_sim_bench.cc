// Simulation speed of the parameter-server path: wall seconds per simulated iteration of an
// algorithm at ResNet-18 size (d = 11,173,962, n = 8 by default), next to one memcpy pass over
// n*d doubles measured in the same run (the memory-bound floor). Goal for DORE: <= 15 passes.
// Wall time counts the time other processes hold the core on a shared machine; the CPU columns
// (this process's CPU time, bench_timing.h; memcpy timed the same way) are steadier there.
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

#include "bench/bench_flags.h"
#include "bench/bench_timing.h"
#include "bench/iteration_timing.h"
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
  bench::UseCommsimAllocator(argv);
  int64_t dim = 11173962;
  int workers = 8;
  int iterations = 3;
  std::string algorithms = "sgd,dore,dore+counter";
  int threads = 2;
  std::string precision;  // "": the algorithms' default
  bench::Flags flags(argc, argv);
  flags.Number("--dim", dim, int64_t{1});
  flags.Number("--workers", workers, 1);
  flags.Number("--iterations", iterations, 2);
  flags.Text("--algorithms", algorithms);
  flags.Number("--threads", threads, 1);
  flags.Text("--precision", precision);
  if (!flags.Ok("ps_sim_bench [--dim D] [--workers N] [--iterations K] [--algorithms a,b,...] "
                "[--threads T] [--precision float32]")) {
    return 1;
  }
  const Timing memcpy = MemcpySeconds(static_cast<size_t>(dim) * workers);
  fmt::print("memcpy of n*d doubles ({} x {}): {:.4f} s wall, {:.4f} s CPU ({:.2f} GB/s)\n",
             workers, dim, memcpy.wall_s, memcpy.cpu_s, 8.0 * workers * dim / memcpy.wall_s / 1e9);
  fmt::print("{:<14} {:>7} {:>12} {:>12} {:>14} {:>14} {:>9} {:>12}\n", "algorithm", "threads",
             "wall s/iter", "CPU s/iter", "passes (wall)", "passes (CPU)", "setup s", "speed-up");
  std::stringstream list(algorithms);
  std::string name;
  while (std::getline(list, name, ',')) {
    nlohmann::json doc = {
        {"name", "bench"},
        {"workers", workers},
        {"iterations", iterations},
        {"model", {{"name", "synthetic_quadratic"}, {"dim", dim}}},
        {"network",
         {{"topology",
           {{"name", "star"}, {"worker_bandwidth", "1Gbps"}, {"server_bandwidth", "1Gbps"}}}}},
        {"compute", {{"mode", "fixed"}, {"seconds", 0.1}}},
        {"step", {{"size", 0.1}}},
        {"algorithms", {{{"name", name}}}}};
    if (const size_t plus = name.find("+counter"); plus != std::string::npos) {
      const nlohmann::json q = {{"name", "block_ternary"}, {"rng", "counter"}};
      doc["algorithms"][0] = {{"name", name.substr(0, plus)}, {"uplink", q}, {"downlink", q}};
    }
    if (!precision.empty()) doc["algorithms"][0]["precision"] = precision;
    for (const bench::ThreadsRow& row : bench::TimeIterations(doc, threads)) {
      const Timing& per = row.per_iteration;
      fmt::print("{:<14} {:>7} {:>12.4f} {:>12.4f} {:>14.2f} {:>14.2f} {:>9.3f} {:>12}\n", name,
                 row.threads, per.wall_s, per.cpu_s, per.wall_s / memcpy.wall_s,
                 per.cpu_s / memcpy.cpu_s, row.setup_wall_s, row.speed_up);
    }
  }
  return 0;
}
