// Trajectory reuse: run an entry's learning once, then re-time its recorded trajectory
// (algorithms/trajectory.h) wherever only timing differs: the points of a sweep whose axes are
// all timing keys, and `commsim retime` of a trace with timing keys changed.
//
// Timing keys (JSON pointers into a scenario; array indices allowed below a list key):
//   /header_bits
//   /network/{model, queue, mtu, protocol, framing, tcp_timestamps, tcp_handshake,
//             tcp_slow_start, downlink}
//   /network/topology/K and /algorithms/N/topology/K for a link key K: bandwidth(s),
//             latency/latencies, with any prefix (worker_, server_, host_, core_, aggregation_,
//             access_, bottleneck_), and oversubscription
//   /compute/{mode, seconds, device, flops_per_s, efficiency, slowdown, jitter} (jitter has its
//             own random stream)
//   /codec/K and /algorithms/N/codec/K for K in {mode, device, profile, server_threads}
// Anything else (seed, workers, iterations, batch, step, model, data, compressors, topology
// shape, compute overlap and bucket size, which change what is compressed, ...) may change
// learning: no reuse. An entry is re-timed only when its algorithm's registry line says its
// learning ignores time and its driver can replay (Algorithm::can_replay), its trajectory ended
// with status ok, and its codec mode is not `measured` (a replay has no real work to time). A
// replay that does not end ok (e.g. a simulation limit on the new network) is run again in full,
// and noted (TrajectoryStore::relearned) for the commands to say so.
#ifndef COMMSIM_SCENARIOS_TRAJECTORY_REUSE_H_
#define COMMSIM_SCENARIOS_TRAJECTORY_REUSE_H_

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/trajectory.h"
#include "models/objective.h"
#include "records/records.h"

namespace commsim {

// True when `pointer` is a timing key (above).
bool IsTimingPointer(const std::string& pointer);

// Trajectories by entry index (and the objective), shared by the runs of one sweep (any threads) or
// loaded from a trace file. Thread-safe.
class TrajectoryStore {
 public:
  // Entry `entry`'s trajectory, or nullptr: then the caller must record it and call Publish or
  // Abandon. While another caller records it, waits for that one.
  std::shared_ptr<const Trajectory> Acquire(size_t entry);
  void Publish(size_t entry, std::shared_ptr<const Trajectory> trajectory);
  void Abandon(size_t entry);
  // Without waiting: the entry's trajectory or nullptr.
  std::shared_ptr<const Trajectory> Find(size_t entry) const;

  // The objective of every run that uses this store: `build()` at the first call, then the same
  // one (the runs differ in timing keys only, which never change the objective; Objective is
  // thread-safe). Callers wait while another builds it.
  std::shared_ptr<const Objective> SharedObjective(
      const std::function<std::shared_ptr<const Objective>()>& build);

  void CountReplay();
  size_t replayed() const;  // entries re-timed from a trajectory
  size_t recorded() const;  // trajectories published

  // A replay of entry `entry` that did not end ok (`why`: its status and message), so it was
  // learned again in full; the commands print these as notes.
  struct Relearned {
    size_t entry = 0;
    std::string why;
  };
  void NoteRelearned(size_t entry, std::string why);
  std::vector<Relearned> relearned() const;  // in the order noted

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<size_t, std::shared_ptr<const Trajectory>> trajectories_;
  std::map<size_t, bool> recording_;
  size_t replayed_ = 0, recorded_ = 0;
  std::vector<Relearned> relearned_;
  std::mutex objective_mutex_;  // held while the objective is built
  std::shared_ptr<const Objective> objective_;
};

// Runs entry `entry` (algorithm.Run) through `store` (nullptr: a plain run): re-timed from its
// trajectory when it has one and may (above), else run in full and, when it can be replayed
// later, its trajectory recorded and published.
void RunAlgorithmEntry(const Algorithm& algorithm, const RunSetup& setup, size_t entry,
                       TrajectoryStore* store, std::vector<IterationRecord>* records,
                       RunSummary* summary);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_TRAJECTORY_REUSE_H_
