// The decentralized round driver's timing and bits, against event times computed by hand.
//
// A fake rule sends fixed-size messages (the mathematics is not under test), so each round's time
// is a closed form: compute, then (or, for a rule that sends first, overlapped with it) one
// transmission per link, latency, and queueing where copies share a link. Expected times are
// integer picoseconds: ceil(bits x 1e12 / bandwidth) per transmission (net_test::CeilPs,
// sim/network_test_util.h), never the simulator's TransmitTime.
#include "algorithms/decentralized/round_driver.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

#include "algorithms/decentralized/test_support.h"
#include "models/compute_time.h"
#include "sim/network_test_util.h"
#include "sim/topology_regular.h"
#include "sim/topology_star.h"

namespace commsim {
namespace {

using net_test::CeilPs;  // the reference transmit time

using net_test::Seconds;

// Sends `bits` of payload each round; checks that a node combines only after its own step and
// every neighbour's message of the round.
class FixedSizeNodeRule final : public NodeRule {
 public:
  FixedSizeNodeRule(const MixingMatrix& mixing, int64_t bits, bool send_first)
      : mixing_(mixing),
        send_first_(send_first),
        x_(1),
        stepped_(mixing.num_nodes()),
        delivered_(mixing.num_nodes()) {
    message_.payload_bits = bits;
    message_.codec = "toy";  // for the codec time model: 1000 elements, all coded
    message_.elements = 1000;
    x_.setZero();
  }
  int num_nodes() const override { return mixing_.num_nodes(); }
  bool sends_before_compute() const override { return send_first_; }
  Message Step(int node, int64_t t, int /*slot*/) override {
    stepped_[node] = t + 1;
    return message_;
  }
  void Deliver(int node, int slot, const Message&) override {
    EXPECT_GE(slot, 0);
    ++delivered_[node];
  }
  void Combine(int node, int64_t t) override {
    EXPECT_EQ(stepped_[node], t + 1) << "node " << node;
    const int64_t degree = static_cast<int64_t>(mixing_.neighbours(node).size());
    EXPECT_EQ(delivered_[node], (t + 1) * degree) << "node " << node << " round " << t;
    ++combines_;
  }
  const Eigen::VectorXd& x(int) const override { return x_; }
  void SetX(int, const Eigen::Ref<const Eigen::VectorXd>&) override {}
  int combines() const { return combines_; }

