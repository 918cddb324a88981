// RunPointsOnThreads (sweep_runner.h): the default way a sweep runs its points.
#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "scenarios/sweep_runner.h"

namespace commsim {

void RunPointsOnThreads(const std::vector<size_t>& pending, int jobs_option,
                        const std::function<void(size_t)>& run_point) {
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  size_t failed_point = SIZE_MAX;
  std::exception_ptr failure;
  auto work = [&] {
    while (!stop.load()) {
      const size_t i = next.fetch_add(1);
      if (i >= pending.size()) return;
      try {
        run_point(pending[i]);
      } catch (...) {
        std::lock_guard<std::mutex> guard(mu);
        if (pending[i] < failed_point) {
          failed_point = pending[i];
          failure = std::current_exception();
        }
        stop.store(true);
      }
    }
  };
  size_t jobs = jobs_option > 0 ? static_cast<size_t>(jobs_option)
                                : std::max(1u, std::thread::hardware_concurrency());
  jobs = std::min(jobs, std::max<size_t>(pending.size(), 1));
  if (jobs <= 1) {
    work();
  } else {
    std::vector<std::thread> threads;
    for (size_t t = 0; t < jobs; ++t) threads.emplace_back(work);
    for (std::thread& t : threads) t.join();
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace commsim
