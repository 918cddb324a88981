// The allocator set-up of the commsim program and of the benchmarks that time its code paths.
//
// commsim's large buffers (model-sized vectors and messages, 10-100 MB each) are allocated and
// freed every round. SetUpProcessMemory, called first thing in main():
// - keeps freed memory in the heap instead of returning it to the kernel (no mmap for large
//   blocks, a 1 GiB trim threshold, one arena for every thread), so a round does not page-fault
//   its buffers in again (docs/performance_log.md has the measurement);
// - backs the heap with transparent huge pages where the kernel offers them on request (THP mode
//   "madvise", as on the machines measured): glibc advises the kernel for its heap only when
//   the tunable glibc.malloc.hugetlb=1 is in the environment at start-up, so the process
//   re-executes itself once (its own file, named by /proc/self/exe, with the same arguments:
//   the process keeps its pid and name) with that tunable added to GLIBC_TUNABLES. 2 MB pages
//   instead of 4 KB ones: the memory a run touches for the first time costs about 200 times fewer
//   page faults (measured at ResNet-18 size: the first point of bandwidth_sweep, six algorithms
//   learning, 7.3 -> 5.9 s with 374k -> 1.8k faults; a ps_sim_bench set-up 0.66 -> 0.54 s; its
//   rounds, on memory already touched, within the noise). Results do not depend on where memory
//   comes from.
// COMMSIM_MMAP=1 in the environment leaves glibc's defaults (and skips the re-execution, e.g.
// under valgrind, which does not follow an exec by default). A tunable the user set for
// glibc.malloc.hugetlb (any value) is kept as it is.
#ifndef COMMSIM_BASE_PROCESS_MEMORY_H_
#define COMMSIM_BASE_PROCESS_MEMORY_H_

#include <optional>
#include <string>
#include <string_view>

namespace commsim {

// See above. argv: main's, for the re-execution. Returns when no re-execution is needed, or when
// it failed (the process then runs on, with 4 KB pages).
void SetUpProcessMemory(char** argv);

// The parts, for tests. Whether the kernel hands out huge pages only on request, from the text of
// /sys/kernel/mm/transparent_hugepage/enabled (the mode in use in brackets: "always [madvise]
// never").
bool HugePagesOnRequest(std::string_view thp_enabled);
// GLIBC_TUNABLES with glibc.malloc.hugetlb=1 added (`current` null: unset), or nullopt when it
// already names glibc.malloc.hugetlb.
std::optional<std::string> TunablesWithHugePages(const char* current);

}  // namespace commsim

#endif  // COMMSIM_BASE_PROCESS_MEMORY_H_
