#include "analysis/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

namespace commsim {

Progress::Progress(std::string label, std::string unit, std::FILE* out, Mode mode, Clock clock,
                   double line_interval_s, double tick_s)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      out_(out),
      mode_(mode),
      clock_(std::move(clock)),
      line_interval_s_(line_interval_s),
      tick_s_(tick_s) {}

Progress::~Progress() { StopTicker(); }

void Progress::StopTicker() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    finished_ = true;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

Progress::Mode Progress::ModeFor(std::FILE* out, bool quiet) {
  if (quiet) return Mode::kQuiet;
  return ::isatty(::fileno(out)) ? Mode::kTerminal : Mode::kLines;
}

Progress::Clock Progress::SteadyClock() {
  return [] {
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    return std::chrono::duration<double>(now).count();
  };
}

void Progress::Start(size_t total, size_t already_done) {
  std::lock_guard<std::mutex> lock(mu_);
  total_ = total;
  skipped_ = already_done;
  done_ = 0;
  finished_ = false;
  start_s_ = clock_();
  last_line_s_ = start_s_;
  if (mode_ == Mode::kQuiet) return;
  if (mode_ == Mode::kLines) {
    std::string line = fmt::format("{}: {} {}", label_, total_, unit_);
    if (skipped_ > 0) line += fmt::format(", {} already done", skipped_);
    fmt::print(out_, "{}\n", line);
    std::fflush(out_);
  } else {
    PrintLocked(false);
  }
  if (tick_s_ > 0 && !ticker_.joinable()) {
    ticker_ = std::thread([this] {
      std::unique_lock<std::mutex> lock(mu_);
      while (!finished_) {
        wake_.wait_for(lock, std::chrono::duration<double>(tick_s_));
        if (!finished_) PeriodicLocked();
      }
    });
  }
}

void Progress::PeriodicLocked() {
  if (mode_ == Mode::kTerminal) {
    PrintLocked(false);
  } else if (mode_ == Mode::kLines && clock_() - last_line_s_ >= line_interval_s_ &&
             skipped_ + done_ < total_) {
    last_line_s_ = clock_();
    PrintLocked(false);
  }
}

void Progress::Advance(size_t steps) {
  std::lock_guard<std::mutex> lock(mu_);
  done_ += steps;
  partial_.erase(std::this_thread::get_id());
  detail_.erase(std::this_thread::get_id());
  PeriodicLocked();
}

void Progress::Note(const std::string& line) {
  std::lock_guard<std::mutex> lock(mu_);
  if (mode_ == Mode::kQuiet) return;
  if (mode_ == Mode::kTerminal) {
    fmt::print(out_, "\r{}\x1b[K\n", line);
    if (!finished_) PrintLocked(false);
  } else {
    fmt::print(out_, "{}\n", line);
  }
  std::fflush(out_);
}

void Progress::SetPartial(double fraction) {
  std::lock_guard<std::mutex> lock(mu_);
  partial_[std::this_thread::get_id()] = std::clamp(fraction, 0.0, 1.0);
}

void Progress::SetDetail(std::string detail) {
  std::lock_guard<std::mutex> lock(mu_);
  detail_[std::this_thread::get_id()] = std::move(detail);
}

void Progress::Finish() {
  bool print = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    print = !finished_ && mode_ != Mode::kQuiet;
  }
  StopTicker();
  std::lock_guard<std::mutex> lock(mu_);
  if (print) PrintLocked(true);
}

std::string Progress::Status() const {
  std::lock_guard<std::mutex> lock(mu_);
  return StatusLocked();
}

std::string Progress::StatusLocked() const {
  const size_t done = skipped_ + done_;
  double in_flight = 0;
  for (const auto& [thread, fraction] : partial_) in_flight += fraction;
  const double session = static_cast<double>(done_) + in_flight;
  const double elapsed = clock_() - start_s_;
  const int percent =
      total_ == 0 ? 100
                  : static_cast<int>(100.0 * (static_cast<double>(done) + in_flight) / total_);
  std::string text = fmt::format("{}: {}/{} {} ({}%), elapsed {}", label_, done, total_, unit_,
                                 std::min(percent, 100), FormatDuration(elapsed));
  if (done < total_ && session > 0) {
    const double left = static_cast<double>(total_ - done) - in_flight;
    text += fmt::format(", ETA {}", FormatDuration(elapsed / session * std::max(0.0, left)));
  }
  for (const auto& [thread, detail] : detail_) text += " | " + detail;
  return text;
}

void Progress::PrintLocked(bool final) {
  const std::string text = StatusLocked();
  if (mode_ == Mode::kTerminal) {
    // \x1b[K clears what a longer previous status left on the line.
    fmt::print(out_, "\r{}\x1b[K{}", text, final ? "\n" : "");
  } else {
    fmt::print(out_, "{}\n", text);
  }
  std::fflush(out_);
}

std::string FormatDuration(double seconds) {
  if (!(seconds >= 0)) seconds = 0;
  if (seconds < 10) return fmt::format("{:.1f}s", seconds);
  const int64_t s = std::llround(seconds);
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
}

std::string EventsDetail(std::string_view label, int64_t events, double sim_s) {
  const double e = static_cast<double>(events);
  const std::string count = e >= 1e9   ? fmt::format("{:.1f}G", e / 1e9)
                            : e >= 1e6 ? fmt::format("{:.1f}M", e / 1e6)
                            : e >= 1e3 ? fmt::format("{:.1f}k", e / 1e3)
                                       : fmt::format("{}", events);
  return fmt::format("{}: {} events, simulated {:.3g} s", label, count, sim_s);
}

}  // namespace commsim
