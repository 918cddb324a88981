// ThreadPool: a fixed set of threads for the parallel parts of one simulation run (e.g. the
// workers' gradients and encodes of a synchronous round, RunSetup::threads).
//
// Contract:
//   - ForEach(n, f) calls f(i, slot) exactly once for every i in [0, n), on the calling thread
//     and the pool's threads, and returns when every call has returned. `slot` is in
//     [0, threads()) and no two calls that overlap in time share a slot, so f may use scratch
//     memory owned by its slot.
//   - Which thread (and slot) runs which i is not deterministic: for deterministic results f(i, .)
//     must read only what no concurrent call writes and write only what belongs to i or to its
//     slot (and the slot's scratch must not carry anything from one call to the next).
//   - An exception thrown by f is caught; after every call has ended ForEach rethrows the one
//     thrown by the lowest i (the calls of other indices still run).
//   - threads() == 1 starts no thread: f runs inline, in index order, with slot 0.
// Not reentrant: ForEach must not be called from inside f or from two threads at once.
#ifndef COMMSIM_BASE_THREAD_POOL_H_
#define COMMSIM_BASE_THREAD_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace commsim {

class ThreadPool {
 public:
  using Body = std::function<void(int64_t index, int slot)>;

  // REQUIRES: threads >= 1. Starts threads - 1 threads (the caller of ForEach is the last).
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const { return static_cast<int>(threads_.size()) + 1; }
  void ForEach(int64_t n, const Body& f);

 private:
  void Loop(int slot);
  // Runs indices of the current job on `slot` until none is left.
  void Work(int slot);

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_;  // a job started, or the pool stops
  std::condition_variable idle_;  // a thread finished its part of the job
  uint64_t generation_ = 0;       // jobs started so far
  bool stop_ = false;
  int busy_ = 0;  // pool threads still working on the current job
  // The current job.
  const Body* body_ = nullptr;
  int64_t n_ = 0;
  std::atomic<int64_t> next_{0};
  int64_t error_index_ = -1;  // the lowest index that threw, -1: none
  std::exception_ptr error_;
};

}  // namespace commsim

#endif  // COMMSIM_BASE_THREAD_POOL_H_
