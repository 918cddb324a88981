// Simulation speed of the parameter-server path: wall seconds per simulated iteration of an
// algorithm at ResNet-18 size (d = 11,173,962, n = 8 by default), next to one memcpy pass over
// n*d doubles measured in the same run (the memory-bound floor). Goal for DORE: <= 15 passes.
//
//   build/bench/ps_sim_bench [--dim D] [--workers N] [--iterations K] [--algorithms a,b,...]
#include <fmt/format.h>

#include <malloc.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "scenarios/runner.h"

namespace {

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double MemcpySeconds(size_t doubles) {
  std::vector<double> a(doubles, 1.0), b(doubles, 0.0);
  std::memcpy(b.data(), a.data(), doubles * sizeof(double));  // warm the pages
  double best = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    const auto start = std::chrono::steady_clock::now();
    std::memcpy(b.data(), a.data(), doubles * sizeof(double));
    best = std::min(best, Seconds(start));
  }
  if (b[doubles / 2] != 1.0) std::abort();
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  if (std::getenv("COMMSIM_MMAP") == nullptr) {
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
  }
  int64_t dim = 11173962;
  int workers = 8;
  int iterations = 3;
  std::string algorithms = "sgd,dore";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--dim") dim = std::stoll(argv[i + 1]);
    if (flag == "--workers") workers = std::stoi(argv[i + 1]);
    if (flag == "--iterations") iterations = std::stoi(argv[i + 1]);
    if (flag == "--algorithms") algorithms = argv[i + 1];
  }
  const double memcpy_s = MemcpySeconds(static_cast<size_t>(dim) * workers);
  fmt::print("memcpy of n*d doubles ({} x {}): {:.4f} s ({:.2f} GB/s)\n", workers, dim, memcpy_s,
             8.0 * workers * dim / memcpy_s / 1e9);
  fmt::print("{:<14} {:>14} {:>16} {:>12}\n", "algorithm", "wall s/iter", "memcpy passes", "setup s");
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
    // Iteration 0 only: the cost of building the problem and evaluating the initial point,
    // subtracted from the full run.
    nlohmann::json zero_doc = doc;
    zero_doc["iterations"] = 0;
    const commsim::Scenario zero = commsim::ParseScenario(zero_doc, "bench", ".");
    const commsim::Scenario full = commsim::ParseScenario(doc, "bench", ".");
    const auto setup_start = std::chrono::steady_clock::now();
    commsim::RunScenario(zero, {});
    const double setup_s = Seconds(setup_start);
    const auto start = std::chrono::steady_clock::now();
    commsim::RunScenario(full, {});
    const double per_iter = (Seconds(start) - setup_s) / iterations;
    fmt::print("{:<14} {:>14.4f} {:>16.2f} {:>12.3f}\n", name, per_iter, per_iter / memcpy_s,
               setup_s);
  }
  return 0;
}
