// Test helpers for the tests that run a family's driver on the quadratic test objective (header
// only, tests only): the run's output, and for the timing tests with a fixed compute time per step
// a setup that owns the objective and the compute model it points at.
#ifndef COMMSIM_ALGORITHMS_RUN_TEST_UTIL_H_
#define COMMSIM_ALGORITHMS_RUN_TEST_UTIL_H_

#include <cstdint>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/decentralized/test_support.h"
#include "models/compute_time.h"
#include "models/layer_profile.h"
#include "records/records.h"
#include "sim/topology.h"
#include "sim/topology_regular.h"

namespace commsim::testing {

// What a driver run writes: one record per iteration (and the start) and the summary.
struct RunOutput {
  std::vector<IterationRecord> records;
  RunSummary summary;
};

// A run on QuadraticObjective(n, dim, seed 1) over `topology` with `compute_s` of compute per
// step (with `layerwise`, overlapped in buckets of `bucket_params` fp32 parameters) and the layer
// profile `layers` (may be nullptr). `setup` points at the objective, the compute model, `topology`
// and `layers`, which must outlive this; the test sets the iterations, the step and the rest.
// `flops_per_s` > 0 is the compute device's rate (a rule's own FLOPs are timed at it).
struct FixedComputeRun {
  FixedComputeRun(const Topology& topology, int n, int dim, double compute_s,
                  const LayerProfile* layers, bool layerwise = false, int64_t bucket_params = 1,
                  double flops_per_s = 0)
      : objective(n, dim, 1),
        compute(WithRate(FixedCompute(compute_s, layerwise, bucket_params), flops_per_s),
                objective.flops_per_sample(), n, 1) {
    setup.objective = &objective;
    setup.topology = &topology;
    setup.compute = &compute;
    setup.layers = layers;
  }
  FixedComputeRun(const FixedComputeRun&) = delete;  // `setup` points into this
  FixedComputeRun& operator=(const FixedComputeRun&) = delete;

  const QuadraticObjective objective;
  const ComputeTimeModel compute;
  RunSetup setup;

  // Checks and runs `algorithm` on `setup`.
  RunOutput Run(const Algorithm& algorithm) const {
    algorithm.Check(setup);
    RunOutput out;
    algorithm.Run(setup, &out.records, &out.summary);
    return out;
  }

 private:
  static ComputeTimeConfig WithRate(ComputeTimeConfig config, double flops_per_s) {
    if (flops_per_s > 0) {
      config.device = "custom";
      config.flops_per_s = flops_per_s;
    }
    return config;
  }
};

// A ring of n hosts whose every link has `bandwidth_bps` and `latency_s`.
inline Topology LinkedRing(int n, double bandwidth_bps, double latency_s) {
  RingConfig rc;
  rc.links.bandwidth_bps = bandwidth_bps;
  rc.links.latency_s = latency_s;
  return RingBuilder(rc).Build(n);
}

}  // namespace commsim::testing

#endif  // COMMSIM_ALGORITHMS_RUN_TEST_UTIL_H_
