#include "sim/network.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/rng.h"
#include "sim/network_test_util.h"
#include "sim/topology_graph.h"
#include "sim/topology_regular.h"
#include "sim/topology_star.h"

namespace commsim {
namespace {

using net_test::CeilPs;
using net_test::Line;
using net_test::Ps;
using net_test::Sec;
using net_test::Star;
using net_test::TrainPs;

TEST(NetworkTest, OneMessageOverOneLinkIsLatencyPlusTransmitExactly) {
  // Bandwidths that do not divide 1e12 ps (3 Gbit/s, 7 Mbit/s, 999,999 bit/s, 7.5 Mbit/s) round
  // every packet up on its own; mtu 7000 leaves a short last packet (1e6 = 142 x 7000 + 6000).
  for (int64_t bps : {int64_t{1'000'000'000}, int64_t{3'000'000'000}, int64_t{7'000'000},
                      int64_t{999'999}, int64_t{7'500'000}}) {
    for (int64_t mtu : {int64_t{0}, int64_t{8000}, int64_t{7000}}) {
      const Topology t = Line(2, static_cast<double>(bps), 25e-6);
      Engine engine;
      Network net(engine, t, NetworkOptions{mtu});
      SimTime arrived;
      net.Send(0, 1, 1'000'000, [&] { arrived = engine.Now(); });
      engine.Run();
      EXPECT_EQ(arrived, Ps(25'000'000 + TrainPs(1'000'000, mtu, bps))) << bps << " " << mtu;
      EXPECT_EQ(net.link_stats(0).bits, 1'000'000);
      EXPECT_EQ(net.link_stats(0).busy_time, Ps(TrainPs(1'000'000, mtu, bps)));
      EXPECT_EQ(net.link_stats(0).messages, 1);
      EXPECT_EQ(net.link_stats(1).bits, 0);
      EXPECT_EQ(net.bits_sent_total(), 1'000'000);
      EXPECT_EQ(engine.events_processed(), 1u);  // the train is booked at once
    }
  }
  // Written out: 1e6 bits at 3 Gbit/s = 333,333,333.3 ps -> 333,333,334; in 8000-bit packets
  // 125 x ceil(2,666,666.67) = 125 x 2,666,667 = 333,333,375 ps.
  EXPECT_EQ(TrainPs(1'000'000, 0, 3'000'000'000), 333'333'334);
  EXPECT_EQ(TrainPs(1'000'000, 8000, 3'000'000'000), 333'333'375);
}

TEST(NetworkTest, TwoHopsPipelinePacketsButStoreAndForwardWholeMessages) {
  const double bps = 1e9, lat = 5e-6;
  const int64_t m = 1'000'000;
  const Topology t = Line(3, bps, lat);
  for (int64_t mtu : {int64_t{0}, int64_t{10'000}, int64_t{12'000}}) {
    Engine engine;
    Network net(engine, t, NetworkOptions{mtu});
    SimTime arrived;
    net.Send(0, 2, m, [&] { arrived = engine.Now(); });
    engine.Run();
    // Whole: 2 M/B + 2 lat. Packets: M/B + MTU/B + 2 lat, also when the last packet is short
    // (1e6 = 83 * 12000 + 4000): it queues behind the full one before it.
    const int64_t unit = mtu == 0 ? m : mtu;
    EXPECT_EQ(arrived, Sec(m / bps + unit / bps + 2 * lat)) << mtu;
    EXPECT_EQ(net.link_stats(2).bits, m);
    EXPECT_EQ(net.link_stats(2).packets, mtu == 0 ? 1 : (m + mtu - 1) / mtu);
  }
}

// n workers send M bits to the server at t = 0 through a switch whose server link has bandwidth B.
TEST(NetworkTest, IncastOnStarClosedForm) {
  const int n = 4;
  const int64_t m = 1'200'000, mtu = 12'000;
  const double b = 1e9, lw = 10e-6, ls = 3e-6;
  const Topology t = Star(n, b, lw, b, ls);
  for (int64_t unit : {int64_t{0}, mtu}) {
    Engine engine;
    Network net(engine, t, NetworkOptions{unit});
    std::vector<SimTime> arrivals;
    for (int w = 0; w < n; ++w) net.Send(w, n, m, [&] { arrivals.push_back(engine.Now()); });
    engine.Run();
    ASSERT_EQ(arrivals.size(), static_cast<size_t>(n));
    // Store-and-forward pays one worker-link transmit time of the whole message; packets pay one
    // packet's.
    const double first_unit_s = (unit == 0 ? m : unit) / b;
    EXPECT_EQ(arrivals.back(), Sec(n * m / b + lw + ls + first_unit_s)) << unit;
    const LinkStats& server_in = net.link_stats(2 * n + 1);
    EXPECT_EQ(server_in.bits, n * m);
    EXPECT_EQ(server_in.messages, n);
    EXPECT_EQ(server_in.busy_time, Sec(n * m / b));
  }
}

// Incast with packets when the server link is the bottleneck (7 Mbit/s behind 3 Gbit/s worker
// links): from the first packet's arrival at the switch the server link never idles, so the last
// packet arrives after every packet of every worker has crossed it, each rounded up on its own.
TEST(NetworkTest, IncastAtBandwidthsThatDoNotDivideOneSecond) {
  const int n = 3;
  const int64_t m = 100'000, mtu = 12'000, bw = 3'000'000'000, bs = 7'000'000;
  const Topology t = Star(n, static_cast<double>(bw), 4e-6, static_cast<double>(bs), 3e-6);
  for (int64_t unit : {int64_t{0}, mtu}) {
    Engine engine;
    Network net(engine, t, NetworkOptions{unit});
    SimTime last;
    for (int w = 0; w < n; ++w) net.Send(w, n, m, [&] { last = std::max(last, engine.Now()); });
    engine.Run();
    const int64_t first_unit = unit == 0 ? CeilPs(m, bw) : CeilPs(unit, bw);
    EXPECT_EQ(last, Ps(first_unit + 4'000'000 + n * TrainPs(m, unit, bs) + 3'000'000)) << unit;
    EXPECT_EQ(net.link_stats(2 * n + 1).busy_time, Ps(n * TrainPs(m, unit, bs)));
  }
}

// The server sends M bits to each of n workers: unicast serialises n copies on the server link,
// multicast sends one copy to the switch, which replicates it.
TEST(NetworkTest, DownlinkUnicastAndMulticastClosedForms) {
  const int n = 5;
  const int64_t m = 2'000'000, mtu = 10'000;
  const double b = 1e9, lw = 4e-6, ls = 6e-6;
  const Topology t = Star(n, b, lw, b, ls);
  std::vector<int> workers;
  for (int w = 0; w < n; ++w) workers.push_back(w);
  for (int64_t unit : {int64_t{0}, mtu}) {
    const double last_unit_s = (unit == 0 ? m : unit) / b;
    {
      Engine engine;
      Network net(engine, t, NetworkOptions{unit});
      SimTime last;
      for (int w : workers) net.Send(n, w, m, [&] { last = std::max(last, engine.Now()); });
      engine.Run();
      EXPECT_EQ(last, Sec(n * m / b + ls + lw + last_unit_s)) << unit;
      EXPECT_EQ(net.link_stats(2 * n).bits, n * m);
    }
    {
      Engine engine;
      Network net(engine, t, NetworkOptions{unit});
      std::map<int, SimTime> got;
      net.Multicast(n, workers, m, [&](int dst) { got[dst] = engine.Now(); });
      engine.Run();
      ASSERT_EQ(got.size(), static_cast<size_t>(n));
      for (int w : workers) EXPECT_EQ(got[w], Sec(m / b + ls + lw + last_unit_s)) << unit;
      EXPECT_EQ(net.link_stats(2 * n).bits, m);  // one copy on the server link
      for (int w : workers) EXPECT_EQ(net.link_stats(2 * w + 1).bits, m);
      EXPECT_EQ(net.bits_sent_total(), m);
      EXPECT_EQ(net.link_bits_total(), (n + 1) * m);
      EXPECT_EQ(net.messages_in_flight(), 0);
    }
  }
}

// Whole messages reach the switch at the same instant; the shared link serves them in send order.
TEST(NetworkTest, EqualTimeArrivalsAreServedInSendOrder) {
  const int n = 6;
  const int64_t m = 500'000;
  const double b = 1e9, lat = 1e-6;
  const Topology t = Star(n, b, lat, b, lat);
  Engine engine;
  Network net(engine, t);
  std::vector<std::pair<int, SimTime>> got;
  for (int w : {3, 1, 5, 0, 4, 2}) {
    net.Send(w, n, m, [&, w] { got.push_back({w, engine.Now()}); });
  }
  engine.Run();
  const std::vector<int> order = {3, 1, 5, 0, 4, 2};
  ASSERT_EQ(got.size(), order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    EXPECT_EQ(got[i].first, order[i]);
    EXPECT_EQ(got[i].second, Sec(m / b + lat + (i + 1) * m / b + lat));
  }
}

// On a ring, a multicast tree shares route prefixes: each link of the union carries one copy.
TEST(NetworkTest, MulticastOnRingSendsOneCopyPerTreeLink) {
  const double b = 1e8, lat = 2e-6;
  const int64_t m = 100'000;
  RingConfig c;
  c.links.bandwidth_bps = b;
  c.links.latency_s = lat;
  const Topology t = RingBuilder(c).Build(6);
  Engine engine;
  Network net(engine, t);
  std::map<int, SimTime> got;
  const int dsts[] = {2, 3, 4};
  net.Multicast(0, dsts, m, [&](int dst) { got[dst] = engine.Now(); });
  engine.Run();
  const SimTime hop = Sec(m / b + lat);
  EXPECT_EQ(got[2], hop * 2);
  EXPECT_EQ(got[3], hop * 3);  // 0-1-2-3 (tie broken towards the smaller predecessor)
  EXPECT_EQ(got[4], hop * 2);  // 0-5-4
  for (int link = 0; link < 12; ++link) {
    const bool in_tree = link == 0 || link == 2 || link == 4 || link == 11 || link == 9;
    EXPECT_EQ(net.link_stats(link).bits, in_tree ? m : 0) << link;
  }
  EXPECT_EQ(net.bits_sent_total(), m);
}

TEST(NetworkTest, ZeroBitsPayLatencyAndSelfSendsDeliverNow) {
  const Topology t = Line(3, 1e9, 7e-6);
  Engine engine;
  Network net(engine, t, NetworkOptions{1000});
  std::vector<std::pair<int, SimTime>> got;
  net.Send(0, 2, 0, [&] { got.push_back({0, engine.Now()}); });
  net.Send(1, 1, 5000, [&] { got.push_back({1, engine.Now()}); });
  const int dsts[] = {0, 2};
  net.Multicast(0, dsts, 0, [&](int dst) { got.push_back({10 + dst, engine.Now()}); });
  engine.Run();
  EXPECT_EQ(got,
            (std::vector<std::pair<int, SimTime>>{
                {1, SimTime::Zero()}, {10, SimTime::Zero()}, {0, Sec(14e-6)}, {12, Sec(14e-6)}}));
  EXPECT_EQ(net.bits_sent_total(), 0);
}

TEST(NetworkTest, DeliveryHandlersMaySendAgain) {
  const Topology t = Line(2, 1e6, 1e-3);
  Engine engine;
  Network net(engine, t);
  EXPECT_EQ(net_test::PingPongFromDeliveries(engine, net, 6), 6);  // 5 messages, one after another
  EXPECT_EQ(engine.Now(), Sec(5 * (1e-3 + 1e-3)));
  EXPECT_EQ(net.link_stats(0).messages + net.link_stats(1).messages, 5);
}

// Random traffic with packets on a random graph: no link is ever booked beyond its capacity, and
// the same calls give the same trace.
TEST(NetworkTest, RandomTrafficNeverExceedsCapacityAndIsDeterministic) {
  ErdosRenyiConfig c;
  c.p = 0.25;
  c.seed = 3;
  const Topology t = ErdosRenyiBuilder(c).Build(12);
  auto run = [&](std::vector<HopRecord>& trace) {
    Engine engine;
    Network net(engine, t, NetworkOptions{1500});
    net.set_trace(&trace);
    net_test::RunRandomTraffic(engine, net, t);
    for (size_t l = 0; l < t.links().size(); ++l) {
      const LinkStats& st = net.link_stats(static_cast<int>(l));
      EXPECT_LE(st.busy_time, engine.Now());
      EXPECT_GE(st.busy_time.ps(),
                CeilPs(st.bits, static_cast<int64_t>(t.links()[l].bandwidth_bps)));
    }
    EXPECT_EQ(net.messages_in_flight(), 0);
  };
  std::vector<HopRecord> a, b;
  run(a);
  run(b);
  ASSERT_GT(a.size(), 300u);
  EXPECT_EQ(a, b);
  std::stable_sort(a.begin(), a.end(), [](const HopRecord& x, const HopRecord& y) {
    return x.link < y.link || (x.link == y.link && x.start < y.start);
  });
  for (size_t i = 1; i < a.size(); ++i) {
    if (a[i].link == a[i - 1].link) {
      EXPECT_GE(a[i].start, a[i - 1].end);  // one unit at a time
    }
  }
}

TEST(NetworkTest, MessagesOfMorePacketsThanTheLimitAreRefusedAtSend) {
  const Topology t = Line(2, 1e9, 0.0);
  Engine engine;
  Network net(engine, t, NetworkOptions{.mtu_bits = 1, .max_packets_per_message = 10});
  int delivered = 0;
  net.Send(0, 1, 10, [&delivered] { ++delivered; });  // 10 packets of 1 bit: at the limit
  try {
    net.Send(0, 1, 11, [&delivered] { ++delivered; });
    FAIL() << "no SimulationLimitError";
  } catch (const SimulationLimitError& e) {
    EXPECT_EQ(std::string(e.what()),
              "a message of 11 bits at network mtu 1 bits is 11 packets, more than the limit of "
              "10 packets per message; raise /network/mtu, or /limits/max_packets_per_message, or "
              "use /network/model \"flow\"");
  }
  engine.Run();
  EXPECT_EQ(delivered, 1);
  EXPECT_EQ(net.messages_in_flight(), 0);
  // A message near 2^63 bits does not overflow the packet count: it is refused.
  EXPECT_THROW(net.Send(0, 1, std::numeric_limits<int64_t>::max(), [] {}), SimulationLimitError);
}

TEST(NetworkTest, TransmitTimesBeyondTheTimeLimitThrow) {
  const Topology t = Line(2, 10.0, 0.0);  // 10 bit/s
  Engine engine;
  Network net(engine, t);
  net.Send(0, 1, 92233720, [] {});                                      // 9223372 s: fits
  EXPECT_THROW(net.Send(0, 1, 92233721, [] {}), SimulationLimitError);  // 9223372.1 s does not
}

}  // namespace
}  // namespace commsim
