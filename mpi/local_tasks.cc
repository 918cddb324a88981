#include "mpi/local_tasks.h"

#include "base/check.h"

namespace commsim::mpi {

LocalTasks::~LocalTasks() {
  for (auto& [task, thread] : threads_) thread.join();
}

void LocalTasks::Start(size_t task) {
  COMMSIM_CHECK(threads_.count(task) == 0, "task {} started twice", task);
  threads_.emplace(task, std::thread([this, task] {
                     EndedTask ended{task, nullptr};
                     try {
                       run_(task);
                     } catch (...) {
                       ended.error = std::current_exception();
                     }
                     std::lock_guard<std::mutex> guard(mu_);
                     ended_.push_back(std::move(ended));
                     ended_cv_.notify_all();
                   }));
}

EndedTask LocalTasks::Collect(std::unique_lock<std::mutex>& lock) {
  EndedTask ended = std::move(ended_.front());
  ended_.pop_front();
  lock.unlock();
  auto it = threads_.find(ended.task);
  it->second.join();
  threads_.erase(it);
  return ended;
}

std::optional<EndedTask> LocalTasks::Next(std::chrono::milliseconds wait) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!ended_cv_.wait_for(lock, wait, [this] { return !ended_.empty(); })) return std::nullopt;
  return Collect(lock);
}

EndedTask LocalTasks::NextBlocking() {
  COMMSIM_CHECK(!threads_.empty(), "waiting for a task with none running");
  std::unique_lock<std::mutex> lock(mu_);
  ended_cv_.wait(lock, [this] { return !ended_.empty(); });
  return Collect(lock);
}

}  // namespace commsim::mpi
