#include "sim/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/error_test_util.h"
#include "base/rng.h"

namespace commsim {
namespace {

SimTime Ns(int64_t ns) { return SimTime::FromNs(ns); }

TEST(HandlerTest, SmallCapturesStayInlineLargeOnesAndMoveOnlyWork) {
  int hits = 0;
  Handler small([&hits] { ++hits; });
  EXPECT_TRUE(small.is_inline());
  std::array<char, 200> big{};
  big[7] = 3;
  Handler large([&hits, big] { hits += big[7]; });
  EXPECT_FALSE(large.is_inline());
  auto owned = std::make_unique<int>(10);
  Handler move_only([&hits, p = std::move(owned)] { hits += *p; });
  Handler moved = std::move(move_only);
  EXPECT_FALSE(static_cast<bool>(move_only));
  small();
  large();
  moved();
  EXPECT_EQ(hits, 14);
}

TEST(HandlerTest, DestroysCaptureExactlyOnce) {
  auto counter = std::make_shared<int>(0);
  {
    Handler a([counter] {});
    EXPECT_EQ(counter.use_count(), 2);
    Handler b = std::move(a);
    Handler c;
    c = std::move(b);
    EXPECT_EQ(counter.use_count(), 2);
  }
  EXPECT_EQ(counter.use_count(), 1);
}

TEST(EngineTest, RunsInTimeOrderAndAdvancesNow) {
  Engine engine;
  std::vector<std::pair<int, int64_t>> seen;
  for (int id : {3, 1, 2}) {
    engine.Schedule(Ns(10 * id), [&, id] { seen.push_back({id, engine.Now().ps()}); });
  }
  EXPECT_EQ(engine.pending(), 3u);
  engine.Run();
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0], (std::pair<int, int64_t>{1, 10000}));
  EXPECT_EQ(seen[1], (std::pair<int, int64_t>{2, 20000}));
  EXPECT_EQ(seen[2], (std::pair<int, int64_t>{3, 30000}));
  EXPECT_EQ(engine.Now(), Ns(30));
  EXPECT_EQ(engine.events_processed(), 3u);
  EXPECT_EQ(engine.pending(), 0u);
}

