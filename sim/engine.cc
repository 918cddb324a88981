#include "sim/engine.h"

#include <limits>
#include <utility>

#include "sim/check.h"

namespace commsim {

// The queue is an implicit 4-ary min-heap on (time, seq): shallower than a binary heap, and the
// four children of a node share one or two cache lines.
namespace {
constexpr size_t kArity = 4;
}  // namespace

Engine::Engine() = default;
Engine::~Engine() = default;

EventId Engine::Schedule(SimTime delay, Handler h) {
  COMMSIM_CHECK(delay >= SimTime::Zero(), "negative delay {} ps", delay.ps());
  return ScheduleAt(now_ + delay, std::move(h));
}

EventId Engine::ScheduleAt(SimTime t, Handler h) {
  COMMSIM_CHECK(t >= now_, "scheduling in the past: t={} ps, now={} ps", t.ps(), now_.ps());
  COMMSIM_CHECK(static_cast<bool>(h), "scheduling an empty handler");
  const uint32_t slot = AllocSlot();
  const uint64_t seq = next_seq_++;
  Slot& s = SlotAt(slot);
  s.handler = std::move(h);
  s.seq = seq;
  ++live_;
  Push(Record{t.ps(), seq, slot});
  return EventId{slot, seq};
}

void Engine::Cancel(EventId id) {
  if (id.seq == 0 || id.slot >= slots_used_) return;
  Slot& s = SlotAt(id.slot);
  if (s.seq != id.seq) return;  // already ran, running, or cancelled
  s.seq = 0;
  s.handler.Reset();
  free_slots_.push_back(id.slot);
  --live_;
}

void Engine::Run() { RunUntil(SimTime::Max()); }

void Engine::RunUntil(SimTime t) {
  COMMSIM_CHECK(!running_, "Run/RunUntil called from inside a handler");
  COMMSIM_CHECK(t >= now_, "RunUntil({} ps) is before Now() = {} ps", t.ps(), now_.ps());
  running_ = true;
  stop_requested_ = false;
  while (!stop_requested_ && Step(t.ps())) {
  }
  running_ = false;
  if (!stop_requested_ && now_ < t && t != SimTime::Max()) now_ = t;
}

uint32_t Engine::AllocSlot() {
  if (!free_slots_.empty()) {
    const uint32_t slot = free_slots_.back();
    free_slots_.pop_back();
    return slot;
  }
  if (slots_used_ == chunks_.size() * kChunkSize) {
    COMMSIM_CHECK(slots_used_ < std::numeric_limits<uint32_t>::max() - kChunkSize,
                  "too many pending events");
    chunks_.push_back(std::make_unique<Slot[]>(kChunkSize));
  }
  return slots_used_++;
}

void Engine::Push(const Record& r) {
  size_t i = heap_.size();
  heap_.push_back(r);
  Record* h = heap_.data();
  while (i > 0) {
    const size_t parent = (i - 1) / kArity;
    if (!Before(r, h[parent])) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = r;
}

void Engine::PopTop() {
  const Record last = heap_.back();
  heap_.pop_back();
  const size_t n = heap_.size();
  if (n == 0) return;
  Record* h = heap_.data();
  size_t i = 0;
  while (true) {
    const size_t first = i * kArity + 1;
    if (first >= n) break;
    size_t best = first;
    const size_t end = first + kArity < n ? first + kArity : n;
    for (size_t c = first + 1; c < end; ++c) {
      if (Before(h[c], h[best])) best = c;
    }
    if (!Before(h[best], last)) break;
    h[i] = h[best];
    i = best;
  }
  h[i] = last;
}

bool Engine::Step(int64_t limit_ps) {
  while (!heap_.empty()) {
    const Record top = heap_.front();
    if (top.time_ps > limit_ps) return false;
    PopTop();
    Slot& s = SlotAt(top.slot);
    if (s.seq != top.seq) continue;  // cancelled; the slot may already serve another event
    s.seq = 0;                       // running: Cancel of this id is now a no-op
    --live_;
    now_ = SimTime::FromPs(top.time_ps);
    ++events_processed_;
    s.handler();  // slots never move, so handlers may schedule freely
    s.handler.Reset();
    free_slots_.push_back(top.slot);
    return true;
  }
  return false;
}

}  // namespace commsim
