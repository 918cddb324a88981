#include "mpi/task_farm.h"

#include <fmt/format.h>

#include <chrono>
#include <exception>
#include <new>
#include <stdexcept>

#include "base/check.h"
#include "base/error.h"
#include "mpi/local_tasks.h"

namespace commsim::mpi {
namespace {

// How long rank 0 waits for its own tasks before it looks for messages again.
constexpr std::chrono::milliseconds kPollInterval{1};

struct Parsed {
  std::string verb;
  size_t task = 0;
  std::string rest;  // after the task number
};

Parsed ParseMessage(const Envelope& e) {
  Parsed p;
  const size_t space = e.text.find(' ');
  p.verb = e.text.substr(0, space);
  if (space == std::string::npos) return p;
  const size_t end = e.text.find(' ', space + 1);
  const std::string number = e.text.substr(space + 1, end - space - 1);
  COMMSIM_CHECK(!number.empty() && number.find_first_not_of("0123456789") == std::string::npos,
                "rank {} sent a malformed message '{}'", e.from, e.text);
  p.task = std::stoull(number);
  if (end != std::string::npos) p.rest = e.text.substr(end + 1);
  return p;
}

std::string Describe(const FarmOptions& options, size_t task) {
  return options.describe ? options.describe(task) : fmt::format("task {}", task);
}

// "fail <K> <kind> <message>" for a task that threw `error` on rank `rank`.
std::string FailureText(const FarmOptions& options, size_t task, int rank,
                        std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const UserError& e) {
    return fmt::format("fail {} U {}", task, e.what());
  } catch (const std::bad_alloc&) {
    return fmt::format(
        "fail {} M {}: out of memory on rank {}: it needs more memory than that "
        "node has; run fewer --jobs per node or a smaller problem",
        task, Describe(options, task), rank);
  } catch (const std::exception& e) {
    return fmt::format("fail {} E {} on rank {}: {}", task, Describe(options, task), rank,
                       e.what());
  } catch (...) {
    return fmt::format("fail {} E {} on rank {}: unknown error", task, Describe(options, task),
                       rank);
  }
}

std::exception_ptr FailureFromText(const std::string& kind_and_message) {
  const std::string message = kind_and_message.size() > 2 ? kind_and_message.substr(2) : "";
  if (kind_and_message.rfind("E ", 0) == 0) {
    return std::make_exception_ptr(std::runtime_error(message));
  }
  return std::make_exception_ptr(UserError(message));
}

class FarmRoot {
 public:
  FarmRoot(Channel& channel, const std::vector<size_t>& tasks, const FarmOptions& options)
      : channel_(channel),
        tasks_(tasks),
        options_(options),
        local_(options.run),
        alive_(channel.size() - 1) {}

  void Run() {
    while (true) {
      StartLocalTasks();
      while (std::optional<Envelope> e = channel_.Poll()) Handle(*e);
      if (alive_ == 0 && local_.running() == 0 && (stop_ || next_ == tasks_.size())) break;
      if (local_.running() == 0) {
        std::this_thread::sleep_for(kPollInterval);
        continue;
      }
      if (std::optional<EndedTask> ended = local_.Next(kPollInterval)) {
        Ended(ended->task, ended->error);
      }
    }
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  std::optional<size_t> Assign(int rank) {
    if (stop_ || next_ == tasks_.size()) return std::nullopt;
    const size_t task = tasks_[next_++];
    running_[task] = rank;
    if (options_.on_running) options_.on_running(running_);
    return task;
  }

  void StartLocalTasks() {
    while (local_.running() < static_cast<size_t>(options_.jobs)) {
      const std::optional<size_t> task = Assign(0);
      if (!task) return;
      local_.Start(*task);
    }
  }

  void Ended(size_t task, std::exception_ptr error) {
    running_.erase(task);
    if (options_.on_running) options_.on_running(running_);
    if (!error) return;
    stop_ = true;
    if (task < failed_task_) {
      failed_task_ = task;
      failure_ = error;
    }
  }

  void Handle(const Envelope& e) {
    const Parsed m = ParseMessage(e);
    if (m.verb == "want") {
      const std::optional<size_t> task = Assign(e.from);
      channel_.Send(e.from, task ? fmt::format("task {}", *task) : "stop");
    } else if (m.verb == "done") {
      Ended(m.task, nullptr);
      if (options_.on_remote_done) options_.on_remote_done(m.task);
    } else if (m.verb == "fail") {
      Ended(m.task, FailureFromText(m.rest));
    } else {
      COMMSIM_CHECK(m.verb == "bye", "rank {} sent an unknown message '{}'", e.from, e.text);
      --alive_;
    }
  }

  Channel& channel_;
  const std::vector<size_t>& tasks_;
  const FarmOptions& options_;
  LocalTasks local_;
  int alive_;  // other ranks that have not said "bye"
  size_t next_ = 0;
  bool stop_ = false;
  std::map<size_t, int> running_;
  size_t failed_task_ = SIZE_MAX;
  std::exception_ptr failure_;
};

}  // namespace

void RunFarmRoot(Channel& channel, const std::vector<size_t>& tasks, const FarmOptions& options) {
  COMMSIM_CHECK(channel.rank() == 0 && options.jobs >= 1, "RunFarmRoot on rank {} with jobs {}",
                channel.rank(), options.jobs);
  FarmRoot(channel, tasks, options).Run();
}

void RunFarmWorker(Channel& channel, const FarmOptions& options) {
  COMMSIM_CHECK(channel.rank() > 0 && options.jobs >= 1, "RunFarmWorker on rank {} with jobs {}",
                channel.rank(), options.jobs);
  LocalTasks local(options.run);
  bool stopped = false;
  while (true) {
    while (!stopped && local.running() < static_cast<size_t>(options.jobs)) {
      channel.Send(0, "want");
      const Parsed reply = ParseMessage(channel.Receive());
      if (reply.verb == "stop") {
        stopped = true;
      } else {
        COMMSIM_CHECK(reply.verb == "task", "rank 0 sent an unknown reply '{}'", reply.verb);
        local.Start(reply.task);
      }
    }
    if (local.running() == 0) break;
    const EndedTask ended = local.NextBlocking();
    channel.Send(0, ended.error ? FailureText(options, ended.task, channel.rank(), ended.error)
                                : fmt::format("done {}", ended.task));
  }
  channel.Send(0, "bye");
}

}  // namespace commsim::mpi
