#include "mpi/abort_note.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstring>

namespace commsim::mpi {
namespace {

// Two buffers: the writer fills the one the handler does not read, then publishes it. A handler
// that runs while the note changes twice may print a mixed text, never read out of bounds.
struct NoteBuffer {
  char text[kMaxAbortNoteBytes];
  std::atomic<size_t> size{0};
};
NoteBuffer g_notes[2];
std::atomic<int> g_current{0};

static_assert(std::atomic<int>::is_always_lock_free && std::atomic<size_t>::is_always_lock_free,
              "the signal handler reads these atomics");

void OnTerm(int signal) {
  const NoteBuffer& note = g_notes[g_current.load()];
  const size_t size = std::min(note.size.load(), kMaxAbortNoteBytes);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(STDERR_FILENO, note.text + done, size - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  ::_exit(128 + signal);
}

}  // namespace

void InstallAbortNoteHandler() {
  struct sigaction action {};
  action.sa_handler = OnTerm;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGTERM, &action, nullptr);
}

void SetAbortNote(std::string_view note) {
  const int next = 1 - g_current.load();
  const size_t size = std::min(note.size(), kMaxAbortNoteBytes);
  std::memcpy(g_notes[next].text, note.data(), size);
  g_notes[next].size.store(size);
  g_current.store(next);
}

}  // namespace commsim::mpi
