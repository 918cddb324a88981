// The parameter-server timeline with codec time and layer-wise overlap, against closed forms
// written out by hand (integer picoseconds).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "algorithms/decentralized/test_support.h"
#include "algorithms/ps/ps_driver.h"
#include "algorithms/ps/sgd.h"
#include "algorithms/registry.h"
#include "algorithms/run_test_util.h"
#include "base/rng.h"
#include "models/compute_time.h"
#include "models/layer_profile.h"
#include "sim/network_test_util.h"
#include "sim/topology_star.h"

namespace commsim {
namespace {

using testing::FixedComputeRun;
using testing::QuadraticObjective;
using testing::RunOutput;

constexpr int64_t kTimelineUs = 1'000'000;  // picoseconds per microsecond

using net_test::Seconds;

Message ToyMessage(int64_t elements) {
  Message m;
  m.codec = "toy";
  m.elements = elements;
  m.nonzeros = 10;
  return m;
}

// Messages of 0 payload bits (so the network adds only latency, here 0) stamped as compressor
// "toy" with `up_elements` / `down_elements` elements and 10 coded values.
class ToyCodecRule final : public PsRule {
 public:
  void Init(int, const Eigen::Ref<const Eigen::VectorXd>& x0, const Objective&) override {
    x_ = x0;
  }
  const Eigen::VectorXd& WorkerPoint(int) const override { return x_; }
  Message WorkerEncode(int, Eigen::Ref<Eigen::VectorXd>, double, Rng&) override {
    return ToyMessage(1000);
  }
  void ServerReceive(int, const Message&) override {}
  Message ServerRound(double, Rng&) override { return ToyMessage(3000); }
  void WorkerReceive(int, const Message&, double) override {}
  const Eigen::VectorXd& Model() const override { return x_; }

