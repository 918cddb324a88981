// Gradient throughput of the models (plain timers, one process, figures and ratios printed):
//   - mlp (784-64-10) and lenet5 on MNIST mini-batches of 32 and 128: samples/s and GFLOP/s
//     (FLOPs from the model's own flops_per_sample, i.e. what the compute-time model charges),
//     and the evaluation on the test set per 64 images (bench/lenet_peer_compare.sh sets these
//     next to PyTorch's);
//   - synthetic_quadratic at d = 11,173,962 (ResNet-18), full and noisy gradients, next to a
//     memcpy of the same d doubles measured in the same run (the quadratic streams 5 vectors,
//     memcpy 2, so memory speed means a time ratio near 2.5 and a similar GB/s).
// Needs the MNIST cache (`./commsim data build`). Usage: models_bench [seconds per case, 0.5].
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "base/error.h"
#include "models/problem.h"
#include "models/registry.h"
#include "models/synthetic_quadratic.h"

namespace commsim {
namespace {

// Seconds per call of f, repeating for at least `budget_s` (after one warm-up call).
double TimePerCall(const std::function<void()>& f, double budget_s) {
  using Clock = std::chrono::steady_clock;
  f();
  int64_t calls = 0;
  const Clock::time_point start = Clock::now();
  double elapsed = 0.0;
  do {
    f();
    ++calls;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < budget_s);
  return elapsed / static_cast<double>(calls);
}

void BenchNetwork(const std::string& model, double budget_s) {
  ProblemSpec spec = DefaultProblemSpec();
  spec.model = ModelRegistry().DefaultSpec(kModelKind, model);
  spec.data = DatasetRegistry().DefaultSpec(kDatasetKind, "mnist");
  const std::shared_ptr<const Objective> f = BuildProblem(spec, 1, 1);
  Eigen::VectorXd x(f->dim()), g(f->dim());
  Rng init(1);
  f->InitialPoint(init, x);
  for (int64_t batch : {32, 128}) {
    Rng rng(2);
    const double s = TimePerCall([&] { f->Gradient(0, x, batch, rng, g); }, budget_s);
    const double samples_per_s = static_cast<double>(batch) / s;
    fmt::print(
        "{:<8} d={:<8} batch {:>4}: {:>9.3f} ms/gradient {:>10.0f} samples/s {:>6.2f} GFLOP/s\n",
        model, f->dim(), batch, s * 1e3, samples_per_s,
        samples_per_s * f->flops_per_sample() * 1e-9);
  }
  if (f->TestAccuracy(x)) {
    const double s = TimePerCall([&] { f->TestAccuracy(x); }, budget_s);
    const double images = static_cast<double>(f->test_samples());
    fmt::print("{:<8} evaluation: {:>9.3f} ms per 64 test images ({:.0f} images)\n", model,
               s * 64e3 / images, images);
  }
}

void BenchQuadratic(double budget_s) {
  SyntheticQuadraticConfig c;
  c.dim = 11173962;
  c.noise = 0.1;
  const SyntheticQuadratic f(c, 4, 1);
  const auto d = static_cast<size_t>(c.dim);
  Eigen::VectorXd x = Eigen::VectorXd::Constant(c.dim, 0.5), g(c.dim);
  std::vector<double> src(d, 1.0), dst(d, 0.0);
  Rng rng(3);
  const double memcpy_s =
      TimePerCall([&] { std::memcpy(dst.data(), src.data(), d * sizeof(double)); }, budget_s);
  const double full_s = TimePerCall([&] { f.Gradient(1, x, 0, rng, g); }, budget_s);
  const double noisy_s = TimePerCall([&] { f.Gradient(1, x, 32, rng, g); }, budget_s);
  const double mb = static_cast<double>(d) * sizeof(double) / 1e6;
  fmt::print("memcpy of d={} doubles ({:.0f} MB): {:8.2f} ms, {:5.1f} GB/s (read + write)\n", d, mb,
             memcpy_s * 1e3, 2 * mb / memcpy_s * 1e-3);
  fmt::print(
      "synthetic_quadratic full gradient: {:8.2f} ms, {:5.1f} GB/s (4 reads + 1 write), "
      "time ratio to memcpy {:.2f}\n",
      full_s * 1e3, 5 * mb / full_s * 1e-3, full_s / memcpy_s);
  fmt::print("synthetic_quadratic noisy (batch 32): {:8.2f} ms, time ratio to memcpy {:.2f}\n",
             noisy_s * 1e3, noisy_s / memcpy_s);
}

}  // namespace
}  // namespace commsim

int main(int argc, char** argv) {
  const double budget_s = argc > 1 ? std::atof(argv[1]) : 0.5;
  try {
    commsim::BenchNetwork("mlp", budget_s);
    commsim::BenchNetwork("lenet5", budget_s);
    commsim::BenchQuadratic(budget_s);
  } catch (const commsim::UserError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  }
  return 0;
}
