// Timing helpers shared by the bench programs: wall and CPU time of one call, and the
// allocator set-up of the commsim program.
#ifndef COMMSIM_BENCH_BENCH_TIMING_H_
#define COMMSIM_BENCH_BENCH_TIMING_H_

#include <time.h>

#include <chrono>
#include <cstdlib>

#include "base/process_memory.h"

namespace bench {

inline double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// CPU time of this process, all threads: unlike wall time, it leaves out the time other
// processes hold the cores.
//
// Precise (the scheduler's own count), user and system time together. getrusage's user time is
// not used: the kernel splits a process's precise total between user and system in the ratio of
// sampled clock ticks, so after a setup heavy in page faults the "user" time of a later interval
// is off (one-thread runs of ps_sim_bench showed user CPU 8-18% above their own wall time). The
// timed intervals allocate nothing new (the allocator set-up below), so they fault no pages in.
inline double CpuNow() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct Timing {
  double wall_s = 0, cpu_s = 0;
};

// A point in time on both clocks: seconds of steady wall time and of process CPU time.
struct Mark {
  double wall_s = 0, cpu_s = 0;
};

inline Mark Now() {
  return {
      std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(),
      CpuNow()};
}

// Runs f once, in wall and in process CPU time.
template <class F>
Timing Time(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  const double cpu = CpuNow();
  f();
  return {Seconds(start), CpuNow() - cpu};
}

// The allocator as the commsim program sets it up (base/process_memory.h: large buffers kept in
// the heap, on huge pages where the kernel gives them on request; may re-execute the program
// once); COMMSIM_MMAP=1 in the environment leaves glibc's defaults.
inline void UseCommsimAllocator(char** argv) { commsim::SetUpProcessMemory(argv); }

}  // namespace bench

#endif  // COMMSIM_BENCH_BENCH_TIMING_H_
