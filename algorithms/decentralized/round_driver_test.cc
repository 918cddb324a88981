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

// Two exchanges a round: in exchange 0 node i sends neighbour slot k a message of
// bits0 + 100 k bits (one unicast each), in exchange 1 one message of bits1 to every neighbour;
// it computes in exchange `compute_exchange`. Checks that every exchange's deliveries come
// before its combine and after the previous exchange's.
class TwoExchangeRule final : public NodeRule {
 public:
  TwoExchangeRule(const MixingMatrix& mixing, int64_t bits0, int64_t bits1, bool send_first,
                  int compute_exchange)
      : mixing_(mixing),
        bits_{bits0, bits1},
        send_first_(send_first),
        compute_exchange_(compute_exchange),
        x_(Eigen::VectorXd::Zero(1)),
        delivered_(mixing.num_nodes()),
        combined_(mixing.num_nodes()) {}
  int num_nodes() const override { return mixing_.num_nodes(); }
  bool sends_before_compute() const override { return send_first_; }
  int exchanges() const override { return 2; }
  int compute_exchange(int) const override { return compute_exchange_; }
  Outbox StepIn(int node, int64_t t, int e, int) override {
    EXPECT_EQ(combined_[node], 2 * t + e) << "node " << node;
    Message m;
    m.codec = "toy";
    m.elements = 1000;
    if (e == 1) {
      m.payload_bits = bits_[1];
      return Outbox::ToAll(m);
    }
    Outbox out;
    for (size_t k = 0; k < mixing_.neighbours(node).size(); ++k) {
      m.payload_bits = bits_[0] + 100 * static_cast<int64_t>(k);
      out.each.push_back(m);
    }
    return out;
  }
  void DeliverIn(int node, int e, int slot, const Message& m) override {
    const int from = mixing_.neighbours(node)[slot];
    const int64_t expect = e == 1 ? bits_[1] : bits_[0] + 100 * mixing_.SlotOf(from, node);
    EXPECT_EQ(m.payload_bits, expect) << "node " << node << " exchange " << e;
    ++delivered_[node];
  }
  void CombineIn(int node, int64_t t, int e) override {
    EXPECT_EQ(delivered_[node], (2 * t + e + 1) * 2) << "node " << node;
    ++combined_[node];
  }
  const Eigen::VectorXd& x(int) const override { return x_; }
  void SetX(int, const Eigen::Ref<const Eigen::VectorXd>&) override {}

 private:
  const MixingMatrix& mixing_;
  int64_t bits_[2];
  bool send_first_;
  int compute_exchange_;
  Eigen::VectorXd x_;
  std::vector<int64_t> delivered_, combined_;
};

RoundPlayed PlayTwoExchanges(const Topology& topology, int64_t bits0, int64_t bits1,
                             int64_t header_bits, bool send_first, int compute_exchange,
                             double compute_s) {
  const MixingMatrix mixing = BuildMixing("metropolis", testing::RingNeighbours(3));
  ComputeTimeConfig cc;
  cc.seconds = compute_s;
  const ComputeTimeModel compute(cc, 1.0, 3, 1);
  RunSetup setup;
  setup.label = "fake";
  setup.topology = &topology;
  setup.compute = &compute;
  setup.header_bits = header_bits;
  setup.iterations = 2;
  TwoExchangeRule rule(mixing, bits0, bits1, send_first, compute_exchange);
  RunRecorder recorder(setup, "fake", Family::kDecentralized);
  const RunRecorder::Evaluate evaluate = [](IterationRecord& r) { r.loss = 1.0; };
  recorder.Start(evaluate);
  RunRounds(setup, mixing, rule, recorder, evaluate);
  RoundPlayed p;
  recorder.Finish(&p.records, &p.summary);
  return p;
}

TEST(RoundDriverTest, ExchangesFollowOneAnotherWithPerNeighbourMessages) {
  const Topology ring = Ring3();
  const int64_t b0 = 1000, b1 = 3000, header = 64;
  // Exchange 0 ends when the larger per-neighbour message (slot 1: b0 + 100) has crossed its link;
  // exchange 1 starts then.
  const int64_t hop0 = CeilPs(b0 + 100 + header, kRingBps) + kRingLatencyPs;
  const int64_t hop1 = CeilPs(b1 + header, kRingBps) + kRingLatencyPs;
  const int64_t bits = 3 * (b0 + header + b0 + 100 + header) + 3 * 2 * (b1 + header);
  const int64_t c = 1'000'000'000;  // 1 ms of compute
  // Send after computing in exchange 0: compute, then both exchanges.
  ExpectEveryIteration(PlayTwoExchanges(ring, b0, b1, header, false, 0, 1e-3), c + hop0 + hop1, c,
                       bits);
  // Computing in exchange 1 (Q-GADMM's tails): exchange 0 first, then compute, then exchange 1.
  ExpectEveryIteration(PlayTwoExchanges(ring, b0, b1, header, false, 1, 1e-3), hop0 + c + hop1, c,
                       bits);
  // Sending before computing: the compute overlaps both exchanges and only has to end before the
  // last one does.
  ExpectEveryIteration(PlayTwoExchanges(ring, b0, b1, header, true, 0, 1e-3), c, c, bits);
  const int64_t small = 10'000'000;  // 10 us
  ExpectEveryIteration(PlayTwoExchanges(ring, b0, b1, header, true, 0, 1e-5), hop0 + hop1, small,
                       bits);
}

}  // namespace
}  // namespace commsim
