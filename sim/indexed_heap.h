// IndexedMinHeap: a binary min-heap of (key, id) pairs with at most one entry per id, so that an
// id's key can be changed or removed in O(log size) (the flow model's completion times).
//
// Contract: ids are small non-negative integers (a vector of positions is sized to the largest
// one); Top() is an entry with the smallest key (ties: the smallest id); Set inserts or updates.
// Deterministic: the same calls give the same heap.
#ifndef COMMSIM_SIM_INDEXED_HEAP_H_
#define COMMSIM_SIM_INDEXED_HEAP_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "base/check.h"

namespace commsim {

class IndexedMinHeap {
 public:
  struct Entry {
    int64_t key = 0;
    uint32_t id = 0;
  };

  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  // REQUIRES: !empty().
  const Entry& Top() const { return heap_.front(); }
  bool Contains(uint32_t id) const { return id < pos_.size() && pos_[id] >= 0; }

  void Set(uint32_t id, int64_t key) {
    if (id >= pos_.size()) pos_.resize(id + 1, -1);
    if (pos_[id] < 0) {
      pos_[id] = static_cast<int64_t>(heap_.size());
      heap_.push_back({key, id});
    } else {
      heap_[pos_[id]].key = key;
    }
    Restore(static_cast<size_t>(pos_[id]));
  }

  // Sets the key of every id in `ids` (inserting the missing ones) and restores the heap once:
  // O(size) when many keys change, where Set would cost O(ids x log size).
  template <class Ids, class KeyOf>
  void SetAll(const Ids& ids, KeyOf key_of) {
    for (uint32_t id : ids) {
      if (id >= pos_.size()) pos_.resize(id + 1, -1);
      if (pos_[id] < 0) {
        pos_[id] = static_cast<int64_t>(heap_.size());
        heap_.push_back({key_of(id), id});
      } else {
        heap_[pos_[id]].key = key_of(id);
      }
    }
    for (size_t i = heap_.size() / 2; i-- > 0;) SiftDown(i);
  }

  void Remove(uint32_t id) {
    COMMSIM_CHECK(Contains(id), "heap: removing id {} that is not in the heap", id);
    const size_t i = static_cast<size_t>(pos_[id]);
    pos_[id] = -1;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    heap_[i] = last;
    pos_[last.id] = static_cast<int64_t>(i);
    Restore(i);
  }

 private:
  static bool Less(const Entry& a, const Entry& b) {
    return a.key < b.key || (a.key == b.key && a.id < b.id);
  }
  void Place(size_t i, const Entry& e) {
    heap_[i] = e;
    pos_[e.id] = static_cast<int64_t>(i);
  }
  // Moves the entry at i up or down to its place.
  void Restore(size_t i) {
    const Entry e = heap_[i];
    while (i > 0 && Less(e, heap_[(i - 1) / 2])) {
      Place(i, heap_[(i - 1) / 2]);
      i = (i - 1) / 2;
    }
    Place(i, e);
    SiftDown(i);
  }
  void SiftDown(size_t i) {
    const Entry e = heap_[i];
    for (;;) {
      size_t c = 2 * i + 1;
      if (c >= heap_.size()) break;
      if (c + 1 < heap_.size() && Less(heap_[c + 1], heap_[c])) ++c;
      if (!Less(heap_[c], e)) break;
      Place(i, heap_[c]);
      i = c;
    }
    Place(i, e);
  }

  std::vector<Entry> heap_;
  std::vector<int64_t> pos_;  // id -> index in heap_, -1 when absent
};

}  // namespace commsim

#endif  // COMMSIM_SIM_INDEXED_HEAP_H_
