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

#include "bench/bench_flags.h"
#include "bench/bench_timing.h"
#include "bench/iteration_timing.h"
#include "scenarios/runner.h"

namespace {

nlohmann::json Scenario(const std::string& algorithm, int64_t dim, int workers, int iterations) {
  return {
      {"name", "bench"},
      {"workers", workers},
      {"iterations", iterations},
      {"model", {{"name", "synthetic_quadratic"}, {"dim", dim}}},
      {"network", {{"topology", {{"name", "ring"}, {"bandwidth", "10Gbps"}, {"latency", "10us"}}}}},
      {"compute", {{"mode", "fixed"}, {"seconds", 0.01}, {"jitter", 0.2}}},
      {"step", {{"size", 0.1}}},
      {"algorithms", {{{"name", algorithm}}}}};
}

}  // namespace

int main(int argc, char** argv) {
  bench::UseCommsimAllocator(argv);
  int64_t dim = 2'000'000;
  int workers = 8;
  int iterations = 3;
  int threads = 2;
  std::string algorithms = "choco,allreduce_sgd";
  bench::Flags flags(argc, argv);
  flags.Number("--dim", dim, int64_t{1});
  flags.Number("--workers", workers, 1);
  flags.Number("--iterations", iterations, 2);
  flags.Number("--threads", threads, 1);
  flags.Text("--algorithms", algorithms);
  if (!flags.Ok("family_threads_bench [--dim D] [--workers N] [--iterations K] [--threads T] "
                "[--algorithms a,b]")) {
    return 1;
  }
  fmt::print("d = {}, n = {}, {} iterations per timed run\n", dim, workers, iterations);
  fmt::print("{:<14} {:>7} {:>12} {:>12} {:>10}\n", "algorithm", "threads", "wall s/iter",
             "CPU s/iter", "speed-up");
  std::stringstream list(algorithms);
  std::string name;
  while (std::getline(list, name, ',')) {
    for (const bench::ThreadsRow& row :
         bench::TimeIterations(Scenario(name, dim, workers, iterations), threads)) {
      fmt::print("{:<14} {:>7} {:>12.4f} {:>12.4f} {:>10}\n", name, row.threads,
                 row.per_iteration.wall_s, row.per_iteration.cpu_s, row.speed_up);
    }
  }
  return 0;
}
