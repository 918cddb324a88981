#include "sim/engine.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <new>
#include <utility>

#include "base/check.h"
#include "base/error.h"

namespace commsim {

// The queue is an implicit 4-ary min-heap on (time, seq): shallower than a binary heap, and the
// four children of a node share one or two cache lines.
namespace {
constexpr size_t kArity = 4;
}  // namespace

Engine::Engine()
    : max_events_(static_cast<uint64_t>(SimLimits::kDefaultMaxEvents)), next_check_(max_events_) {}
Engine::~Engine() = default;

EventId Engine::Enqueue(SimTime t) {
  COMMSIM_CHECK(t >= now_, "scheduling in the past: t={} ps, now={} ps", t.ps(), now_.ps());
  COMMSIM_CHECK(next_seq_ <= kMaxSeq, "more than {} events scheduled on one engine", kMaxSeq);
  const uint32_t slot = AllocSlot();
  const uint64_t seq = next_seq_++;
  SlotAt(slot).seq = seq;
  ++live_;
  Push(Record{t.ps(), seq << kSlotBits | slot});
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

void Engine::set_max_events(uint64_t max_events) {
  COMMSIM_CHECK(max_events >= 1, "max_events must be >= 1");
  max_events_ = max_events;
  next_check_ = std::min(max_events_, next_beat_);
}

void Engine::set_heartbeat(uint64_t every, std::function<void()> beat) {
  heartbeat_every_ = beat ? every : 0;
  heartbeat_ = std::move(beat);
  next_beat_ = heartbeat_every_ > 0 ? events_processed_ + heartbeat_every_ : UINT64_MAX;
  next_check_ = std::min(max_events_, next_beat_);
}

void Engine::Checkpoint() {
  if (events_processed_ >= max_events_) ThrowEventLimit();
  next_beat_ += heartbeat_every_;
  next_check_ = std::min(max_events_, next_beat_);
  heartbeat_();
}

void Engine::ThrowEventLimit() const {
  throw SimulationLimitError(fmt::format(
      "the run reached {} simulated events (limits.max_events) at simulated time {:.6g} s; "
      "raise /limits/max_events if it is meant to be this long, or shorten it (fewer "
      "iterations or workers, a larger network mtu)",
      max_events_, now_.seconds()));
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
    COMMSIM_CHECK(slots_used_ <= kSlotMask, "more than {} events pending", kSlotMask + 1);
    chunks_.push_back(std::make_unique<Slot[]>(kChunkSize));
  }
  return slots_used_++;
}

void Engine::AlignedFree::operator()(Record* p) const {
  ::operator delete[](p, std::align_val_t{64});
}

void Engine::GrowHeap() {
  const size_t capacity = heap_capacity_ == 0 ? 256 : heap_capacity_ * 2;
  Record* fresh = static_cast<Record*>(
      ::operator new[]((capacity + kRootOffset) * sizeof(Record), std::align_val_t{64}));
  if (heap_size_ > 0) std::memcpy(fresh + kRootOffset, heap_, heap_size_ * sizeof(Record));
  heap_storage_.reset(fresh);
  heap_ = fresh + kRootOffset;
  heap_capacity_ = capacity;
}

void Engine::SiftUp(Record* h, size_t i, const Record& r) {
  while (i > 0) {
    const size_t parent = (i - 1) / kArity;
    if (!Before(r, h[parent])) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = r;
}

void Engine::Push(const Record& r) {
  if (heap_size_ == heap_capacity_) GrowHeap();
  SiftUp(heap_, heap_size_++, r);
}

// Bottom-up deletion: walk the hole at the root down along the smallest children to a leaf, then
// sift the former last record up from there. The last record usually belongs near the bottom, so
// this saves most comparisons against it.
void Engine::PopTop() {
  Record* h = heap_;
  const size_t n = --heap_size_;
  if (n == 0) return;
  const Record last = h[n];
  size_t i = 0;
  while (true) {
    const size_t first = i * kArity + 1;
    if (first + kArity <= n) {
      // The hole moves to one of these four children next; fetch all their children (four
      // adjacent lines) now, so the misses of the next level overlap with this comparison.
      const size_t grand = first * kArity + 1;
      if (grand < n) {
        for (size_t k = 0; k < kArity * kArity; k += kArity) __builtin_prefetch(h + grand + k);
      }
      size_t best = first;
      if (Before(h[first + 1], h[best])) best = first + 1;
      if (Before(h[first + 2], h[best])) best = first + 2;
      if (Before(h[first + 3], h[best])) best = first + 3;
      h[i] = h[best];
      i = best;
    } else {
      if (first < n) {
        size_t best = first;
        for (size_t c = first + 1; c < n; ++c) {
          if (Before(h[c], h[best])) best = c;
        }
        h[i] = h[best];
        i = best;
      }
      break;
    }
  }
  SiftUp(h, i, last);
}

bool Engine::Step(int64_t limit_ps) {
  while (heap_size_ > 0) {
    const Record top = heap_[0];
    if (top.time_ps > limit_ps) return false;
    PopTop();
    // The next event's slot is a likely cache miss in a large queue: fetch it while this one runs.
    if (heap_size_ > 0)
      __builtin_prefetch(&SlotAt(static_cast<uint32_t>(heap_[0].key & kSlotMask)));
    const uint32_t slot = static_cast<uint32_t>(top.key & kSlotMask);
    Slot& s = SlotAt(slot);
    if (s.seq != top.key >> kSlotBits)
      continue;  // cancelled; the slot may already serve another event
    s.seq = 0;   // running: Cancel of this id is now a no-op
    --live_;
    if (events_processed_ >= next_check_) [[unlikely]]
      Checkpoint();
    now_ = SimTime::FromPs(top.time_ps);
    ++events_processed_;
    s.handler();  // slots never move, so handlers may schedule freely
    s.handler.Reset();
    free_slots_.push_back(slot);
    return true;
  }
  return false;
}

}  // namespace commsim
