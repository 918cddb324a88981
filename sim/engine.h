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
//   - Scheduling does not allocate on the hot path: queue records are 24 bytes in a 4-ary heap and
//     handlers live in a pool of fixed-size slots (stable addresses, recycled through a free list).
// The engine knows nothing about networks or learning.
#ifndef COMMSIM_SIM_ENGINE_H_
#define COMMSIM_SIM_ENGINE_H_

#include <cstdint>
#include <memory>
#include <vector>

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

  // Runs `h` at Now() + delay. REQUIRES: delay >= 0.
  EventId Schedule(SimTime delay, Handler h);
  // Runs `h` at absolute time t. REQUIRES: t >= Now().
  EventId ScheduleAt(SimTime t, Handler h);
  void Cancel(EventId id);

  // Runs events until none are pending or Stop() is called.
  void Run();
  // Runs every event with time <= t (unless stopped), then advances Now() to t if it is later.
  void RunUntil(SimTime t);
  // Makes the current Run/RunUntil return after the running handler finishes.
  void Stop() { stop_requested_ = true; }

  SimTime Now() const { return now_; }
  uint64_t events_processed() const { return events_processed_; }
  // Live (scheduled, not yet run or cancelled) events.
  size_t pending() const { return live_; }

 private:
  struct Record {
    int64_t time_ps;
    uint64_t seq;
    uint32_t slot;
  };
  struct Slot {
    Handler handler;
    uint64_t seq = 0;  // seq of the event owning this slot; 0 when free or running
  };
  static constexpr int kChunkBits = 10;
  static constexpr uint32_t kChunkSize = 1u << kChunkBits;

  static bool Before(const Record& a, const Record& b) {
    return a.time_ps < b.time_ps || (a.time_ps == b.time_ps && a.seq < b.seq);
  }
  Slot& SlotAt(uint32_t i) { return chunks_[i >> kChunkBits][i & (kChunkSize - 1)]; }
  uint32_t AllocSlot();
  void Push(const Record& r);
  void PopTop();
  // Pops and runs the next live event if its time is <= limit. Returns false when none is.
  bool Step(int64_t limit_ps);

  std::vector<Record> heap_;
  std::vector<std::unique_ptr<Slot[]>> chunks_;
  std::vector<uint32_t> free_slots_;
  uint32_t slots_used_ = 0;
  SimTime now_;
  uint64_t next_seq_ = 1;
  uint64_t events_processed_ = 0;
  size_t live_ = 0;
  bool stop_requested_ = false;
  bool running_ = false;
};

}  // namespace commsim

#endif  // COMMSIM_SIM_ENGINE_H_
