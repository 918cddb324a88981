// SyncRounds: the synchronous-round skeleton every algorithm driver shares, on one engine run.
//
// Round k (1-based) starts at the simulated time round k-1 ended (round 1 at the engine's current
// time): the skeleton resets timing() (start = Now) and calls start(k), which schedules the
// round's work (compute, sends). Each party that finishes its part of the round (a worker that
// applied the downlink, a node that combined) calls PartyDone(); when `parties` have, the round
// ends at Now: end_check() runs (it may throw, e.g. NonFiniteError for a non-finite model), the
// recorder records the round, and round k+1 starts at once unless the recorder stopped the run
// (divergence) or k was the last iteration. Rounds are chained by events, never by a loop around
// Engine::Run, so work of one round may overlap the next where a driver schedules it so.
// Errors: an exception from any handler ends the run inside the current round (its timing so far
// counted) with status "diverged" for a NonFiniteError, "error" with the message otherwise
// ("out of memory" for std::bad_alloc). A run whose iteration 0 already diverged runs no round.
// A driver with several steps per round (e.g. a collective) counts its parties when the last
// step of each finishes.
//
// The round vocabulary. The three drivers (ps/ps_driver.cc, decentralized/round_driver.cc,
// collective/collective_driver.cc) name the events of a round alike; a suffix says which message
// when a family has several (Uplink, Downlink, Bucket, Reduce, Gather, Part, Phase):
//   StartRound(k)  the round's start: compute times drawn, every party's first event scheduled
//   ComputeDone    a party's gradient (or local step) is ready; its message goes to its codec lane
//   Encode         an encode job on the sender's codec lane
//   Send           a message handed to the network (algorithms/message_send.h counts it there)
//   Arrive         a message reached its receiver
//   Decode         a decode job on the receiver's codec lane (Decoded: the job has ended)
//   Aggregate      a party combines what it received: the server's bucket, a node's combine, a
//                  worker's reduced gradient
//   PartyDone      (here) a party finished its round; the last one ends it
//   EndRound       the round's end check (a non-finite model stops the run)
#ifndef COMMSIM_ALGORITHMS_SYNC_ROUNDS_H_
#define COMMSIM_ALGORITHMS_SYNC_ROUNDS_H_

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <utility>

#include "algorithms/algorithm.h"
#include "algorithms/run_recorder.h"
#include "base/rng.h"
#include "sim/engine.h"

namespace commsim {

class Objective;

// What every driver does the same way in a round:
// The batch party `worker` uses: the scenario's batch capped at its shard, or the whole shard.
int64_t EffectiveBatch(const RunSetup& setup, const Objective& objective, int worker);
// Fills the objective's metrics of model x into r (loss, distance to the optimum when known, test
// accuracy when the objective has a test set).
void EvaluateModel(const Objective& objective, const Eigen::VectorXd& x, IterationRecord& r);
// Party `worker`'s gradient at x on its batch (EffectiveBatch, drawn with `batch_rng`) into
// grad; throws NonFiniteError "worker W's gradient has a non-finite value" when it has a NaN/Inf.
void WorkerGradient(const RunSetup& setup, int worker, const Eigen::Ref<const Eigen::VectorXd>& x,
                    Rng& batch_rng, Eigen::Ref<Eigen::VectorXd> grad);
// The threads a run of `parties` workers or nodes uses: min(setup.threads, parties), at least 1.
// REQUIRES: setup.threads >= 1.
int RunThreads(const RunSetup& setup, int parties);
// Throws UserError when setup.threads > 1 with codec mode "measured", which times each encode
// in wall time (threads running side by side would distort it).
void CheckThreadsForCodec(const RunSetup& setup);
// Runs f at absolute time t: at once when t is now (so a zero-time codec job adds no event),
// else as an event. REQUIRES: t >= engine.Now().
template <class F>
void RunAt(Engine& engine, SimTime t, F&& f) {
  if (t == engine.Now()) {
    f();
  } else {
    engine.ScheduleAt(t, std::forward<F>(f));
  }
}

class SyncRounds {
 public:
  struct Hooks {
    std::function<void(int64_t round)> start;  // schedules round k's work
    std::function<void()> end_check;           // may be empty
  };

  // REQUIRES: parties >= 1; recorder.Start(evaluate) has run. All references outlive Run().
  SyncRounds(const RunSetup& setup, Engine& engine, RunRecorder& recorder,
             RunRecorder::Evaluate evaluate, int parties, Hooks hooks);
  SyncRounds(const SyncRounds&) = delete;
  SyncRounds& operator=(const SyncRounds&) = delete;

  // Runs rounds 1..setup.iterations (or until stopped) in one Engine::Run.
  void Run();
  // One party finished its part of the current round; `codec_on_path` is the codec time on
  // the critical path to it (the last party's becomes the round's timing().codec).
  void PartyDone(SimTime codec_on_path = SimTime());

  int64_t round() const { return round_; }
  // The current round's timing: drivers add compute and bits to it.
  IterationTiming& timing() { return timing_; }

 private:
  void Start(int64_t k);
  void Stop(const char* status, const std::string& message);

  const RunSetup& setup_;
  Engine& engine_;
  RunRecorder& recorder_;
  RunRecorder::Evaluate evaluate_;
  int parties_;
  Hooks hooks_;
  int64_t round_ = 0;
  int done_ = 0;
  IterationTiming timing_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_SYNC_ROUNDS_H_