TEST(EngineTest, EqualTimesRunFifoIncludingEventsScheduledByHandlers) {
  Engine engine;
  std::vector<int> order;
  for (int i = 0; i < 100; ++i) {
    engine.ScheduleAt(Ns(5), [&, i] {
      order.push_back(i);
      // Scheduled later, so runs after every event already queued for t = 5 ns.
      if (i == 0) engine.Schedule(SimTime::Zero(), [&] { order.push_back(1000); });
    });
  }
  engine.Run();
  ASSERT_EQ(order.size(), 101u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(order[i], i);
  EXPECT_EQ(order[100], 1000);
}

TEST(EngineTest, CancelIsLazyAndIdempotent) {
  Engine engine;
  std::vector<int> order;
  EventId a = engine.Schedule(Ns(1), [&] { order.push_back(1); });
  EventId b = engine.Schedule(Ns(2), [&] { order.push_back(2); });
  engine.Schedule(Ns(3), [&] { order.push_back(3); });
  engine.Cancel(b);
  engine.Cancel(b);
  EXPECT_EQ(engine.pending(), 2u);
  // b's slot is reused by this event; the stale queue record for b must not run it early.
  engine.Schedule(Ns(4), [&] { order.push_back(4); });
  engine.Run();
  EXPECT_EQ(order, (std::vector<int>{1, 3, 4}));
  engine.Cancel(a);  // already ran: no-op
  engine.Cancel(EventId{});
  EXPECT_EQ(engine.events_processed(), 3u);
}

TEST(EngineTest, HandlerMayCancelAnotherPendingEventButNotItself) {
  Engine engine;
  int runs = 0;
  EventId later;
  EventId self;
  self = engine.Schedule(Ns(1), [&] {
    ++runs;
    engine.Cancel(self);
    engine.Cancel(later);
  });
  later = engine.Schedule(Ns(2), [&] { runs += 100; });
  engine.Run();
  EXPECT_EQ(runs, 1);
}

TEST(EngineTest, RunUntilStopsAtLimitInclusiveThenAdvancesNow) {
  Engine engine;
  std::vector<int> order;
  engine.Schedule(Ns(10), [&] { order.push_back(10); });
  engine.Schedule(Ns(20), [&] { order.push_back(20); });
  engine.RunUntil(Ns(10));
  EXPECT_EQ(order, std::vector<int>{10});
  engine.RunUntil(Ns(15));
  EXPECT_EQ(engine.Now(), Ns(15));
  EXPECT_EQ(engine.pending(), 1u);
  engine.Schedule(Ns(1), [&] { order.push_back(16); });
  engine.Run();
  EXPECT_EQ(order, (std::vector<int>{10, 16, 20}));
}

TEST(EngineTest, StopReturnsAfterCurrentHandler) {
  Engine engine;
  int runs = 0;
  engine.Schedule(Ns(1), [&] {
    ++runs;
    engine.Stop();
  });
  engine.Schedule(Ns(2), [&] { ++runs; });
  engine.Run();
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(engine.Now(), Ns(1));
  engine.Run();
  EXPECT_EQ(runs, 2);
}

// The heap against a trivially correct model: random times with many ties, random cancels,
// handlers that schedule more work. Execution must follow (time, schedule order) exactly.
TEST(EngineTest, MatchesSortedReferenceUnderRandomLoad) {
  Engine engine;
  Rng rng(DeriveSeed(7, 0, "engine_test"));
  struct Expected {
    int64_t time_ps;
    uint64_t order;
    int id;
  };
  std::vector<Expected> expected;
  std::vector<int> ran;
  uint64_t order = 0;
  int next_id = 0;
  std::vector<std::pair<EventId, size_t>> ids;
  auto schedule = [&](int64_t t_ps, auto& self) -> void {
    const int id = next_id++;
    expected.push_back({t_ps, order++, id});
    EventId e = engine.ScheduleAt(SimTime::FromPs(t_ps), [&, id, t_ps] {
      ran.push_back(id);
      if (id % 7 == 0 && next_id < 20000) {
        self(t_ps + static_cast<int64_t>(rng.UniformInt(5)), self);
      }
    });
    ids.push_back({e, expected.size() - 1});
  };
  for (int i = 0; i < 5000; ++i) schedule(static_cast<int64_t>(rng.UniformInt(50)), schedule);
  std::vector<int> cancelled;
  for (int i = 0; i < 500; ++i) {
    const size_t k = rng.UniformInt(ids.size());
    engine.Cancel(ids[k].first);
    cancelled.push_back(expected[ids[k].second].id);
  }
  engine.Run();
  std::sort(cancelled.begin(), cancelled.end());
  cancelled.erase(std::unique(cancelled.begin(), cancelled.end()), cancelled.end());
  std::stable_sort(expected.begin(), expected.end(), [](const Expected& a, const Expected& b) {
    return a.time_ps < b.time_ps || (a.time_ps == b.time_ps && a.order < b.order);
  });
  std::vector<int> want;
  for (const Expected& e : expected) {
    if (!std::binary_search(cancelled.begin(), cancelled.end(), e.id)) want.push_back(e.id);
  }
  EXPECT_EQ(ran, want);
  EXPECT_EQ(engine.pending(), 0u);
}

TEST(EngineTest, RunningMoreThanMaxEventsThrowsAfterExactlyThatMany) {
  Engine engine;
  engine.set_max_events(3);
  int ran = 0;
  for (int i = 0; i < 5; ++i) engine.Schedule(Ns(10 * (i + 1)), [&ran] { ++ran; });
  EXPECT_EQ(test_errors::ErrorOf<SimulationLimitError>([&engine] { engine.Run(); }),
            "the run reached 3 simulated events (limits.max_events) at simulated time 3e-08 s; "
            "raise /limits/max_events if it is meant to be this long, or shorten it (fewer "
            "iterations or workers, a larger network mtu)");
  EXPECT_EQ(ran, 3);
}

// The heartbeat runs between events after every `every` events (at 3, 6, 9 of 10 here, seeing
// the time of the last event run), and alongside it the event limit still holds.
TEST(EngineTest, HeartbeatRunsEveryNEventsAndTheLimitStillHolds) {
  Engine engine;
  std::vector<std::pair<uint64_t, int64_t>> beats;  // (events run, now in ns)
  engine.set_heartbeat(
      3, [&] { beats.emplace_back(engine.events_processed(), engine.Now().ps() / 1000); });
  for (int i = 0; i < 10; ++i) engine.Schedule(Ns(10 * (i + 1)), [] {});
  engine.Run();
  EXPECT_EQ(beats, (std::vector<std::pair<uint64_t, int64_t>>{{3, 30}, {6, 60}, {9, 90}}));
  Engine limited;
  limited.set_heartbeat(2, [&] { beats.emplace_back(limited.events_processed(), 0); });
  limited.set_max_events(5);
  for (int i = 0; i < 8; ++i) limited.Schedule(Ns(i + 1), [] {});
  EXPECT_THROW(limited.Run(), SimulationLimitError);
  EXPECT_EQ(limited.events_processed(), 5u);
  EXPECT_EQ(beats.size(), 5u);  // 3 + beats at 2 and 4
}

TEST(EngineTest, SchedulingPastTheTimeLimitThrowsInsteadOfWrapping) {
  Engine engine;
  engine.ScheduleAt(SimTime::FromPs(std::numeric_limits<int64_t>::max() - 5),
                    [&engine] { engine.Schedule(SimTime::FromPs(6), [] {}); });
  EXPECT_THROW(engine.Run(), SimulationLimitError);
}

}  // namespace
}  // namespace commsim
