// ThreadPool: every index exactly once, slots never shared by overlapping calls, the lowest
// index's exception rethrown after all calls ran, and one thread = inline in index order.
#include "base/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

namespace commsim {
namespace {

TEST(ThreadPoolTest, CallsEveryIndexOnceWithSlotsInRangeAndNeverShared) {
  ThreadPool pool(3);
  EXPECT_EQ(pool.threads(), 3);
  for (int job = 0; job < 20; ++job) {  // several jobs on the same threads
    const int64_t n = 1 + job * 7;
    std::vector<std::atomic<int>> calls(static_cast<size_t>(n));
    std::vector<std::atomic<int>> in_use(3);
    std::atomic<bool> bad_slot{false}, shared_slot{false};
    pool.ForEach(n, [&](int64_t i, int slot) {
      if (slot < 0 || slot >= 3) {
        bad_slot = true;
        return;
      }
      if (in_use[slot].fetch_add(1) != 0) shared_slot = true;
      calls[static_cast<size_t>(i)].fetch_add(1);
      volatile double spin = 0;  // long enough for the calls to overlap
      for (int k = 0; k < 2000; ++k) spin = spin + k;
      in_use[slot].fetch_sub(1);
    });
    EXPECT_FALSE(bad_slot);
    EXPECT_FALSE(shared_slot) << "two overlapping calls got the same slot";
    for (int64_t i = 0; i < n; ++i) EXPECT_EQ(calls[static_cast<size_t>(i)], 1) << "index " << i;
  }
}

TEST(ThreadPoolTest, RethrowsTheLowestThrowingIndexAfterEveryCallRan) {
  for (const int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    std::atomic<int> calls{0};
    try {
      pool.ForEach(40, [&](int64_t i, int) {
        ++calls;
        if (i == 31 || i == 17 || i == 23) throw std::runtime_error("index " + std::to_string(i));
      });
      ADD_FAILURE() << "nothing thrown with " << threads << " threads";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "index 17") << threads << " threads";
    }
    EXPECT_EQ(calls, 40) << threads << " threads";
    // The pool still works after a failed job.
    std::atomic<int> after{0};
    pool.ForEach(5, [&](int64_t, int) { ++after; });
    EXPECT_EQ(after, 5);
  }
}

TEST(ThreadPoolTest, OneThreadRunsInlineInIndexOrderOnSlotZero) {
  ThreadPool pool(1);
  std::vector<int64_t> order;
  std::vector<int> slots;
  pool.ForEach(5, [&](int64_t i, int slot) {
    order.push_back(i);
    slots.push_back(slot);
  });
  EXPECT_EQ(order, (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(slots, (std::vector<int>{0, 0, 0, 0, 0}));
}

TEST(ThreadPoolTest, AnEmptyJobReturnsAtOnce) {
  ThreadPool pool(2);
  int calls = 0;
  pool.ForEach(0, [&](int64_t, int) { ++calls; });
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace commsim
