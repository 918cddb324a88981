// Trajectory: what one algorithm entry's learning produced, kept so that the same driver can
// re-time it on another network without doing the mathematics again (trajectory reuse in sweeps,
// `commsim run --trace`, `commsim retime`).
//
// Recorded per round k (1-based), by slot: every message the entry's rule produced (parameter
// server: slot w = worker w's uplink, slot n = the downlink), as its shape: payload bits, codec
// name, elements, nonzeros and parts; everything the network and the codec time model read, no
// payload. Distinct shapes are stored once. Recorded per recorded iteration: the learning fields
// of its record (loss, distance to the optimum, test accuracy, consensus distance, density,
// extras); the timing fields are not kept. Compute times are not kept either: a replay samples
// them again from its own compute model (their random stream is separate from the learning's, so
// a different compute model changes timing only).
// Replay (RunSetup::replay): the family's replay rule returns the recorded shapes, the
// RunRecorder takes the recorded learning fields instead of evaluating the model, and the driver
// plays every round as usual on the run's network, compute and codec models.
// A trajectory is valid only for the same scenario up to timing keys; the caller checks
// (scenarios/trajectory_reuse.h). Asking for a round, slot or iteration that was not recorded
// throws std::runtime_error (the run then ends with status "error").
#ifndef COMMSIM_ALGORITHMS_TRAJECTORY_H_
#define COMMSIM_ALGORITHMS_TRAJECTORY_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "compression/message.h"
#include "records/records.h"

namespace commsim {

// A message without its bits. `codec` is a registered compressor's name (static storage) or "".
struct MessageShape {
  int64_t payload_bits = 0;
  std::string_view codec = {};
  int64_t elements = 0;
  int64_t nonzeros = -1;
  std::vector<MessageShape> parts = {};

  bool operator==(const MessageShape& other) const = default;
};

MessageShape ShapeOf(const Message& message);
// A message of that shape with no words (the network and the codec clock never read them).
Message MessageOf(const MessageShape& shape);

// Consecutive rounds that carry the same messages: `count` rounds, one shape id per slot
// (Trajectory::kNoMessage for none).
struct RoundRun {
  int64_t count = 0;
  std::vector<int32_t> slots = {};

  bool operator==(const RoundRun& other) const = default;
};

class Trajectory {
 public:
  static constexpr int32_t kNoMessage = -1;

  // Recording: the message of `slot` in round `round` (1-based). REQUIRES: round >= 1, slot >= 0,
  // and round >= every round recorded before (a round is complete once a later one starts).
  void AddMessage(int64_t round, int slot, const Message& message);
  // Recording ends: keeps the learning fields of `records` (the run's records, in order).
  void SetLearning(const std::vector<IterationRecord>& records);

  // Replay: the message of `slot` in round `round`; throws std::runtime_error when not recorded.
  Message MessageAt(int64_t round, int slot) const;
  // Replay: whether `slot` carries a message in round `round`.
  bool HasMessage(int64_t round, int slot) const;
  // Replay: fills r's learning fields from the recorded iteration r.iteration; throws
  // std::runtime_error when that iteration was not recorded.
  void FillLearning(IterationRecord& r) const;

  // The stored data (trace files, scenarios/trace_file.h): rounds in order as runs of equal
  // rounds, each slot indexing shapes().
  const std::vector<MessageShape>& shapes() const { return shapes_; }
  const std::vector<RoundRun>& runs() const { return runs_; }
  int64_t rounds() const { return run_end_.empty() ? 0 : run_end_.back(); }
  const std::vector<IterationRecord>& learning() const { return learning_; }
  // Rebuilds a trajectory from stored data. REQUIRES (callers validate): every slot is
  // kNoMessage or < shapes.size(); every count >= 1; `learning` has increasing iterations.
  static Trajectory FromParts(std::vector<MessageShape> shapes, std::vector<RoundRun> runs,
                              std::vector<IterationRecord> learning);

 private:
  int32_t Intern(const MessageShape& shape);
  int32_t ShapeAt(int64_t round, int slot) const;             // the shape id, or kNoMessage
  void AppendRun(int64_t count, std::vector<int32_t> slots);  // merges with an equal last run
  void CloseRound();                                          // appends the open round

  std::vector<MessageShape> shapes_;
  std::map<std::string, int32_t> shape_index_;  // by a canonical key of the shape
  std::vector<RoundRun> runs_;
  std::vector<int64_t> run_end_;  // rounds up to and including each run
  int64_t open_round_ = 0;        // recording: the round being filled (0: none)
  std::vector<int32_t> open_slots_;
  std::vector<IterationRecord> learning_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_TRAJECTORY_H_
