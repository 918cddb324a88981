// Progress of long runs and sweeps on stderr: "sweep: 5/13 points (38%), elapsed 12s, ETA 20s".
//
// Three modes: kTerminal rewrites one line in place ('\r') after every step; kLines prints a plain
// line when started, then at most every `line_interval_s` and when finished (for logs and pipes);
// kQuiet prints nothing. ModeFor() picks kTerminal when the stream is a terminal. The clock is
// injected so tests can drive it. Advance() may be called from several threads.
// The ETA extrapolates the mean time per step of this session (steps skipped at Start, e.g. points
// finished by an earlier run, do not count towards the rate).
// Steps in flight may report their own progress (SetPartial, e.g. a sweep point's iterations), so
// the percentage and the ETA move during one long step, and say what they are doing (SetDetail)
// when one step is long in itself.
#ifndef COMMSIM_ANALYSIS_PROGRESS_H_
#define COMMSIM_ANALYSIS_PROGRESS_H_

#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace commsim {

class Progress {
 public:
  enum class Mode { kQuiet, kTerminal, kLines };
  using Clock = std::function<double()>;  // monotonic seconds

  // `label` starts each line ("sweep"); `unit` names the steps ("points").
  Progress(std::string label, std::string unit, std::FILE* out, Mode mode,
           Clock clock = SteadyClock(), double line_interval_s = 10.0, double tick_s = 0.0);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  static Mode ModeFor(std::FILE* out, bool quiet);
  static Clock SteadyClock();

  // `total` steps of which `already_done` were done before this session.
  void Start(size_t total, size_t already_done = 0);
  // Advances by `steps`; also clears the calling thread's partial progress.
  void Advance(size_t steps = 1);
  // The calling thread's step in flight is `fraction` (clamped to [0, 1]) done.
  void SetPartial(double fraction);
  // What the calling thread's step in flight is doing (e.g. "sgd: 3.1M events, simulated
  // 0.42 s"), shown after the status until the thread advances.
  void SetDetail(std::string detail);
  // Prints one line of its own (e.g. "sgd finished"), above the status line in terminal mode;
  // nothing when quiet.
  void Note(const std::string& line);
  // Prints the final state (and ends the terminal line).
  void Finish();

  // The status text for the current state, e.g. "sweep: 5/13 points (38%), elapsed 12s, ETA 20s".
  std::string Status() const;

 private:
  std::string StatusLocked() const;
  void PrintLocked(bool final);
  void PeriodicLocked();
  void StopTicker();

  const std::string label_;
  const std::string unit_;
  std::FILE* const out_;
  const Mode mode_;
  const Clock clock_;
  const double line_interval_s_;
  const double tick_s_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::thread ticker_;
  size_t total_ = 0;
  size_t skipped_ = 0;
  size_t done_ = 0;                                // in this session
  std::map<std::thread::id, double> partial_;      // steps in flight, by the thread running them
  std::map<std::thread::id, std::string> detail_;  // their details, likewise
  double start_s_ = 0;
  double last_line_s_ = 0;
  bool finished_ = false;
};

// "0.4s", "12s", "3m05s", "2h07m".
std::string FormatDuration(double seconds);
// A detail for a long simulated step: "sgd: 3.1M events, simulated 0.42 s".
std::string EventsDetail(std::string_view label, int64_t events, double sim_s);

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_PROGRESS_H_
