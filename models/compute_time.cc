#include "models/compute_time.h"

#include <fmt/format.h>

#include <array>
#include <cmath>

#include "base/check.h"
#include "base/error.h"

namespace commsim {
namespace {

constexpr std::array<std::string_view, 2> kModes = {"fixed", "flops"};
constexpr std::array<std::string_view, 2> kOverlaps = {"none", "layerwise"};
constexpr std::array<std::string_view, 5> kDevices = {"cpu_core", "v100", "a100", "h100", "custom"};

}  // namespace

double DevicePeakFlops(std::string_view device) {
  if (device == "cpu_core") return 96e9;
  if (device == "v100") return 15.7e12;
  if (device == "a100") return 19.5e12;
  if (device == "h100") return 67e12;
  return 0.0;
}

void ComputeTimeConfig::Describe(ParamVisitor& v) {
  v.Text("mode", mode, kModes, "fixed seconds per step, or flops/sample x batch / device FLOP/s");
  v.Real("seconds", seconds, Range::Closed(0, kMaxDurationS), "compute time per step in mode fixed",
         Unit::kSeconds);
  v.Text("device", device, kDevices,
         "device preset for mode flops (peak fp32: cpu_core 96 GFLOP/s, v100 15.7 T, a100 19.5 T, "
         "h100 67 T) or custom");
  v.Real("flops_per_s", flops_per_s, Range::Positive(), "device speed for device custom",
         Unit::kFlopsPerSecond);
  v.Real("efficiency", efficiency, Range::OpenClosed(0, 1),
         "fraction of the device's peak FLOP/s reached in mode flops (same on every worker)");
  v.RealList("slowdown", slowdown, Range::Positive(),
             "per-worker time multiplier (stragglers); one entry applies to all, empty = 1");
  v.Real("jitter", jitter, Range::NonNegative(),
         "relative standard deviation of a random log-normal factor (0 = none)");
  v.Text("overlap", overlap, kOverlaps,
         "layerwise: parameter-server entries and allreduce_sgd send gradient buckets during the "
         "backward pass");
  v.Int("bucket", bucket_bits, Range::AtLeast(32),
        "layerwise: bucket cap (fp32 gradients, 32 bits per parameter)", Unit::kBits);
}

ComputeTimeModel::ComputeTimeModel(const ComputeTimeConfig& config, double flops_per_sample,
                                   int workers, uint64_t /*seed*/)
    : config_(config),
      flops_per_sample_(flops_per_sample),
      flops_per_s_(
          (config.device == "custom" ? config.flops_per_s : DevicePeakFlops(config.device)) *
          config.efficiency),
      log_sigma_(std::sqrt(std::log1p(config.jitter * config.jitter))) {
  COMMSIM_CHECK(workers >= 1, "workers {}", workers);
  COMMSIM_CHECK(flops_per_s_ > 0.0, "device {}", config.device);
  const size_t n = config.slowdown.size();
  if (n != 0 && n != 1 && n != static_cast<size_t>(workers)) {
    throw UserError(
        fmt::format("slowdown: has {} entries, expected 1 or one per worker "
                    "({})",
                    n, workers));
  }
  slowdown_.assign(static_cast<size_t>(workers), n == 1 ? config.slowdown[0] : 1.0);
  if (n == static_cast<size_t>(workers)) slowdown_ = config.slowdown;
}

double ComputeTimeModel::MeanSeconds(int worker, int64_t batch) const {
  COMMSIM_CHECK(worker >= 0 && static_cast<size_t>(worker) < slowdown_.size(), "worker {}", worker);
  double seconds = config_.seconds;
  if (config_.mode == "flops") {
    COMMSIM_CHECK(batch >= 1, "batch {}", batch);
    seconds = flops_per_sample_ * static_cast<double>(batch) / flops_per_s_;
  }
  return seconds * slowdown_[static_cast<size_t>(worker)];
}

SimTime ComputeTimeModel::Sample(int worker, int64_t batch, Rng& rng) const {
  double seconds = MeanSeconds(worker, batch);
  if (config_.jitter > 0.0) {
    seconds *= std::exp(log_sigma_ * rng.Normal() - 0.5 * log_sigma_ * log_sigma_);
  }
  try {
    return SimTime::FromSeconds(seconds);
  } catch (const SimulationLimitError& e) {
    throw SimulationLimitError(
        fmt::format("compute: worker {}'s step on {} samples: {}; lower "
                    "the compute time (seconds, slowdown, device speed)",
                    worker, batch, e.what()));
  }
}

SimTime ComputeTimeModel::SampleSteps(int worker, int64_t batch, Rng& rng, int steps) const {
  SimTime total;
  for (int s = 0; s < steps; ++s) total += Sample(worker, batch, rng);
  return total;
}

}  // namespace commsim
