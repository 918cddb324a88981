// Hold-model benchmark of the event engine (plain timers, never run as a test).
//
// With N events pending, each step pops the earliest event and runs it; the handler schedules one
// new event at Now() + U[0, 2 us). The queue size stays N. Measured for the Engine and, in the same
// run, for a baseline std::priority_queue of (time, seq, std::function<void()>), whose handlers do
// the same work. Prints events/s of both and the ratio engine / baseline (best of 5 repetitions).
//
// Usage: engine_bench [steps_per_size]   (default 3,000,000)
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <queue>
#include <vector>

#include "base/rng.h"
#include "sim/engine.h"

namespace commsim {
namespace {

constexpr int64_t kMaxGapPs = 2'000'000;
constexpr int kRepetitions = 5;

class EngineHold {
 public:
  EngineHold(size_t pending, uint64_t steps) : rng_(DeriveSeed(1, 0, "bench")), steps_(steps) {
    for (size_t i = 0; i < pending; ++i) {
      engine_.ScheduleAt(SimTime::FromPs(static_cast<int64_t>(rng_.UniformInt(kMaxGapPs))),
                         [this] { Fire(); });
    }
  }
  void Run() { engine_.Run(); }
  uint64_t done() const { return done_; }

 private:
  void Fire() {
    if (++done_ == steps_) engine_.Stop();
    engine_.Schedule(SimTime::FromPs(static_cast<int64_t>(rng_.UniformInt(kMaxGapPs))),
                     [this] { Fire(); });
  }
  Engine engine_;
  Rng rng_;
  uint64_t steps_;
  uint64_t done_ = 0;
};

class BaselineHold {
 public:
  BaselineHold(size_t pending, uint64_t steps) : rng_(DeriveSeed(1, 0, "bench")), steps_(steps) {
    for (size_t i = 0; i < pending; ++i) {
      queue_.push({static_cast<int64_t>(rng_.UniformInt(kMaxGapPs)), seq_++, [this] { Fire(); }});
    }
  }
  void Run() {
    while (!stop_ && !queue_.empty()) {
      Entry e = std::move(const_cast<Entry&>(queue_.top()));
      queue_.pop();
      now_ps_ = e.time_ps;
      e.fn();
    }
  }
  uint64_t done() const { return done_; }

 private:
  struct Entry {
    int64_t time_ps;
    uint64_t seq;
    std::function<void()> fn;
  };
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.time_ps > b.time_ps || (a.time_ps == b.time_ps && a.seq > b.seq);
    }
  };
  void Fire() {
    if (++done_ == steps_) stop_ = true;
    queue_.push(
        {now_ps_ + static_cast<int64_t>(rng_.UniformInt(kMaxGapPs)), seq_++, [this] { Fire(); }});
  }
  std::priority_queue<Entry, std::vector<Entry>, Later> queue_;
  Rng rng_;
  uint64_t steps_;
  uint64_t done_ = 0;
  uint64_t seq_ = 0;
  int64_t now_ps_ = 0;
  bool stop_ = false;
};

template <class Hold>
double EventsPerSecond(size_t pending, uint64_t steps) {
  Hold hold(pending, steps);  // prefill is not timed
  const auto t0 = std::chrono::steady_clock::now();
  hold.Run();
  const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
  if (hold.done() != steps) std::abort();
  return static_cast<double>(steps) / dt.count();
}

}  // namespace
}  // namespace commsim

int main(int argc, char** argv) {
  const uint64_t steps = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 3'000'000;
  fmt::print("hold model, {} steps per size, best of 5\n", steps);
  fmt::print("{:>10} {:>16} {:>16} {:>8}\n", "pending", "engine ev/s", "baseline ev/s", "ratio");
  for (size_t pending : {size_t{100}, size_t{10'000}, size_t{1'000'000}}) {
    // Repetitions alternate engine and baseline so that load from other processes hits both.
    double engine = 0, baseline = 0;
    for (int rep = 0; rep < commsim::kRepetitions; ++rep) {
      engine = std::max(engine, commsim::EventsPerSecond<commsim::EngineHold>(pending, steps));
      baseline =
          std::max(baseline, commsim::EventsPerSecond<commsim::BaselineHold>(pending, steps));
    }
    fmt::print("{:>10} {:>16.3e} {:>16.3e} {:>7.2f}x\n", pending, engine, baseline,
               engine / baseline);
  }
  return 0;
}
