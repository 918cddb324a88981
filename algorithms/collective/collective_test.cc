// The collective family end to end: the driver's timing and bits against hand-computed closed
// forms, its statuses, allreduce_sgd against the parameter server's sgd, the bits of
// allgather_compressed and powersgd, and convergence of the compressed ones on a quadratic.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/collective/allgather_compressed.h"
#include "algorithms/collective/allreduce_sgd.h"
#include "algorithms/collective/powersgd.h"
#include "algorithms/collective/schedule.h"
#include "algorithms/decentralized/test_support.h"
#include "algorithms/ps/sgd.h"
#include "algorithms/registry.h"
#include "algorithms/run_test_util.h"
#include "base/error.h"
#include "base/error_test_util.h"
#include "compression/compressors/identity.h"
#include "compression/compressors/top_k.h"
#include "models/compute_time.h"
#include "models/layer_profile.h"
#include "sim/network_test_util.h"
#include "sim/topology_regular.h"
#include "sim/topology_star.h"

namespace commsim {
namespace {

using test_errors::ErrorOf;
using testing::QuadraticObjective;
using testing::RunOutput;

constexpr int64_t kPsPerBit = 1000;  // 1 Gbps
constexpr int64_t kLatencyPs = 3'000'000;
constexpr int64_t kComputePs = 5'000'000'000;  // 5 ms

using net_test::Seconds;

Topology Ring(int n) {
  RingConfig c;
  c.links.bandwidth_bps = 1e9;
  c.links.latency_s = 3e-6;
  return RingBuilder(c).Build(n);
}

Topology StarTopology(int n) {
  StarConfig c;
  c.workers.worker_bandwidth_bps = 1e9;
  c.workers.worker_latency_s = 3e-6;
  c.server_bandwidth_bps = 1e9;
  c.server_latency_s = 3e-6;
  return StarBuilder(c).Build(n);
}

enum class Net { kRing, kStar };  // Ring(workers) or StarTopology(workers)

// One run on QuadraticObjective(workers, dim, seed) over `net`, kComputePs of compute per step
// (times slowdown[w] for worker w); the algorithm's Check runs first.
struct Trial {
  int workers = 4;
  int dim = 4;
  uint64_t seed = 3;
  Net net = Net::kRing;
  int64_t iterations = 3;
  double step = 0.25;
  int64_t header_bits = 0;
  std::vector<double> slowdown = {};
  const LayerProfile* layers = nullptr;
  int64_t max_events = 0;  // > 0: the engine's event budget instead of the default

  QuadraticObjective Objective() const { return QuadraticObjective(workers, dim, seed); }

