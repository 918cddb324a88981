// Tasks running on threads of this process, for the task farm (mpi/task_farm.h): each started
// task gets a thread; the caller collects ended tasks one at a time, with the exception a failed
// one threw.
#ifndef COMMSIM_MPI_LOCAL_TASKS_H_
#define COMMSIM_MPI_LOCAL_TASKS_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace commsim::mpi {

struct EndedTask {
  size_t task = 0;
  std::exception_ptr error;  // null when the task succeeded
};

class LocalTasks {
 public:
  explicit LocalTasks(std::function<void(size_t)> run) : run_(std::move(run)) {}
  // Waits for every started task.
  ~LocalTasks();
  LocalTasks(const LocalTasks&) = delete;
  LocalTasks& operator=(const LocalTasks&) = delete;

  void Start(size_t task);
  // Started tasks not yet returned by Next.
  size_t running() const { return threads_.size(); }
  // An ended task, waiting up to `wait` for one; nullopt when none ended in that time.
  // REQUIRES: running() > 0 or a zero wait.
  std::optional<EndedTask> Next(std::chrono::milliseconds wait);
  // An ended task, waiting as long as it takes. REQUIRES: running() > 0.
  EndedTask NextBlocking();

 private:
  EndedTask Collect(std::unique_lock<std::mutex>& lock);

  std::function<void(size_t)> run_;
  std::map<size_t, std::thread> threads_;  // touched by the owner's thread only
  std::mutex mu_;
  std::condition_variable ended_cv_;
  std::deque<EndedTask> ended_;  // guarded by mu_
};

}  // namespace commsim::mpi

#endif  // COMMSIM_MPI_LOCAL_TASKS_H_
