// Long work from Python: runs it off the Python thread, so that progress and Ctrl-C reach Python
// while it runs.
#ifndef COMMSIM_PYTHON_BACKGROUND_H_
#define COMMSIM_PYTHON_BACKGROUND_H_

#include <atomic>
#include <functional>

namespace commsim::python {

// Runs `work` on a thread of its own with the GIL released (so a Python compressor can run in
// it), while the calling thread, a Python thread, wakes every 0.1 s and, holding the GIL, checks
// for signals (Ctrl-C: KeyboardInterrupt) and calls `poll` (progress). On a Python exception (the
// interrupt, or one raised by poll) it sets `cancel`, which `work` must watch, waits for `work`
// to end and raises that exception; else an exception thrown by `work` is rethrown.
// `poll` is not called after `work` has ended.
// REQUIRES: the GIL is held.
void RunInBackground(const std::function<void()>& work, const std::function<void()>& poll,
                     std::atomic<bool>& cancel);

}  // namespace commsim::python

#endif  // COMMSIM_PYTHON_BACKGROUND_H_
