// The parameter-server round driver's timing and bits, against event times computed by hand.
//
// A fake rule sends fixed-size messages (the mathematics is not under test), so every iteration's
// time is a closed form of the star's links: compute, then the uplink incast (each worker's link,
// then the shared switch -> server link in arrival order), then the downlink (n unicast copies
// serialised on the server link, or one multicast copy replicated at the switch), then each
// worker's own link. Expected times are integer picoseconds: ceil(bits x 1e12 / bandwidth) per
// transmission, net_test::CeilPs (sim/network_test_util.h), never the simulator's TransmitTime.
#include "algorithms/ps/ps_driver.h"

#include <gtest/gtest.h>

#include <vector>

#include "algorithms/decentralized/test_support.h"
#include "models/compute_time.h"
#include "sim/network_test_util.h"
#include "sim/topology_star.h"

namespace commsim {
namespace {

using net_test::CeilPs;  // the reference transmit time

using testing::QuadraticObjective;

using net_test::Seconds;

// Sends uplinks of `up_bits` and downlinks of `down_bits` payload; its model never moves. Counts
// the calls so a server that answers before every uplink is in is caught in the act.
class FixedSizeRule final : public PsRule {
 public:
  FixedSizeRule(int64_t up_bits, int64_t down_bits) : up_bits_(up_bits), down_bits_(down_bits) {}
  void Init(int workers, const Eigen::Ref<const Eigen::VectorXd>& x0, const Objective&) override {
    workers_ = workers;
    x_ = x0;
  }
  const Eigen::VectorXd& WorkerPoint(int) const override { return x_; }
  Message WorkerEncode(int, Eigen::Ref<Eigen::VectorXd>, double step, Rng&) override {
    ++encodes_;
    steps_.push_back(step);
    return Message{.payload_bits = up_bits_, .words = {}};
  }
  void ServerReceive(int w, const Message& uplink) override {
    // Worker order, one uplink each, and the message that worker sent.
    EXPECT_EQ(w, receives_ % workers_);
    EXPECT_EQ(uplink.payload_bits, up_bits_);
    ++receives_;
  }
  Message ServerRound(double, Rng&) override {
    ++server_rounds_;
    // Every worker of this round has encoded its uplink, and the server has received them all,
    // before it answers.
    EXPECT_EQ(encodes_, server_rounds_ * workers_) << "server round " << server_rounds_;
    EXPECT_EQ(receives_, server_rounds_ * workers_) << "server round " << server_rounds_;
    return Message{.payload_bits = down_bits_, .words = {}};
  }
  void WorkerReceive(int, const Message& downlink, double) override {
    EXPECT_EQ(downlink.payload_bits, down_bits_);
    ++applies_;
  }
  const Eigen::VectorXd& Model() const override { return x_; }

  int server_rounds() const { return server_rounds_; }
  const std::vector<double>& steps() const { return steps_; }  // per WorkerEncode call
  int applies() const { return applies_; }

 private:
  int64_t up_bits_, down_bits_;
  int workers_ = 0;
  Eigen::VectorXd x_;
  int encodes_ = 0, receives_ = 0, server_rounds_ = 0, applies_ = 0;
  std::vector<double> steps_;
};

// The star of every test: n workers through one switch; worker links may differ.
struct StarLinks {
  std::vector<int64_t> worker_bps;
  int64_t worker_latency_ps = 0;
  int64_t server_bps = 0;
  int64_t server_latency_ps = 0;