 private:
  Eigen::VectorXd x_;
};

// encode = 1 us + 1 ns/element + 0.1 us/coded value; decode = 2 us + 3 ns/element.
std::shared_ptr<const CodecProfile> ToyProfile() {
  auto p = std::make_shared<CodecProfile>();
  p->device = "test";
  p->compressors["toy"] = CodecCoefficients{.encode = {.c0_s = 1e-6, .elem_s = 1e-9, .nnz_s = 1e-7},
                                            .decode = {.c0_s = 2e-6, .elem_s = 3e-9}};
  return p;
}

Topology ZeroLatencyStar(int n, double bandwidth_bps) {
  StarConfig c;
  c.workers.worker_bandwidth_bps = bandwidth_bps;
  c.workers.worker_latency_s = 0;
  c.server_bandwidth_bps = bandwidth_bps;
  c.server_latency_s = 0;
  return StarBuilder(c).Build(n);
}

std::vector<IterationRecord> PlayToy(int n, int server_threads) {
  const QuadraticObjective objective(n, 3, 1);
  const Topology topology = ZeroLatencyStar(n, 1e9);
  ComputeTimeConfig cc;
  cc.seconds = 1e-3;
  const ComputeTimeModel compute(cc, objective.flops_per_sample(), n, 1);
  RunSetup setup;
  setup.objective = &objective;
  setup.topology = &topology;
  setup.compute = &compute;
  setup.iterations = 2;
  setup.codec = CodecSetup{
      .mode = CodecMode::kModel, .profile = ToyProfile(), .server_threads = server_threads};
  ToyCodecRule rule;
  std::vector<IterationRecord> records;
  RunSummary summary;
  RunParameterServer(setup, rule, &records, &summary);
  EXPECT_EQ(summary.codec, "model test");
  return records;
}

// Zero-bit messages and zero latency: the network takes no time, so an iteration is compute +
// worker encode + the server's decodes + server encode + worker decode, exactly.
TEST(PsTimelineTest, CodecModelWithFreeNetworkIsTheSumOfTheCodecJobs) {
  const int64_t compute = 1000 * kTimelineUs;
  const int64_t encode_up =
      1 * kTimelineUs + 1000 * 1000 + 10 * kTimelineUs / 10;                // 1 us + 1 us + 1 us
  const int64_t decode_up = 2 * kTimelineUs + 3 * 1000 * 1000;              // 2 us + 3 us
  const int64_t encode_down = 1 * kTimelineUs + 3000 * 1000 + kTimelineUs;  // 1 us + 3 us + 1 us
  const int64_t decode_down = 2 * kTimelineUs + 3 * 3000 * 1000;            // 2 us + 9 us
  const int n = 4;
  // One server lane: the n uplinks, all in at the same time, are decoded one after the other.
  const int64_t serial = compute + encode_up + n * decode_up + encode_down + decode_down;
  const std::vector<IterationRecord> one = PlayToy(n, 1);
  ASSERT_EQ(one.size(), 3u);
  for (size_t k = 1; k < one.size(); ++k) {
    EXPECT_EQ(one[k].iter_time_s, Seconds(serial)) << k;
    EXPECT_EQ(one[k].codec_time_s, Seconds(serial - compute)) << k;
    EXPECT_EQ(one[k].sim_time_s, Seconds(serial * static_cast<int64_t>(k)));
    EXPECT_EQ(one[k].comm_time_s, Seconds(serial) - Seconds(compute) - Seconds(serial - compute));
  }
  // n lanes: the decodes run side by side and cost one.
  const int64_t parallel = compute + encode_up + decode_up + encode_down + decode_down;
  const std::vector<IterationRecord> lanes = PlayToy(n, n);
  EXPECT_EQ(lanes[1].iter_time_s, Seconds(parallel));
  EXPECT_EQ(lanes[1].codec_time_s, Seconds(parallel - compute));
  // Two lanes for four uplinks: two rounds of decodes.
  EXPECT_EQ(PlayToy(n, 2)[1].iter_time_s, Seconds(parallel + decode_up));
}

// A real SGD run (identity both ways) on `topology` with a layer profile and overlap settings.
RunOutput PlaySgd(const Topology& topology, int n, int dim, double compute_s,
                  const LayerProfile* layers, bool layerwise, int64_t bucket_params,
                  NetworkModel model = NetworkModel::kMessage, int iterations = 2) {
  FixedComputeRun run(topology, n, dim, compute_s, layers, layerwise, bucket_params);
  run.setup.iterations = iterations;
  run.setup.network.model = model;
  run.setup.step.size = 0.1;
  SgdRule rule{SgdConfig()};
  RunOutput out;
  RunParameterServer(run.setup, rule, &out.records, &out.summary);
  return out;
}

Topology OneWorkerStar() {
  StarConfig c;
  c.workers.worker_bandwidth_bps = 1e9;  // 3200 bits: 3.2 us
  c.workers.worker_latency_s = 1e-6;
  c.server_bandwidth_bps = 2e9;  // 3200 bits: 1.6 us
  c.server_latency_s = 2e-6;
  return StarBuilder(c).Build(1);
}

// Two layers in forward order: L0 150 parameters, L1 100; forward 1 FLOP and backward 2 FLOPs
// per sample each; cap 100 parameters. Backward order: bucket 0 = L1 = [150, 250), ready after
// forward (2) + backward of L1 (2) of 6 FLOPs = 2/3 of the 3 ms step; L0 is split by the cap:
// bucket 1 = [50, 150), bucket 2 = [0, 50), both ready at 3 ms.
LayerProfile TwoLayers() {
  return LayerProfile{.name = "two", .layers = {Layer{"L0", 150, 1, 2}, Layer{"L1", 100, 1, 2}}};
}

TEST(PsTimelineTest, TwoLayerBucketsLeaveAsTheBackwardPassReleasesThem) {
  const LayerProfile layers = TwoLayers();
  const Topology star = OneWorkerStar();
  const RunOutput run = PlaySgd(star, 1, 250, 3e-3, &layers, true, 100);
  // Identity: 32 bits per element. Whole messages, store and forward at the switch.
  // Bucket 0 (3200 bits) leaves at 2 ms and its downlink is back at 2 ms + 15.6 us, long before
  // 3 ms. Buckets 1 (3200 bits) and 2 (1600 bits) leave at 3 ms, b2 after b1 on the worker link:
  //   b1 up:   worker link 0-3.2, switch 4.2, server link 4.2-5.8, server 7.8
  //   b2 up:   worker link 3.2-4.8, switch 5.8, server link 5.8-6.6, server 8.6
  //   b1 down: server link 7.8-9.4, switch 11.4, worker link 11.4-14.6, worker 15.6
  //   b2 down: server link 9.4-10.2, switch 12.2, worker link 14.6-16.2, worker 17.2
  const int64_t end = 3000 * kTimelineUs + 17'200'000;
  ASSERT_EQ(run.records.size(), 3u);
  EXPECT_EQ(run.records[1].sim_time_s, Seconds(end));
  EXPECT_EQ(run.records[2].sim_time_s, Seconds(2 * end));
  EXPECT_EQ(run.records[1].overlap_saved_s,
            Seconds(1000 * kTimelineUs));  // first send 2 ms, end 3 ms
  EXPECT_EQ(run.records[1].bits_up, 32 * 250);
  // Without overlap: one 8000-bit message each way at 3 ms: 8 + 1 + 4 + 2 up, 4 + 2 + 8 + 1 down.
  const RunOutput plain = PlaySgd(star, 1, 250, 3e-3, &layers, false, 100);
  EXPECT_EQ(plain.records[1].sim_time_s, Seconds(3000 * kTimelineUs + 30 * kTimelineUs));
  EXPECT_EQ(plain.records[1].overlap_saved_s, 0.0);
  // Identity per bucket is the identity: the learning is the same.
  EXPECT_EQ(run.records[2].loss, plain.records[2].loss);
}

// Sharded servers with overlap: every bucket is spread over the 3 servers, each piece its own
// message, and identity per piece is the identity: the same learning and the same payload bits
// as one server without buckets; the pieces of the early bucket leave at 2 ms.
TEST(PsTimelineTest, ShardedServersWithOverlapLearnTheSameAndSendEveryBucketEarly) {
  const LayerProfile layers = TwoLayers();
  StarConfig c;
  c.servers = 3;
  const Topology sharded = StarBuilder(c).Build(2);
  const Topology single = StarBuilder(StarConfig()).Build(2);
  const RunOutput over = PlaySgd(sharded, 2, 250, 3e-3, &layers, true, 100);
  const RunOutput plain = PlaySgd(single, 2, 250, 3e-3, &layers, false, 100);
  ASSERT_EQ(over.records.size(), 3u) << over.summary.message;
  EXPECT_EQ(over.records[2].loss, plain.records[2].loss);
  EXPECT_EQ(over.records[1].bits_up, plain.records[1].bits_up);  // no headers: payload only
  EXPECT_EQ(over.records[1].overlap_saved_s, Seconds(1000 * kTimelineUs));
}

// With no compute to hide behind and one bucket, layer-wise overlap is no overlap: the same
// times and the same learning. With several buckets the up- and downlinks of different buckets
// pipeline (full-duplex links), which can only help, and nothing ran under compute.
TEST(PsTimelineTest, OverlapWithZeroComputeEqualsNoOverlap) {
  StarDirectConfig c;
  c.workers.worker_bandwidth_bps = 3e9;
  c.workers.worker_latency_s = 7e-6;
  const Topology direct = StarDirectBuilder(c).Build(3);
  const LayerProfile layers = {
      .name = "three",
      .layers = {Layer{"a", 200, 1, 2}, Layer{"b", 200, 1, 2}, Layer{"c", 100, 1, 2}}};
  for (NetworkModel model : {NetworkModel::kMessage, NetworkModel::kFlow}) {
    const RunOutput plain = PlaySgd(direct, 3, 500, 0.0, &layers, false, 64, model);
    const RunOutput one = PlaySgd(direct, 3, 500, 0.0, &layers, true, 500, model);
    const RunOutput many = PlaySgd(direct, 3, 500, 0.0, &layers, true, 64, model);
    ASSERT_EQ(plain.records.size(), one.records.size());
    for (size_t k = 1; k < plain.records.size(); ++k) {
      EXPECT_EQ(one.records[k].sim_time_s, plain.records[k].sim_time_s) << k;
      EXPECT_EQ(one.records[k].loss, plain.records[k].loss) << k;
      EXPECT_EQ(one.records[k].overlap_saved_s, 0.0);
      EXPECT_LE(many.records[k].sim_time_s, plain.records[k].sim_time_s) << k;
      EXPECT_EQ(many.records[k].loss, plain.records[k].loss) << k;
      EXPECT_EQ(many.records[k].overlap_saved_s, 0.0);
    }
  }
}

// Overlap only moves sends earlier: SGD's iteration is never longer with it (random stars,
// layer profiles, caps and compute times; codec none, no headers).
TEST(PsTimelineTest, OverlapNeverLengthensAnSgdIteration) {
  Rng rng(7);
  for (int trial = 0; trial < 10; ++trial) {
    const int n = 1 + static_cast<int>(rng.Uniform() * 4);
    LayerProfile layers{.name = "random", .layers = {}};
    int dim = 0;
    const int num_layers = 1 + static_cast<int>(rng.Uniform() * 5);
    for (int j = 0; j < num_layers; ++j) {
      const int params = 1 + static_cast<int>(rng.Uniform() * 100);
      dim += params;
      layers.layers.push_back(Layer{"l", params, 1 + rng.Uniform() * 10, 1 + rng.Uniform() * 20});
    }
    StarConfig c;
    c.workers.worker_bandwidth_bps = 1e8 * (1 + rng.Uniform() * 50);
    c.workers.worker_latency_s = 1e-6 * rng.Uniform() * 50;
    c.server_bandwidth_bps = 1e8 * (1 + rng.Uniform() * 50);
    c.server_latency_s = 1e-6 * rng.Uniform() * 50;
    const Topology star = StarBuilder(c).Build(n);
    const double compute_s = 1e-4 * rng.Uniform();
    const int64_t cap = 1 + dim / 16 + static_cast<int64_t>(rng.Uniform() * dim);
    const NetworkModel model = trial % 2 == 0 ? NetworkModel::kMessage : NetworkModel::kFlow;
    const RunOutput plain = PlaySgd(star, n, dim, compute_s, &layers, false, cap, model);
    const RunOutput over = PlaySgd(star, n, dim, compute_s, &layers, true, cap, model);
    for (size_t k = 1; k < plain.records.size(); ++k) {
      EXPECT_LE(over.records[k].iter_time_s, plain.records[k].iter_time_s)
          << "trial " << trial << " iteration " << k;
    }
  }
}

}  // namespace
}  // namespace commsim