 private:
  const MixingMatrix& mixing_;
  bool send_first_;
  Message message_;
  Eigen::VectorXd x_;
  std::vector<int64_t> stepped_, delivered_;
  int combines_ = 0;
};

struct RoundPlayed {
  std::vector<IterationRecord> records;
  RunSummary summary;
  int combines = 0;
};

// Runs 2 rounds over `topology` (nodes = its first n hosts, ring neighbours) with a fixed compute
// of `compute_s` times `slowdown`.
RoundPlayed Play(const Topology& topology, int n, int64_t bits, int64_t header_bits,
                 bool send_first, bool broadcast, double compute_s,
                 std::vector<double> slowdown = {}, CodecSetup codec = {}) {
  const MixingMatrix mixing = BuildMixing("metropolis", testing::RingNeighbours(n));
  ComputeTimeConfig cc;
  cc.seconds = compute_s;
  cc.slowdown = std::move(slowdown);
  const ComputeTimeModel compute(cc, 1.0, n, 1);
  RunSetup setup;
  setup.label = "fake";
  setup.topology = &topology;
  setup.compute = &compute;
  setup.header_bits = header_bits;
  setup.broadcast = broadcast;
  setup.iterations = 2;
  setup.codec = std::move(codec);
  FixedSizeNodeRule rule(mixing, bits, send_first);
  RunRecorder recorder(setup, "fake", Family::kDecentralized);
  const RunRecorder::Evaluate evaluate = [](IterationRecord& r) { r.loss = 1.0; };
  recorder.Start(evaluate);
  RunRounds(setup, mixing, rule, recorder, evaluate);
  RoundPlayed p;
  recorder.Finish(&p.records, &p.summary);
  p.combines = rule.combines();
  return p;
}

void ExpectEveryIteration(const RoundPlayed& p, int64_t iter_ps, int64_t compute_ps, int64_t bits) {
  ASSERT_EQ(p.records.size(), 3u);
  for (size_t k = 1; k < p.records.size(); ++k) {
    EXPECT_EQ(p.records[k].iter_time_s, Seconds(iter_ps)) << "iteration " << k;
    EXPECT_EQ(p.records[k].compute_time_s, Seconds(compute_ps)) << "iteration " << k;
    EXPECT_EQ(p.records[k].sim_time_s, Seconds(iter_ps * static_cast<int64_t>(k)));
    EXPECT_EQ(p.records[k].bits_up, bits) << "iteration " << k;
    EXPECT_EQ(p.records[k].bits_down, 0);
  }
  EXPECT_EQ(p.summary.total_bits, 2 * bits);
}

// A ring of 3 (every pair linked) at 7 Mbit/s and 50 us: 1000 + 64 bits take 152 us per link.
constexpr int64_t kRingBps = 7'000'000, kRingLatencyPs = 50'000'000;
Topology Ring3() {
  RingConfig c;
  c.links.bandwidth_bps = static_cast<double>(kRingBps);
  c.links.latency_s = Seconds(kRingLatencyPs);
  return RingBuilder(c).Build(3);
}

TEST(RoundDriverTest, SendAfterComputeAddsOneHopToTheSlowestCompute) {
  const Topology ring = Ring3();
  const int64_t bits = 1000, header = 64, hop = CeilPs(bits + header, kRingBps) + kRingLatencyPs;
  const RoundPlayed p = Play(ring, 3, bits, header, /*send_first=*/false, false, 1e-3);
  ExpectEveryIteration(p, 1'000'000'000 + hop, 1'000'000'000, 3 * 2 * (bits + header));
  EXPECT_EQ(p.combines, 2 * 3);
  // A straggler computing 2 ms sends late: its neighbours combine one hop after it.
  const RoundPlayed s = Play(ring, 3, bits, header, false, false, 1e-3, {1, 1, 2});
  ExpectEveryIteration(s, 2'000'000'000 + hop, 2'000'000'000, 3 * 2 * (bits + header));
  // Wherever the straggler is, the round's compute time is the slowest node's.
  for (const std::vector<double>& slowdown : {std::vector<double>{2, 1, 1}, {1, 2, 1}}) {
    const RoundPlayed f = Play(ring, 3, bits, header, false, false, 1e-3, slowdown);
    ExpectEveryIteration(f, 2'000'000'000 + hop, 2'000'000'000, 3 * 2 * (bits + header));
  }
}

TEST(RoundDriverTest, SendBeforeComputeOverlapsTheHopWithTheCompute) {
  const Topology ring = Ring3();
  const int64_t bits = 1000, header = 64, hop = CeilPs(bits + header, kRingBps) + kRingLatencyPs;
  ASSERT_GT(hop, 100'000'000);  // 202 us
  // Compute 100 us: the hop is longer, the round is the hop alone.
  const RoundPlayed p = Play(ring, 3, bits, header, /*send_first=*/true, false, 100e-6);
  ExpectEveryIteration(p, hop, 100'000'000, 3 * 2 * (bits + header));
  // Compute 1 ms: the hop is hidden under it.
  const RoundPlayed q = Play(ring, 3, bits, header, /*send_first=*/true, false, 1e-3);
  ExpectEveryIteration(q, 1'000'000'000, 1'000'000'000, 3 * 2 * (bits + header));
}

// Three nodes (every pair neighbours) on a star: node i's copies leave on its one uplink, cross
// the switch, and queue on the destination's downlink. Sorted neighbours: first copies go
// 0->1, 1->0, 2->0 (at the switch at T + l), second copies 0->2, 1->2, 2->1 (at 2T + l). Node 2
// receives both of its messages at 2T + l: they leave the switch at 3T + l and 4T + l, so the round
// ends at 4T + 2l. A broadcast sends one copy per node, replicated at the switch: every node's
// two messages reach the switch at T + l and the round ends at 3T + 2l.
TEST(RoundDriverTest, UnicastCopiesQueueOnTheUplinkAndBroadcastSendsOne) {
  StarConfig c;
  c.workers.worker_bandwidth_bps = 3e9;
  c.workers.worker_latency_s = 2e-6;
  const Topology star = StarBuilder(c).Build(3);
  const int64_t bits = 3000, header = 96, t = CeilPs(bits + header, 3'000'000'000);
  const int64_t l = 2'000'000;
  const RoundPlayed u = Play(star, 3, bits, header, /*send_first=*/true, /*broadcast=*/false, 0.0);
  ExpectEveryIteration(u, 4 * t + 2 * l, 0, 3 * 2 * (bits + header));
  const RoundPlayed b = Play(star, 3, bits, header, /*send_first=*/true, /*broadcast=*/true, 0.0);
  ExpectEveryIteration(b, 3 * t + 2 * l, 0, 3 * (bits + header));  // bits counted once per node
}

// Codec model: a node encodes after its compute (1 us + 1 ns per element = 2 us) and sends; its
// two neighbours' messages arrive together and are decoded one after the other on its one lane
// (2 us + 2 ns per element = 4 us each).
TEST(RoundDriverTest, CodecModelAddsTheEncodeAndTheSerialDecodesOfTheNeighbours) {
  auto profile = std::make_shared<CodecProfile>();
  profile->device = "test";
  profile->compressors["toy"] = CodecCoefficients{.encode = {.c0_s = 1e-6, .elem_s = 1e-9},
                                                  .decode = {.c0_s = 2e-6, .elem_s = 2e-9}};
  const Topology ring = Ring3();
  const int64_t bits = 1000, header = 64, hop = CeilPs(bits + header, kRingBps) + kRingLatencyPs;
  const int64_t encode = 2'000'000, decode = 4'000'000;
  const RoundPlayed p = Play(ring, 3, bits, header, /*send_first=*/false, false, 1e-3, {},
                             CodecSetup{.mode = CodecMode::kModel, .profile = profile});
  ExpectEveryIteration(p, 1'000'000'000 + encode + hop + 2 * decode, 1'000'000'000,
                       3 * 2 * (bits + header));
  for (size_t k = 1; k < p.records.size(); ++k) {
    EXPECT_EQ(p.records[k].codec_time_s, Seconds(encode + 2 * decode)) << k;
  }
  EXPECT_EQ(p.summary.codec, "model test");
}

}  // namespace
}  // namespace commsim