  RunOutput Go(const Algorithm& algorithm) const {
    const QuadraticObjective objective = Objective();
    const Topology topology = net == Net::kRing ? Ring(workers) : StarTopology(workers);
    ComputeTimeConfig cc;
    cc.seconds = Seconds(kComputePs);
    cc.slowdown = slowdown;
    const ComputeTimeModel compute(cc, objective.flops_per_sample(), workers, 1);
    RunSetup setup;
    setup.label = std::string(algorithm.info().name);
    setup.objective = &objective;
    setup.topology = &topology;
    setup.compute = &compute;
    setup.iterations = iterations;
    setup.header_bits = header_bits;
    setup.step.size = step;
    setup.layers = layers;
    if (max_events > 0) setup.limits.max_events = max_events;
    algorithm.Check(setup);
    RunOutput out;
    algorithm.Run(setup, &out.records, &out.summary);
    return out;
  }
};

// The UserError `algorithm`'s Check throws for 6 workers on `topology` with codec time `codec`;
// "" when it accepts them.
std::string CheckError(const Algorithm& algorithm, const Topology& topology,
                       CodecMode codec = CodecMode::kNone) {
  const QuadraticObjective objective(6, 3, 3);
  RunSetup setup;
  setup.objective = &objective;
  setup.topology = &topology;
  setup.codec.mode = codec;
  return ErrorOf([&] { algorithm.Check(setup); }, "");
}

std::unique_ptr<Algorithm> AllReduceSgd(std::string_view kind, std::string_view value_bits,
                                        int64_t group = 0) {
  AllReduceSgdConfig c;
  c.common.collective = std::string(kind);
  c.common.value_bits = std::string(value_bits);
  c.common.group_size = group;
  return MakeAlgorithm("allreduce_sgd", c);
}

// Ring all-reduce on a ring: each iteration = compute + 2(n-1) (l + (64 d / n + header) / B);
// bits_up = 2(n-1) n messages of 64 d / n + header bits; no downlink; family "collective".
TEST(CollectiveDriverTest, RingIterationIsComputePlusTheRingClosedForm) {
  const int n = 4, d = 12;
  const RunOutput out =
      Trial{.workers = n, .dim = d, .seed = 3, .net = Net::kRing, .header_bits = 40}.Go(
          *AllReduceSgd("ring", "64"));
  ASSERT_EQ(out.summary.status, kStatusOk) << out.summary.message;
  EXPECT_EQ(out.summary.family, "collective");
  const int64_t chunk_bits = 64 * d / n + 40;
  const int64_t ring_ps = 2 * (n - 1) * (kLatencyPs + chunk_bits * kPsPerBit);
  ASSERT_EQ(out.records.size(), 4u);
  for (int k = 1; k <= 3; ++k) {
    EXPECT_EQ(out.records[k].iter_time_s, Seconds(kComputePs + ring_ps)) << k;
    EXPECT_EQ(out.records[k].compute_time_s, Seconds(kComputePs)) << k;
    EXPECT_EQ(out.records[k].bits_up, 2 * (n - 1) * n * chunk_bits) << k;
    EXPECT_EQ(out.records[k].bits_down, 0) << k;
  }
  EXPECT_EQ(out.summary.sim_time_s, Seconds(3 * (kComputePs + ring_ps)));
}

// A straggler: worker 1 computes twice as long. Its step-0 chunk starts a chain of 2(n-1)
// dependent transfers (each step of the ring needs the previous step's chunk from the left), so
// the iteration is the straggler's compute plus the whole ring; the others' early steps hide.
TEST(CollectiveDriverTest, AStragglerDelaysTheRingByItsExtraCompute) {
  const int n = 3, d = 6;
  const RunOutput out =
      Trial{.workers = n, .dim = d, .seed = 3, .net = Net::kRing, .slowdown = {1, 2, 1}}.Go(
          *AllReduceSgd("ring", "64"));
  const int64_t ring_ps = 2 * (n - 1) * (kLatencyPs + 64 * d / n * kPsPerBit);
  EXPECT_EQ(out.records[1].iter_time_s, Seconds(2 * kComputePs + ring_ps));
  EXPECT_EQ(out.records[1].compute_time_s, Seconds(2 * kComputePs));
}

// With fp64 on the wire, every collective gives the parameter server's sgd (fp64 up and down)
// the same iterates up to the order of the floating-point sum: n = 5 (not a power of two) and
// d = 7 (not divisible by n).
TEST(CollectiveAlgorithmsTest, AllReduceSgdMatchesPsSgdForEveryCollective) {
  const int n = 5, d = 7;
  const Trial run{
      .workers = n, .dim = d, .seed = 11, .net = Net::kStar, .iterations = 20, .step = 0.3};
  SgdConfig ps;
  static_cast<IdentityConfig&>(*ps.uplink.config).precision = 64;
  static_cast<IdentityConfig&>(*ps.downlink.config).precision = 64;
  const RunOutput reference = run.Go(*MakeAlgorithm("sgd", ps));
  for (const std::string_view kind : CollectiveKinds()) {
    const RunOutput out = run.Go(*AllReduceSgd(kind, "64", 5));
    ASSERT_EQ(out.records.size(), reference.records.size()) << kind;
    for (size_t k = 0; k < out.records.size(); ++k) {
      EXPECT_NEAR(out.records[k].loss, reference.records[k].loss, 1e-12 * reference.records[k].loss)
          << kind << " iteration " << k;
      EXPECT_NEAR(*out.records[k].dist_to_opt_sq, *reference.records[k].dist_to_opt_sq,
                  1e-12 * *reference.records[0].dist_to_opt_sq)
          << kind << " iteration " << k;
    }
  }
}

// On the quadratic with identity Hessian, full-gradient descent with step 1/2 halves the
// distance to x* every iteration: ||x_k - x*||^2 = 4^-k ||x*||^2 (x_0 = 0); fp32 on the wire
// still gets below 1e-10 (the fp32 rounding of g = x - c is relative to |c| ~ 2: ~1e-7 per
// value, and it shrinks as x -> x* only down to that level, so the floor is ~d 1e-14).
TEST(CollectiveAlgorithmsTest, AllReduceSgdConvergesOnTheQuadratic) {
  const int n = 6, d = 10;
  const Trial run{
      .workers = n, .dim = d, .seed = 5, .net = Net::kStar, .iterations = 40, .step = 0.5};
  const RunOutput out = run.Go(*AllReduceSgd("hierarchical", "32", 3));
  EXPECT_LT(*out.records.back().dist_to_opt_sq, 1e-10);
  const double d0 = run.Objective().optimum()->x.squaredNorm();
  EXPECT_NEAR(*out.records[3].dist_to_opt_sq, d0 / 64, 1e-6 * d0);
}

// allgather_compressed's bits are its real messages: each of the n messages crosses n-1 links.
// With the identity compressor (fp32) a message is 32 d bits + header.
TEST(CollectiveAlgorithmsTest, AllGatherBitsAreNMinusOneTimesTheMessages) {
  const int n = 4, d = 9;
  AllGatherCompressedConfig c;
  c.compressor = CompressorSpec("identity");
  const RunOutput out =
      Trial{.workers = n, .dim = d, .seed = 5, .net = Net::kRing, .header_bits = 16}.Go(
          *MakeAlgorithm("allgather_compressed", c));
  EXPECT_EQ(out.records[1].bits_up, (n - 1) * n * (32 * d + 16));
  // One ring all-gather step per hop; every message has the same size: 3 (l + (32 d + 16)/B).
  EXPECT_EQ(out.records[1].iter_time_s,
            Seconds(kComputePs + (n - 1) * (kLatencyPs + (32 * d + 16) * kPsPerBit)));
}

// top-k (k = 2 of 20) with error feedback on heterogeneous workers (each worker's gradient at x*
// is x* - c_w, not 0) settles in a neighbourhood of x* whose size is set by the error memories,
// about gamma x the workers' gradients at x*: ||x - x*||^2 scales like gamma^2. Measured over
// the last 1000 of 2000 iterations (mean of ||x - x*||^2 / ||x*||^2): 0.13 at gamma = 0.2 and
// 0.0078 (1/17 of it) at gamma = 0.05; the test asserts < 0.3 and a ratio > 8.
TEST(CollectiveAlgorithmsTest, TopKWithErrorFeedbackSettlesInANeighbourhoodThatShrinksWithTheStep) {
  const int n = 4, d = 20;
  AllGatherCompressedConfig c;
  c.compressor = CompressorSpec("top_k");
  static_cast<TopKConfig&>(*c.compressor.config).k = 2;
  c.error_feedback = true;
  Trial run{.workers = n, .dim = d, .seed = 7, .net = Net::kStar, .iterations = 2000};
  const double d0 = run.Objective().optimum()->x.squaredNorm();
  std::vector<double> tail;
  for (const double step : {0.2, 0.05}) {
    run.step = step;
    const RunOutput out = run.Go(*MakeAlgorithm("allgather_compressed", c));
    ASSERT_EQ(out.summary.status, kStatusOk);
    double sum = 0;
    for (size_t k = 1001; k <= 2000; ++k) sum += *out.records[k].dist_to_opt_sq / d0;
    tail.push_back(sum / 1000);
  }
  EXPECT_LT(tail[0], 0.3);
  EXPECT_GT(tail[0] / tail[1], 8.0);
}

// PowerSGD's wire: P (m r values, plus the vectors) and Q (k r values) all-reduced on the ring:
// 2(n-1) x value_bits x (P + Q) bits and 2 x 2(n-1) n headers per iteration.
TEST(CollectiveAlgorithmsTest, PowerSgdBitsAreTheRingOfItsFactors) {
  const int n = 4, d = 100;  // one 10 x 10 matrix: m = k = 10
  PowerSgdConfig c;
  c.rank = 2;
  const RunOutput out =
      Trial{.workers = n, .dim = d, .seed = 5, .net = Net::kRing, .header_bits = 8}.Go(
          *MakeAlgorithm("powersgd", c));
  const int64_t per_worker_bits = 32 * 2 * (10 + 10);  // 32 r (m + k)
  EXPECT_EQ(out.records[1].bits_up, 2 * (n - 1) * per_worker_bits + 2 * 2 * (n - 1) * n * 8);
}

// With a layer profile the factors are per layer: a 90-parameter layer as a 9 x 10 matrix
// (P 9 x 2, Q 10 x 2) and a 10-parameter layer kept as a vector inside P: P + Q = 28 + 20 values.
TEST(CollectiveAlgorithmsTest, PowerSgdBitsFollowTheLayerProfile) {
  const int n = 3, d = 100;
  const LayerProfile profile{.name = "toy",
                             .layers = {{.name = "w", .params = 90}, {.name = "b", .params = 10}}};
  const RunOutput out =
      Trial{.workers = n, .dim = d, .seed = 5, .net = Net::kRing, .layers = &profile}.Go(
          *MakeAlgorithm("powersgd", PowerSgdConfig{}));
  EXPECT_EQ(out.records[1].bits_up, 2 * (n - 1) * 32 * (28 + 20));
}

TEST(CollectiveAlgorithmsTest, PowerSgdLayoutReshapesLayersAndKeepsSmallOnesAsVectors) {
  LayerProfile profile{.name = "toy",
                       .layers = {{.name = "conv", .params = 90}, {.name = "bias", .params = 10}}};
  const PowerSgdLayout l = MakePowerSgdLayout(100, 2, &profile);
  ASSERT_EQ(l.blocks.size(), 2u);
  // 90 params: k = ceil(sqrt(90)) = 10, m = 9; 10 params: 2 (4 + 3) = 14 >= 10, a vector.
  EXPECT_TRUE(l.blocks[0].matrix);
  EXPECT_EQ(l.blocks[0].rows, 9);
  EXPECT_EQ(l.blocks[0].cols, 10);
  EXPECT_FALSE(l.blocks[1].matrix);
  EXPECT_EQ(l.p_length, 9 * 2 + 10);
  EXPECT_EQ(l.q_length, 10 * 2);
  EXPECT_EQ(l.padded_size, 90);
  // A profile that does not add up to d is ignored: one block of d = 101 (k = 11, m = 10, padded).
  const PowerSgdLayout whole = MakePowerSgdLayout(101, 2, &profile);
  ASSERT_EQ(whole.blocks.size(), 1u);
  EXPECT_EQ(whole.blocks[0].rows, 10);
  EXPECT_EQ(whole.blocks[0].cols, 11);
  EXPECT_EQ(whole.padded_size, 110);
}

// Rank 2 of a 10 x 10 reshaped gradient with error feedback converges to x* (no heterogeneity
// floor: the error memories drain as the gradients vanish), warm-started or not. Both start
// from the same Q, so iteration 1 is the same and iteration 2 differs (a fresh Q vs the last).
TEST(CollectiveAlgorithmsTest, PowerSgdWithErrorFeedbackConverges) {
  const int n = 4, d = 100;
  const Trial run{
      .workers = n, .dim = d, .seed = 9, .net = Net::kStar, .iterations = 300, .step = 0.5};
  const double d0 = run.Objective().optimum()->x.squaredNorm();
  std::vector<RunOutput> outs;
  for (const bool warm : {true, false}) {
    PowerSgdConfig c;
    c.warm_start = warm;
    outs.push_back(run.Go(*MakeAlgorithm("powersgd", c)));
    EXPECT_LT(*outs.back().records.back().dist_to_opt_sq, 1e-8 * d0) << "warm_start " << warm;
  }
  EXPECT_EQ(outs[0].records[1].loss, outs[1].records[1].loss);
  EXPECT_NE(outs[0].records[2].loss, outs[1].records[2].loss);
}

TEST(CollectiveDriverTest, ATooLargeStepDivergesAndALimitIsAnError) {
  const int n = 3, d = 4;
  // Step 3 on the identity Hessian: x - x* is multiplied by -2 every iteration; fp32 on the wire
  // overflows after ~128 iterations (or the loss check fires first).
  const RunOutput diverged =
      Trial{.workers = n, .dim = d, .seed = 3, .net = Net::kRing, .iterations = 2000, .step = 3.0}
          .Go(*AllReduceSgd("ring", "32"));
  EXPECT_EQ(diverged.summary.status, kStatusDiverged);
  EXPECT_LT(diverged.summary.iterations, 2000);
  // An engine event budget too small for one round ends the run with "error" and keeps its text.
  const RunOutput out =
      Trial{.workers = n, .dim = d, .seed = 3, .net = Net::kRing, .max_events = 5}.Go(
          *AllReduceSgd("ring", "64"));
  EXPECT_EQ(out.summary.status, kStatusError);
  EXPECT_NE(out.summary.message.find("event"), std::string::npos) << out.summary.message;
}

TEST(CollectiveDriverTest, CheckRejectsAWrongWorkerCountAndAGroupSizeThatDoesNotDivide) {
  const std::string workers = CheckError(*AllReduceSgd("ring", "32"), Ring(5));
  EXPECT_NE(workers.find("5 such hosts but the scenario has 6 workers"), std::string::npos)
      << workers;
  const Topology star6 = StarTopology(6);  // 7 hosts, the server's excluded: fine
  EXPECT_EQ(CheckError(*AllReduceSgd("ring", "32"), star6), "");
  EXPECT_EQ(CheckError(*AllReduceSgd("hierarchical", "32", 4), star6),
            "group_size: must divide the 6 workers, got 4");
}

// Measured codec time has no per-worker wall time in the collective rules (one decode stands
// for all workers), so it is refused; the model and none are accepted.
TEST(CollectiveDriverTest, CheckRejectsMeasuredCodecTime) {
  const Topology star6 = StarTopology(6);
  const std::string measured = CheckError(*AllReduceSgd("ring", "32"), star6, CodecMode::kMeasured);
  EXPECT_NE(measured.find("\"measured\" is not available for collective"), std::string::npos)
      << measured;
  for (CodecMode mode : {CodecMode::kNone, CodecMode::kModel}) {
    EXPECT_EQ(CheckError(*AllReduceSgd("ring", "32"), star6, mode), "")
        << "mode " << static_cast<int>(mode);
  }
}

}  // namespace
}  // namespace commsim
