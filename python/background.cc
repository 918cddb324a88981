#include "python/background.h"

#include <pybind11/pybind11.h>

#include <chrono>
#include <exception>
#include <future>
#include <optional>
#include <thread>

namespace py = pybind11;

namespace commsim::python {

void RunInBackground(const std::function<void()>& work, const std::function<void()>& poll,
                     std::atomic<bool>& cancel) {
  std::exception_ptr failure;
  std::promise<void> done;
  std::future<void> finished = done.get_future();
  std::thread thread([&] {
    try {
      work();
    } catch (...) {
      failure = std::current_exception();
    }
    done.set_value();
  });
  std::optional<py::error_already_set> python_error;
  for (;;) {
    bool ready = false;
    {
      py::gil_scoped_release release;
      ready = finished.wait_for(std::chrono::milliseconds(100)) == std::future_status::ready;
    }
    if (ready) break;
    if (python_error) continue;  // cancelled: wait for the work to stop
    try {
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      poll();
    } catch (py::error_already_set& e) {
      python_error.emplace(std::move(e));
      cancel = true;
    }
  }
  thread.join();
  if (python_error) throw *python_error;
  if (failure) std::rethrow_exception(failure);
}

}  // namespace commsim::python
