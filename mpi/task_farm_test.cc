// The task farm over an in-process channel: ranks are threads, messages go through queues.
#include "mpi/task_farm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <new>
#include <set>
#include <stdexcept>
#include <thread>

#include "base/error.h"

namespace commsim::mpi {
namespace {

// Mailboxes for `size` ranks; Channel views of it keep MPI's per-sender order.
class Mailboxes {
 public:
  explicit Mailboxes(int size) : boxes_(static_cast<size_t>(size)) {}
  void Put(int to, Envelope e) {
    std::lock_guard<std::mutex> guard(mu_);
    boxes_[static_cast<size_t>(to)].push_back(std::move(e));
    cv_.notify_all();
  }
  std::optional<Envelope> Take(int rank, bool wait) {
    std::unique_lock<std::mutex> lock(mu_);
    auto& box = boxes_[static_cast<size_t>(rank)];
    if (wait) cv_.wait(lock, [&] { return !box.empty(); });
    if (box.empty()) return std::nullopt;
    Envelope e = std::move(box.front());
    box.pop_front();
    return e;
  }
  int size() const { return static_cast<int>(boxes_.size()); }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::deque<Envelope>> boxes_;
};

class TestChannel final : public Channel {
 public:
  TestChannel(Mailboxes& boxes, int rank) : boxes_(boxes), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return boxes_.size(); }
  void Send(int to, const std::string& text) override { boxes_.Put(to, {rank_, text}); }
  Envelope Receive() override { return *boxes_.Take(rank_, true); }
  std::optional<Envelope> Poll() override { return boxes_.Take(rank_, false); }

 private:
  Mailboxes& boxes_;
  int rank_;
};

// Which rank ran which task, and how often each ran.
struct Ledger {
  std::mutex mu;
  std::multiset<size_t> ran;
  std::set<int> ranks_that_ran;
  void Record(size_t task, int rank) {
    std::lock_guard<std::mutex> guard(mu);
    ran.insert(task);
    ranks_that_ran.insert(rank);
  }
};

// Runs a farm of `size` ranks with `jobs` threads each; `run(rank, task)` is every rank's task.
// Returns the root's exception (or null); `remote_done` gets the root's on_remote_done calls.
std::exception_ptr RunFarm(int size, int jobs, const std::vector<size_t>& tasks,
                           const std::function<void(int, size_t)>& run,
                           std::vector<size_t>* remote_done = nullptr) {
  Mailboxes boxes(size);
  std::vector<std::thread> workers;
  for (int r = 1; r < size; ++r) {
    workers.emplace_back([&, r] {
      TestChannel channel(boxes, r);
      FarmOptions options;
      options.jobs = jobs;
      options.run = [&, r](size_t task) { run(r, task); };
      options.describe = [](size_t task) { return "point " + std::to_string(task); };
      RunFarmWorker(channel, options);
    });
  }
  std::exception_ptr error;
  TestChannel root(boxes, 0);
  FarmOptions options;
  options.jobs = jobs;
  options.run = [&](size_t task) { run(0, task); };
  options.on_remote_done = [&](size_t task) {
    if (remote_done) remote_done->push_back(task);
  };
  try {
    RunFarmRoot(root, tasks, options);
  } catch (...) {
    error = std::current_exception();
  }
  for (std::thread& t : workers) t.join();
  return error;
}

std::string Message(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  }
}

TEST(TaskFarmTest, EveryTaskRunsExactlyOnceAndEveryRankWorks) {
  const std::vector<size_t> tasks = {0, 2, 3, 5, 7, 8, 9, 11, 12, 13, 20, 21};
  Ledger ledger;
  std::vector<size_t> remote_done;
  const std::exception_ptr error = RunFarm(
      3, 2, tasks,
      [&](int rank, size_t task) {
        ledger.Record(task, rank);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      },
      &remote_done);
  ASSERT_FALSE(error) << Message(error);
  EXPECT_EQ(std::vector<size_t>(ledger.ran.begin(), ledger.ran.end()), tasks);
  EXPECT_EQ(ledger.ranks_that_ran, (std::set<int>{0, 1, 2}));
  // Every task another rank ran is reported to rank 0 once.
  std::sort(remote_done.begin(), remote_done.end());
  EXPECT_EQ(std::adjacent_find(remote_done.begin(), remote_done.end()), remote_done.end());
  EXPECT_LT(remote_done.size(), tasks.size());
}

