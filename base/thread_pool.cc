#include "base/thread_pool.h"

#include <utility>

#include "base/check.h"

namespace commsim {

ThreadPool::ThreadPool(int threads) {
  COMMSIM_CHECK(threads >= 1, "a thread pool needs at least one thread, got {}", threads);
  threads_.reserve(static_cast<size_t>(threads - 1));
  for (int slot = 1; slot < threads; ++slot) threads_.emplace_back([this, slot] { Loop(slot); });
}

ThreadPool::~ThreadPool() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void ThreadPool::ForEach(int64_t n, const Body& f) {
  if (threads_.empty()) {
    std::exception_ptr error;
    for (int64_t i = 0; i < n; ++i) {
      try {
        f(i, 0);
      } catch (...) {
        if (!error) error = std::current_exception();
      }
    }
    if (error) std::rethrow_exception(error);
    return;
  }
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    body_ = &f;
    n_ = n;
    next_.store(0);
    error_index_ = -1;
    error_ = nullptr;
    busy_ = static_cast<int>(threads_.size());
    ++generation_;
  }
  wake_.notify_all();
  Work(0);
  std::exception_ptr error;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [this] { return busy_ == 0; });
    body_ = nullptr;
    error = std::exchange(error_, nullptr);
  }
  if (error) std::rethrow_exception(error);
}

void ThreadPool::Loop(int slot) {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    Work(slot);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      --busy_;
    }
    idle_.notify_one();
  }
}

void ThreadPool::Work(int slot) {
  for (int64_t i = next_.fetch_add(1); i < n_; i = next_.fetch_add(1)) {
    try {
      (*body_)(i, slot);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (error_index_ < 0 || i < error_index_) {
        error_index_ = i;
        error_ = std::current_exception();
      }
    }
  }
}

}  // namespace commsim
