// Engine: a discrete-event scheduler owned by its user (no statics, no singleton).
//
// Contract:
//   - Time is SimTime (integer picoseconds) and never goes backwards; Now() is the time of the
//     event being run (or where the last Run/RunUntil stopped).
//   - Events at equal times run in the order they were scheduled: the queue key is (time, seq)
//     with seq a per-engine counter. Same schedule calls -> same execution order, always.
//   - Cancel is lazy: the handler is destroyed at once, its queue record is skipped when popped.
//     Cancelling an event that already ran, was cancelled, or is running is a no-op.
//   - Handlers may schedule and cancel events, and call Stop(); they must not call Run/RunUntil.
//   - Scheduling does not allocate on the hot path: queue records are 16 bytes in a cache-aligned
//     4-ary heap and handlers are constructed in place in a pool of fixed-size slots (stable
//     addresses, recycled through a free list).
//   - Limits (checked): 2^24 (16.7 M) events pending at once, 2^40 events scheduled per engine
//     (internal invariants), and max_events run per engine (set_max_events; default
//     SimLimits::kDefaultMaxEvents): running one more throws SimulationLimitError.
//   - A heartbeat (set_heartbeat) runs between events after every `every` events: progress
//     reports of runs whose single iteration has millions of events. It must not schedule.
//   - Times are checked SimTime sums: scheduling past the int64-picosecond range throws
//     SimulationLimitError (time.h). After any exception out of a handler the engine may only
//     be destroyed.
// The engine knows nothing about networks or learning.
#ifndef COMMSIM_SIM_ENGINE_H_
#define COMMSIM_SIM_ENGINE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "base/check.h"
#include "base/limits.h"
#include "sim/handler.h"
#include "sim/time.h"

namespace commsim {

// Identifies one scheduled event for Cancel. Default-constructed ids cancel nothing.
struct EventId {
  uint32_t slot = 0;
  uint64_t seq = 0;  // 0 = invalid; real events have seq >= 1
};

class Engine {
 public:
  Engine();
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Runs `f` (any void() callable, or a Handler) at Now() + delay. REQUIRES: delay >= 0.
  template <class F>
  EventId Schedule(SimTime delay, F&& f) {
    COMMSIM_CHECK(delay >= SimTime::Zero(), "negative delay {} ps", delay.ps());
    return ScheduleAt(now_ + delay, std::forward<F>(f));
  }
  // Runs `f` at absolute time t. REQUIRES: t >= Now().
  template <class F>
  EventId ScheduleAt(SimTime t, F&& f) {
    const EventId id = Enqueue(t);
    SlotAt(id.slot).handler.Emplace(std::forward<F>(f));
    COMMSIM_CHECK(static_cast<bool>(SlotAt(id.slot).handler), "scheduling an empty handler");
    return id;
  }
  void Cancel(EventId id);

  // Runs events until none are pending or Stop() is called.
  void Run();
  // Runs every event with time <= t (unless stopped), then advances Now() to t if it is later.
  void RunUntil(SimTime t);
  // Makes the current Run/RunUntil return after the running handler finishes.
  void Stop() { stop_requested_ = true; }

  SimTime Now() const { return now_; }
  uint64_t events_processed() const { return events_processed_; }
  // REQUIRES: max_events >= 1.
  void set_max_events(uint64_t max_events);
  uint64_t max_events() const { return max_events_; }
  // Calls `beat` before the event after every `every` events run (0: never).
  void set_heartbeat(uint64_t every, std::function<void()> beat);
  // Live (scheduled, not yet run or cancelled) events.
  size_t pending() const { return live_; }

 private:
  // Queue record: key = seq << kSlotBits | slot, so comparing keys compares seqs.
  struct Record {
    int64_t time_ps;
    uint64_t key;
  };
  static constexpr int kSlotBits = 24;
  static constexpr uint64_t kSlotMask = (uint64_t{1} << kSlotBits) - 1;
  static constexpr uint64_t kMaxSeq = (uint64_t{1} << (64 - kSlotBits)) - 1;
  // Heap position of the root: the four children of logical node i sit at physical 4i+4..4i+7,
  // one 64-byte line.
  static constexpr size_t kRootOffset = 3;
  // One cache line: the seq check and the handler call touch the same line.
  struct alignas(64) Slot {
    Handler handler;
    uint64_t seq = 0;  // seq of the event owning this slot; 0 when free or running
  };
  static_assert(sizeof(Slot) == 64);
  static constexpr int kChunkBits = 10;
  static constexpr uint32_t kChunkSize = 1u << kChunkBits;

  static bool Before(const Record& a, const Record& b) {
    // One 128-bit comparison (branch-free); times are never negative.
    __extension__ typedef unsigned __int128 U128;
    return ((U128(static_cast<uint64_t>(a.time_ps)) << 64) | a.key) <
           ((U128(static_cast<uint64_t>(b.time_ps)) << 64) | b.key);
  }
  struct AlignedFree {
    void operator()(Record* p) const;
  };
  Slot& SlotAt(uint32_t i) { return chunks_[i >> kChunkBits][i & (kChunkSize - 1)]; }
  // Allocates a slot, queues its record at time t and returns the new id.
  EventId Enqueue(SimTime t);
  uint32_t AllocSlot();
  void GrowHeap();
  [[noreturn]] void ThrowEventLimit() const;
  // Moves the hole at heap index i up past every parent that r goes before, then puts r there.
  static void SiftUp(Record* h, size_t i, const Record& r);
  void Push(const Record& r);
  void PopTop();
  // Pops and runs the next live event if its time is <= limit. Returns false when none is.
  bool Step(int64_t limit_ps);
  // At next_check_ events: the event limit, or the heartbeat.
  void Checkpoint();

  std::unique_ptr<Record[], AlignedFree> heap_storage_;
  Record* heap_ = nullptr;  // heap_storage_ + kRootOffset: logical index 0 is the root
  size_t heap_size_ = 0;
  size_t heap_capacity_ = 0;
  std::vector<std::unique_ptr<Slot[]>> chunks_;
  std::vector<uint32_t> free_slots_;
  uint32_t slots_used_ = 0;
  SimTime now_;
  uint64_t next_seq_ = 1;
  uint64_t events_processed_ = 0;
  uint64_t max_events_;
  uint64_t heartbeat_every_ = 0;
  std::function<void()> heartbeat_;
  uint64_t next_beat_ = UINT64_MAX;
  uint64_t next_check_;  // min(max_events_, next_beat_)
  size_t live_ = 0;
  bool stop_requested_ = false;
  bool running_ = false;
};

}  // namespace commsim

#endif  // COMMSIM_SIM_ENGINE_H_