TEST(TaskFarmTest, NoTasksReleasesTheOtherRanks) {
  Ledger ledger;
  const std::exception_ptr error =
      RunFarm(4, 3, {}, [&](int rank, size_t task) { ledger.Record(task, rank); });
  EXPECT_FALSE(error);
  EXPECT_TRUE(ledger.ran.empty());
}

TEST(TaskFarmTest, ASlowRankTakesFewerTasks) {
  // Rank 2 is 40x slower: dynamic hand-out gives it far fewer than a static third.
  std::vector<size_t> tasks(30);
  for (size_t k = 0; k < tasks.size(); ++k) tasks[k] = k;
  std::mutex mu;
  std::vector<int> per_rank(3, 0);
  const std::exception_ptr error = RunFarm(3, 1, tasks, [&](int rank, size_t) {
    {
      std::lock_guard<std::mutex> guard(mu);
      ++per_rank[static_cast<size_t>(rank)];
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(rank == 2 ? 80 : 2));
  });
  ASSERT_FALSE(error);
  EXPECT_EQ(per_rank[0] + per_rank[1] + per_rank[2], 30);
  EXPECT_LT(per_rank[2], 5);
}

TEST(TaskFarmTest, ARemoteUserErrorStopsHandOutAndReachesRankZeroWithItsText) {
  std::vector<size_t> tasks(40);
  for (size_t k = 0; k < tasks.size(); ++k) tasks[k] = k;
  std::mutex mu;
  std::set<size_t> on_rank_1;
  size_t ran = 0;
  const std::exception_ptr error = RunFarm(3, 1, tasks, [&](int rank, size_t task) {
    {
      std::lock_guard<std::mutex> guard(mu);
      ++ran;
      if (rank == 1) on_rank_1.insert(task);
    }
    if (rank == 1) throw UserError("sweep.json: point " + std::to_string(task) + ": bad value");
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
  });
  ASSERT_TRUE(error);
  ASSERT_EQ(on_rank_1.size(), 1u) << "rank 1 got a task after its failure";
  EXPECT_THROW(std::rethrow_exception(error), UserError);
  EXPECT_EQ(Message(error),
            "sweep.json: point " + std::to_string(*on_rank_1.begin()) + ": bad value");
  EXPECT_LT(ran, 10u) << "hand-out went on after the failure";
}

TEST(TaskFarmTest, TheLowestFailedTaskWinsWhereverItRan) {
  // Hand-out order 5, 3, 9: rank 0 takes 5, the others 3 and 9; all fail after every rank has one.
  for (int round = 0; round < 3; ++round) {
    const std::exception_ptr error = RunFarm(3, 1, {5, 3, 9}, [](int, size_t task) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      throw UserError("failed " + std::to_string(task));
    });
    ASSERT_TRUE(error);
    EXPECT_EQ(Message(error), "failed 3");
  }
}

TEST(TaskFarmTest, RankZeroKeepsItsOwnExceptionType) {
  const std::exception_ptr error =
      RunFarm(1, 2, {4}, [](int, size_t) { throw std::logic_error("internal"); });
  EXPECT_THROW(std::rethrow_exception(error), std::logic_error);
}

TEST(TaskFarmTest, RemoteOutOfMemoryAndInternalErrorsNameTaskAndRank) {
  const std::exception_ptr oom = RunFarm(2, 1, {0, 1}, [](int rank, size_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (rank == 1) throw std::bad_alloc();
  });
  ASSERT_TRUE(oom);
  EXPECT_THROW(std::rethrow_exception(oom), UserError);
  EXPECT_NE(Message(oom).find(": out of memory on rank 1:"), std::string::npos) << Message(oom);
  EXPECT_EQ(Message(oom).rfind("point ", 0), 0u) << Message(oom);

  const std::exception_ptr internal = RunFarm(2, 1, {0, 1}, [](int rank, size_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (rank == 1) throw std::out_of_range("index 7");
  });
  ASSERT_TRUE(internal);
  EXPECT_THROW(
      {
        try {
          std::rethrow_exception(internal);
        } catch (const UserError&) {
          FAIL() << "an internal error became a UserError";
        }
      },
      std::runtime_error);
  EXPECT_NE(Message(internal).find(" on rank 1: index 7"), std::string::npos);
}

}  // namespace
}  // namespace commsim::mpi
