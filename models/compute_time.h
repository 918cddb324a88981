// Compute-time model: how long one worker's local step takes (the scenario's `compute` key).
//
//   mode "fixed":  seconds
//   mode "flops":  flops_per_sample x batch / (device peak FLOP/s x efficiency)
// times the worker's slowdown factor, times an optional random jitter: a
// log-normal factor with mean 1 and relative standard deviation `jitter`, drawn from the Rng the
// caller passes (derive it per worker with DeriveSeed), so runs are reproducible.
//
// Device presets (peak FP32 throughput, non-tensor-core, from the vendors' data sheets):
//   cpu_core  96 GFLOP/s   one x86 core at 3 GHz with AVX2: 2 FMA units x 8 fp32 lanes x 2 flops
//                          x 3e9 cycles/s (Intel Optimization Reference Manual: 2 x 256-bit FMA
//                          ports on Haswell and later)
//   v100      15.7 TFLOP/s NVIDIA Tesla V100 SXM2 data sheet (2017/2020)
//   a100      19.5 TFLOP/s NVIDIA A100 Tensor Core GPU data sheet (2020/2021), FP32
//   h100      67 TFLOP/s   NVIDIA H100 Tensor Core GPU data sheet (2022/2023), SXM5 FP32
//   custom    flops_per_s
// Peaks are upper bounds: real training reaches a fraction of them.
//
// Two factors, two meanings:
//   efficiency  (0, 1], default 1: the fraction of the device's peak the training code reaches,
//               the same on every worker (e.g. 0.5 for fp32 CNN training on a GPU at about half
//               of its peak). Applies in mode flops only (`custom` rates are multiplied too).
//   slowdown    > 0 per worker, default 1: a straggler factor on that worker's time, in both
//               modes (one entry applies to every worker).
// flops_per_sample is the objective's forward + backward FLOPs (its layer profile's when it has
// one).
//
// Overlap (parameter-server drivers): "none" = the whole step's compute, then communication;
// "layerwise" = gradients leave in buckets of at most `bucket_bits` (fp32 gradients: 32 bits per
// parameter) as the backward pass produces them (models/buckets.h). Decentralized and collective
// drivers ignore it.
#ifndef COMMSIM_MODELS_COMPUTE_TIME_H_
#define COMMSIM_MODELS_COMPUTE_TIME_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/params.h"
#include "base/rng.h"
#include "sim/time.h"

namespace commsim {

struct ComputeTimeConfig final : ConfigBase<ComputeTimeConfig> {
  std::string mode = "fixed";
  double seconds = 0.0;
  std::string device = "cpu_core";
  double flops_per_s = 1e11;
  double efficiency = 1.0;       // fraction of peak reached, mode flops
  std::vector<double> slowdown;  // per worker; empty = 1 for all, one entry = all workers
  double jitter = 0.0;
  std::string overlap = "none";
  int64_t bucket_bits = int64_t{25} * 1024 * 1024 * 8;  // 25 MiB, PyTorch DDP's default cap
  bool layerwise() const { return overlap == "layerwise"; }
  // The bucket cap in parameters (fp32): bucket_bits / 32, at least 1.
  int64_t bucket_params() const { return bucket_bits / 32 > 0 ? bucket_bits / 32 : 1; }
  void Describe(ParamVisitor& v) override;
};

// Peak FLOP/s of a preset name ("cpu_core", "v100", "a100", "h100"); 0 for unknown names.
double DevicePeakFlops(std::string_view device);

class ComputeTimeModel {
 public:
  // Throws UserError "slowdown: ..." (the caller adds the file and the key's place) when
  // slowdown has neither 0, 1 nor `workers` entries. `seed` is reserved:
  // the jitter draws come from the Rng passed to Sample().
  ComputeTimeModel(const ComputeTimeConfig& config, double flops_per_sample, int workers,
                   uint64_t seed);
  // Time of one local step of `worker` on `batch` samples. REQUIRES: batch >= 1 in flops mode.
  SimTime Sample(int worker, int64_t batch, Rng& rng) const;
  // Time of `steps` local steps: the sum of `steps` Sample() draws in turn.
  SimTime SampleSteps(int worker, int64_t batch, Rng& rng, int steps) const;
  // The jitter-free time, in seconds.
  double MeanSeconds(int worker, int64_t batch) const;
  // The rate the model uses: peak (or custom) x efficiency.
  double flops_per_s() const { return flops_per_s_; }
  const ComputeTimeConfig& config() const { return config_; }

 private:
  ComputeTimeConfig config_;
  double flops_per_sample_;
  double flops_per_s_;
  std::vector<double> slowdown_;
  double log_sigma_;
};

}  // namespace commsim

#endif  // COMMSIM_MODELS_COMPUTE_TIME_H_