  Topology Build() const {
    StarConfig c;
    for (int64_t b : worker_bps) c.workers.worker_bandwidths_bps.push_back(static_cast<double>(b));
    c.workers.worker_latency_s = Seconds(worker_latency_ps);
    c.server_bandwidth_bps = static_cast<double>(server_bps);
    c.server_latency_s = Seconds(server_latency_ps);
    return StarBuilder(c).Build(static_cast<int>(worker_bps.size()));
  }
};

struct PsPlayed {
  std::vector<IterationRecord> records;
  RunSummary summary;
  int server_rounds = 0;
  int applies = 0;
  std::vector<double> steps;  // the step of every WorkerEncode call, in call order
};

// Runs `iterations` rounds of the fixed-size rule with a fixed compute time of `compute_s` per
// worker times `slowdown` (empty: all 1).
PsPlayed Play(const StarLinks& star, int64_t up_bits, int64_t down_bits, int64_t header_bits,
              bool multicast, double compute_s, std::vector<double> slowdown = {},
              int64_t iterations = 2, StepConfig step = {}) {
  const int n = static_cast<int>(star.worker_bps.size());
  const QuadraticObjective objective(n, 3, 1);
  const Topology topology = star.Build();
  ComputeTimeConfig cc;
  cc.seconds = compute_s;
  cc.slowdown = std::move(slowdown);
  const ComputeTimeModel compute(cc, objective.flops_per_sample(), n, 1);
  RunSetup setup;
  setup.label = "fake";
  setup.objective = &objective;
  setup.topology = &topology;
  setup.compute = &compute;
  setup.header_bits = header_bits;
  setup.multicast_downlink = multicast;
  setup.iterations = iterations;
  setup.step = step;
  FixedSizeRule rule(up_bits, down_bits);
  PsPlayed p;
  RunParameterServer(setup, rule, &p.records, &p.summary);
  p.server_rounds = rule.server_rounds();
  p.applies = rule.applies();
  p.steps = rule.steps();
  return p;
}

// Every recorded iteration took exactly `iter_ps`, of which `compute_ps` computing.
void ExpectEveryIteration(const PsPlayed& p, int64_t iter_ps, int64_t compute_ps) {
  ASSERT_GE(p.records.size(), 2u);
  for (size_t k = 1; k < p.records.size(); ++k) {
    EXPECT_EQ(p.records[k].iter_time_s, Seconds(iter_ps)) << "iteration " << k;
    EXPECT_EQ(p.records[k].compute_time_s, Seconds(compute_ps)) << "iteration " << k;
    EXPECT_EQ(p.records[k].sim_time_s, Seconds(iter_ps * static_cast<int64_t>(k)));
  }
}

// 3 workers at 3 Gbit/s (10 us), the server's link at 7 Mbit/s (3 us): neither divides 1e12 ps.
const StarLinks kEqualStar{
    {3'000'000'000, 3'000'000'000, 3'000'000'000}, 10'000'000, 7'000'000, 3'000'000};

TEST(PsDriverTest, UnicastRoundIsComputeIncastAndSerialisedCopiesWithHeaders) {
  const int64_t up = 1000, down = 500, header = 96, compute_ps = 1'000'000'000;  // 1 ms
  const PsPlayed p = Play(kEqualStar, up, down, header, /*multicast=*/false, 1e-3);
  const int64_t n = 3, wl = kEqualStar.worker_latency_ps, sl = kEqualStar.server_latency_ps;
  // Uplinks (1096 bits) leave together at 1 ms, reach the switch together, and queue on the
  // switch -> server link: the last is in after 3 transmissions there.
  const int64_t uplinks_in = compute_ps + CeilPs(up + header, 3'000'000'000) + wl +
                             n * CeilPs(up + header, 7'000'000) + sl;
  // 3 unicast copies of 596 bits queue on the server -> switch link; the last then crosses its
  // worker's link.
  const int64_t end = uplinks_in + n * CeilPs(down + header, 7'000'000) + sl +
                      CeilPs(down + header, 3'000'000'000) + wl;
  ExpectEveryIteration(p, end, compute_ps);
  for (size_t k = 1; k < p.records.size(); ++k) {
    EXPECT_EQ(p.records[k].bits_up, n * (up + header));
    EXPECT_EQ(p.records[k].bits_down, n * (down + header));  // one count per copy sent
    // No protocol: the wire carries each message's bits, rounded up to whole bytes (596 bits
    // are 75 bytes).
    EXPECT_EQ(p.records[k].wire_bytes, n * ((up + header) / 8 + (down + header + 7) / 8));
    EXPECT_EQ(p.records[k].comm_time_s, Seconds(end) - Seconds(compute_ps));
  }
  EXPECT_EQ(p.summary.bits_up, 2 * n * (up + header));
  EXPECT_EQ(p.summary.total_bits, 2 * n * (up + header + down + header));
  EXPECT_EQ(p.server_rounds, 2);
  EXPECT_EQ(p.applies, 2 * 3);
}

TEST(PsDriverTest, MulticastDownlinkCrossesTheServerLinkOnce) {
  const int64_t up = 1000, down = 500, header = 96, compute_ps = 1'000'000'000;
  const PsPlayed p = Play(kEqualStar, up, down, header, /*multicast=*/true, 1e-3);
  const int64_t n = 3, wl = kEqualStar.worker_latency_ps, sl = kEqualStar.server_latency_ps;
  const int64_t uplinks_in = compute_ps + CeilPs(up + header, 3'000'000'000) + wl +
                             n * CeilPs(up + header, 7'000'000) + sl;
  const int64_t end = uplinks_in + CeilPs(down + header, 7'000'000) + sl +
                      CeilPs(down + header, 3'000'000'000) + wl;
  ExpectEveryIteration(p, end, compute_ps);
  EXPECT_EQ(p.records.back().bits_up, n * (up + header));
  EXPECT_EQ(p.records.back().bits_down, down + header);  // one copy leaves the server
  EXPECT_EQ(p.records.back().wire_bytes, n * (up + header) / 8 + (down + header + 7) / 8);
}

TEST(PsDriverTest, ZeroPayloadRoundStillPaysTheHeaderOnEveryMessage) {
  // With empty payloads only the headers travel: 4 transmissions of 64 bits per uplink path and
  // per downlink path.
  const int64_t header = 64;
  const PsPlayed p = Play(kEqualStar, 0, 0, header, /*multicast=*/false, 0.0);
  const int64_t n = 3, wl = kEqualStar.worker_latency_ps, sl = kEqualStar.server_latency_ps;
  const int64_t end = CeilPs(header, 3'000'000'000) + wl + n * CeilPs(header, 7'000'000) + sl +
                      n * CeilPs(header, 7'000'000) + sl + CeilPs(header, 3'000'000'000) + wl;
  ExpectEveryIteration(p, end, 0);
  EXPECT_EQ(p.records.back().bits_up, n * header);
  EXPECT_EQ(p.records.back().bits_down, n * header);
}

TEST(PsDriverTest, StragglerDelaysTheServerUntilItsUplinkIsIn) {
  // Worker 2 computes 3 ms, the others 1 ms: the fast uplinks are through the server link long
  // before the straggler's arrives (2 x 156.6 us < 2 ms), so the server waits for it alone.
  const int64_t up = 1000, down = 500, header = 96;
  const PsPlayed p = Play(kEqualStar, up, down, header, /*multicast=*/false, 1e-3, {1, 1, 3});
  const int64_t n = 3, wl = kEqualStar.worker_latency_ps, sl = kEqualStar.server_latency_ps;
  const int64_t slowest_ps = 3'000'000'000;
  const int64_t uplinks_in =
      slowest_ps + CeilPs(up + header, 3'000'000'000) + wl + CeilPs(up + header, 7'000'000) + sl;
  const int64_t end = uplinks_in + n * CeilPs(down + header, 7'000'000) + sl +
                      CeilPs(down + header, 3'000'000'000) + wl;
  ExpectEveryIteration(p, end, slowest_ps);
  EXPECT_EQ(p.server_rounds, 2);  // one per round: not one per n - 1 uplinks
  EXPECT_EQ(p.applies, 2 * 3);
}

TEST(PsDriverTest, RoundComputeTimeIsTheSlowestWorkersWhereverItIs) {
  // The straggler first or in the middle: the recorded compute time is still its 3 ms, not the
  // compute time of the worker that happens to be handled last.
  for (const std::vector<double>& slowdown : {std::vector<double>{3, 1, 1}, {1, 3, 1}}) {
    const PsPlayed p = Play(kEqualStar, 1000, 500, 96, /*multicast=*/false, 1e-3, slowdown);
    for (size_t k = 1; k < p.records.size(); ++k) {
      EXPECT_EQ(p.records[k].compute_time_s, 3e-3) << "straggler at " << slowdown[0];
    }
  }
}

TEST(PsDriverTest, RoundKUsesTheStepOfIterationKMinusOne) {
  // inv_time with T = 1: gamma_t = 0.8 / (1 + t), so rounds 1, 2, 3 use 0.8, 0.4, 0.8/3.
  StepConfig step;
  step.size = 0.8;
  step.schedule = "inv_time";
  step.decay_iterations = 1;
  const PsPlayed p = Play(kEqualStar, 10, 10, 0, /*multicast=*/false, 0.0, {}, 3, step);
  ASSERT_EQ(p.steps.size(), 9u);  // 3 rounds x 3 workers
  for (size_t i = 0; i < p.steps.size(); ++i) {
    const double gamma = 0.8 / (1.0 + static_cast<double>(i / 3));
    EXPECT_DOUBLE_EQ(p.steps[i], gamma) << "encode " << i;
  }
}

TEST(PsDriverTest, OneSlowWorkerLinkSetsBothDirections) {
  // Worker 1's link runs at 999,999 bit/s; the switch -> server link at 1 Gbit/s. Its uplink
  // (2096 bits, 2.096 ms) arrives after the two fast ones have crossed the server link, and its
  // downlink copy (the second one sent) is the last to arrive.
  const StarLinks star{
      {1'000'000'000, 999'999, 1'000'000'000}, 5'000'000, 1'000'000'000, 2'000'000};
  const int64_t up = 2000, down = 800, header = 96;
  const int64_t n = 3, wl = star.worker_latency_ps, sl = star.server_latency_ps;
  const int64_t uplinks_in =
      CeilPs(up + header, 999'999) + wl + CeilPs(up + header, 1'000'000'000) + sl;
  {
    const PsPlayed p = Play(star, up, down, header, /*multicast=*/false, 0.0);
    // Copies go out in worker order: worker 1's is the second on the server link.
    const int64_t end = uplinks_in + 2 * CeilPs(down + header, 1'000'000'000) + sl +
                        CeilPs(down + header, 999'999) + wl;
    ExpectEveryIteration(p, end, 0);
  }
  {
    const PsPlayed p = Play(star, up, down, header, /*multicast=*/true, 0.0);
    const int64_t end = uplinks_in + CeilPs(down + header, 1'000'000'000) + sl +
                        CeilPs(down + header, 999'999) + wl;
    ExpectEveryIteration(p, end, 0);
    EXPECT_EQ(p.records.back().bits_up, n * (up + header));
  }
}

}  // namespace
}  // namespace commsim
