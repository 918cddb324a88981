#include "base/process_memory.h"

#include <malloc.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace commsim {

bool HugePagesOnRequest(std::string_view thp_enabled) {
  return thp_enabled.find("[madvise]") != std::string_view::npos;
}

std::optional<std::string> TunablesWithHugePages(const char* current) {
  constexpr std::string_view kTunable = "glibc.malloc.hugetlb";
  if (current == nullptr || *current == '\0') return std::string(kTunable) + "=1";
  const std::string_view text(current);
  // Tunables are name=value pairs separated by ':'.
  for (size_t start = 0; start <= text.size();) {
    const size_t end = std::min(text.find(':', start), text.size());
    const std::string_view item = text.substr(start, end - start);
    if (item.substr(0, item.find('=')) == kTunable) return std::nullopt;
    start = end + 1;
  }
  return std::string(text) + ":" + std::string(kTunable) + "=1";
}

namespace {

// The program's own file, or "" when it cannot be named (no /proc, or the file was replaced).
// Executed by this path (not /proc/self/exe) the process keeps its name ("commsim" in ps, top and
// pkill, where /proc/self/exe would make it "exe").
std::string OwnPath() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf));
  if (n <= 0 || n >= static_cast<ssize_t>(sizeof(buf))) return "";
  const std::string path(buf, static_cast<size_t>(n));
  if (path.ends_with(" (deleted)")) return "";
  return path;
}

std::string ThpMode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

void SetUpProcessMemory(char** argv) {
  if (std::getenv("COMMSIM_MMAP") != nullptr) return;
  // Not in secure mode (set-user-ID), where glibc drops GLIBC_TUNABLES: it would re-execute again.
  if (getauxval(AT_SECURE) == 0 && HugePagesOnRequest(ThpMode())) {
    const std::optional<std::string> tunables =
        TunablesWithHugePages(std::getenv("GLIBC_TUNABLES"));
    const std::string self = OwnPath();
    if (tunables && !self.empty() && setenv("GLIBC_TUNABLES", tunables->c_str(), 1) == 0) {
      execv(self.c_str(), argv);  // returns only when it failed: run on without
    }
  }
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_ARENA_MAX, 1);
}

}  // namespace commsim
