// Timing helpers shared by the bench programs: wall and user CPU time of one call, and the
// allocator set-up of the commsim program.
#ifndef COMMSIM_BENCH_BENCH_TIMING_H_
#define COMMSIM_BENCH_BENCH_TIMING_H_

#include <malloc.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdlib>

namespace bench {

inline double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// User CPU time of this process: leaves out the kernel's page-fault work, whose cost swings with
// what else the machine runs.
inline double CpuNow() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec) + 1e-6 * static_cast<double>(u.ru_utime.tv_usec);
}

struct Timing {
  double wall_s = 0, cpu_s = 0;
};

// Runs f once, in wall and in process CPU time.
template <class F>
Timing Time(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  const double cpu = CpuNow();
  f();
  return {Seconds(start), CpuNow() - cpu};
}

// The allocator as the commsim program sets it up (app/main.cc): no mmap for large blocks, no
// heap trimming, one arena; COMMSIM_MMAP=1 in the environment leaves glibc's defaults.
inline void UseCommsimAllocator() {
  if (std::getenv("COMMSIM_MMAP") != nullptr) return;
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_ARENA_MAX, 1);
}

}  // namespace bench

#endif  // COMMSIM_BENCH_BENCH_TIMING_H_
