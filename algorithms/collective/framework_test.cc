// Framework profiles (algorithms/framework.h) in the collective driver, against closed forms
// written out by hand: per-tensor all-gathers with their call and transport costs, Horovod's
// fusion of the all-reduces released in one cycle, and the iterates, which no framework changes.
#include "algorithms/framework.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "algorithms/collective/allgather_compressed.h"
#include "algorithms/collective/allreduce_sgd.h"
#include "algorithms/decentralized/test_support.h"
#include "algorithms/registry.h"
#include "algorithms/run_test_util.h"
#include "compression/compressors/identity.h"
#include "models/compute_time.h"
#include "models/layer_profile.h"
#include "sim/network_test_util.h"
#include "sim/topology_regular.h"

namespace commsim {
namespace {

using net_test::Seconds;
using testing::QuadraticObjective;
using testing::RunOutput;

constexpr int64_t kFwUs = 1'000'000;   // picoseconds per microsecond
constexpr int64_t kFwPsPerBit = 1000;  // the ring's links: 1 Gbps
constexpr int64_t kFwLatencyPs = 3 * kFwUs;
constexpr int64_t kFwHeader = 40;

RunOutput RunUnder(const Algorithm& algorithm, int n, const LayerProfile& layers, double compute_s,
                   const FrameworkSetup& framework) {
  const Topology ring = testing::LinkedRing(n, 1e9, 3e-6);
  testing::FixedComputeRun run(ring, n, static_cast<int>(layers.TotalParams()), compute_s, &layers);
  run.setup.iterations = 2;
  run.setup.header_bits = kFwHeader;
  run.setup.step.size = 0.2;
  run.setup.framework = framework;
  return run.Run(algorithm);
}

std::unique_ptr<Algorithm> IdentityAllGather() {
  AllGatherCompressedConfig c;
  c.compressor = CompressorSpec("identity");
  return MakeAlgorithm("allgather_compressed", c);
}

// Three tensors of 4, 2 and 4 values (layer L0 holds two). Under a per-tensor framework each
// worker encodes its three tensors (3 compressor calls), all-gathers them one after the other
// (each a call, then n - 1 ring steps: link latency + the step latency, and the message's bits at
// the link's rate and at the host's), then decodes the n messages of every tensor (3 n calls).
TEST(FrameworkTest, PerTensorAllGatherIsOneRingPerTensorAfterItsCall) {
  const int n = 3;
  const LayerProfile layers{.name = "t",
                            .layers = {Layer{.name = "L0", .params = 6, .tensors = {4, 2}},
                                       Layer{.name = "L1", .params = 4}}};
  FrameworkSetup f;
  f.name = "test";
  f.unit = FrameworkUnit::kTensor;
  f.fusion_bytes = 1 << 20;
  f.call = SimTime::FromPs(7 * kFwUs);
  f.codec_call = SimTime::FromPs(2 * kFwUs);
  f.transport.step_latency = SimTime::FromPs(1 * kFwUs);
  f.transport.host_rate = 1e10;  // 100 ps per bit
  const RunOutput out = RunUnder(*IdentityAllGather(), n, layers, 1e-3, f);
  ASSERT_EQ(out.summary.status, kStatusOk) << out.summary.message;
  int64_t round = 1000 * kFwUs + 3 * 2 * kFwUs + n * 3 * 2 * kFwUs;  // compute, encodes, decodes
  int64_t bits = 0;
  for (int64_t size : {4, 2, 4}) {
    const int64_t wire = 32 * size + kFwHeader;
    round += 7 * kFwUs + (n - 1) * (kFwLatencyPs + 1 * kFwUs + wire * (kFwPsPerBit + 100));
    bits += n * (n - 1) * wire;
  }
  ASSERT_EQ(out.records.size(), 3u);
  for (size_t k = 1; k < out.records.size(); ++k) {
    EXPECT_EQ(out.records[k].iter_time_s, Seconds(round)) << k;
    EXPECT_EQ(out.records[k].bits_up, bits) << k;
  }
  // The same iterates as without a framework: identity per tensor is identity on the whole.
  const RunOutput ideal = RunUnder(*IdentityAllGather(), n, layers, 1e-3, FrameworkSetup{});
  for (size_t k = 0; k < out.records.size(); ++k) {
    EXPECT_EQ(out.records[k].loss, ideal.records[k].loss) << k;
  }
}

// Three layers of 4 parameters (forward 1, backward 2 FLOPs each): with 9 ms of compute their
// gradients are ready at 5, 7 and 9 ms. Horovod's cycle of 10 ms releases all three at 10 ms: one
// fused all-reduce of 12 values (a call, then the ring: 2 (n - 1) steps of 12 / n values), or,
// with a 16-byte fusion buffer, three all-reduces of 4 values one after the other.
TEST(FrameworkTest, HorovodFusesTheAllReducesReleasedInOneCycle) {
  const int n = 2;
  const LayerProfile layers{
      .name = "t", .layers = {Layer{"L0", 4, 1, 2}, Layer{"L1", 4, 1, 2}, Layer{"L2", 4, 1, 2}}};
  AllReduceSgdConfig c;
  const auto algorithm = MakeAlgorithm("allreduce_sgd", c);
  FrameworkSetup f;
  f.name = "test";
  f.unit = FrameworkUnit::kTensor;
  f.cycle = SimTime::FromPs(10'000 * kFwUs);
  f.call = SimTime::FromPs(5 * kFwUs);
  const auto ring = [&](int64_t values) {
    return 2 * (n - 1) * (kFwLatencyPs + (32 * values / n + kFwHeader) * kFwPsPerBit);
  };
  f.fusion_bytes = 1 << 20;
  const RunOutput fused = RunUnder(*algorithm, n, layers, 9e-3, f);
  ASSERT_EQ(fused.summary.status, kStatusOk) << fused.summary.message;
  EXPECT_EQ(fused.records[1].iter_time_s, Seconds(10'000 * kFwUs + 5 * kFwUs + ring(12)));
  f.fusion_bytes = 16;
  const RunOutput apart = RunUnder(*algorithm, n, layers, 9e-3, f);
  EXPECT_EQ(apart.records[1].iter_time_s, Seconds(10'000 * kFwUs + 3 * (5 * kFwUs + ring(4))));
  EXPECT_EQ(apart.records[1].bits_up, 3 * 2 * (n - 1) * n * (32 * 4 / n + kFwHeader));
}

// The same three layers on a 6 ms cycle: the cycle at 6 ms finds only L2 ready (at 5 ms) and
// all-reduces it alone; the next cycle starts 6 ms after that one (its all-reduce is long done)
// and fuses L1 and L0 (ready at 7 and 9 ms) into one buffer of 8 values.
TEST(FrameworkTest, EachCycleFusesWhatIsReadyAndTheNextStartsACycleLater) {
  const int n = 2;
  const LayerProfile layers{
      .name = "t", .layers = {Layer{"L0", 4, 1, 2}, Layer{"L1", 4, 1, 2}, Layer{"L2", 4, 1, 2}}};
  AllReduceSgdConfig c;
  FrameworkSetup f;
  f.name = "test";
  f.unit = FrameworkUnit::kTensor;
  f.fusion_bytes = 1 << 20;
  f.cycle = SimTime::FromPs(6'000 * kFwUs);
  f.call = SimTime::FromPs(5 * kFwUs);
  const auto ring = [&](int64_t values) {
    return 2 * (n - 1) * (kFwLatencyPs + (32 * values / n + kFwHeader) * kFwPsPerBit);
  };
  const RunOutput out = RunUnder(*MakeAlgorithm("allreduce_sgd", c), n, layers, 9e-3, f);
  ASSERT_EQ(out.summary.status, kStatusOk) << out.summary.message;
  EXPECT_EQ(out.records[1].iter_time_s, Seconds(12'000 * kFwUs + 5 * kFwUs + ring(8)));
  EXPECT_EQ(out.records[1].bits_up, 2 * (n - 1) * n * (32 * 4 / n + kFwHeader) +
                                        2 * (n - 1) * n * (32 * 8 / n + kFwHeader));
}

// The backend's transport on an all-reduce without a framework's unit: every ring step pays the
// step latency and the host staging of its chunk.
TEST(FrameworkTest, TransportAddsStepLatencyAndHostStagingToEveryRingStep) {
  const int n = 4;
  const LayerProfile layers{.name = "t", .layers = {Layer{.name = "all", .params = 16}}};
  AllReduceSgdConfig c;
  FrameworkSetup f;
  f.name = "test";
  f.transport.step_latency = SimTime::FromPs(2 * kFwUs);
  f.transport.host_rate = 2e9;  // 500 ps per bit
  const RunOutput out = RunUnder(*MakeAlgorithm("allreduce_sgd", c), n, layers, 1e-3, f);
  ASSERT_EQ(out.summary.status, kStatusOk) << out.summary.message;
  const int64_t wire = 32 * 16 / n + kFwHeader;
  EXPECT_EQ(out.records[1].iter_time_s,
            Seconds(1000 * kFwUs +
                    2 * (n - 1) * (kFwLatencyPs + 2 * kFwUs + wire * (kFwPsPerBit + 500))));
}

}  // namespace
}  // namespace commsim
