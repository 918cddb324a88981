#include "algorithms/trajectory.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "base/check.h"

namespace commsim {
namespace {

void AppendKey(const MessageShape& s, std::string& key) {
  key += fmt::format("{} {} {} {} {} (", s.payload_bits, s.codec, s.elements, s.nonzeros,
                     s.parts.size());
  for (const MessageShape& p : s.parts) AppendKey(p, key);
  key += ')';
}

// A To (Message or MessageShape) with the shape fields of `from`, parts included.
template <class To, class From>
To WithShapeOf(const From& from) {
  To to{.payload_bits = from.payload_bits,
        .codec = from.codec,
        .elements = from.elements,
        .nonzeros = from.nonzeros};
  for (const auto& part : from.parts) to.parts.push_back(WithShapeOf<To>(part));
  return to;
}

// The learning fields a trajectory keeps: loss, distances, accuracy, density, extras (not the
// iteration, label, timing, bits or status).
void CopyLearning(const IterationRecord& from, IterationRecord& to) {
  to.loss = from.loss;
  to.dist_to_opt_sq = from.dist_to_opt_sq;
  to.test_accuracy = from.test_accuracy;
  to.consensus_dist = from.consensus_dist;
  to.density = from.density;
  to.extra = from.extra;
}

}  // namespace

MessageShape ShapeOf(const Message& message) { return WithShapeOf<MessageShape>(message); }

Message MessageOf(const MessageShape& shape) { return WithShapeOf<Message>(shape); }

int32_t Trajectory::Intern(const MessageShape& shape) {
  std::string key;
  AppendKey(shape, key);
  const auto [it, added] =
      shape_index_.emplace(std::move(key), static_cast<int32_t>(shapes_.size()));
  if (added) shapes_.push_back(shape);
  return it->second;
}

void Trajectory::AppendRun(int64_t count, std::vector<int32_t> slots) {
  if (!runs_.empty() && runs_.back().slots == slots) {
    runs_.back().count += count;
    run_end_.back() += count;
    return;
  }
  run_end_.push_back(rounds() + count);
  runs_.push_back(RoundRun{.count = count, .slots = std::move(slots)});
}

void Trajectory::CloseRound() {
  if (open_round_ == 0) return;
  if (open_round_ > rounds() + 1) AppendRun(open_round_ - rounds() - 1, {});  // empty rounds
  AppendRun(1, std::move(open_slots_));
  open_slots_.clear();
  open_round_ = 0;
}

void Trajectory::AddMessage(int64_t round, int slot, const Message& message) {
  COMMSIM_CHECK(round >= 1 && slot >= 0 && round > rounds(),
                "trajectory: slot {} of round {} after round {} was complete", slot, round,
                rounds());
  if (round != open_round_) {
    COMMSIM_CHECK(round > open_round_, "trajectory: round {} after round {}", round, open_round_);
    CloseRound();
    open_round_ = round;
  }
  if (open_slots_.size() <= static_cast<size_t>(slot)) open_slots_.resize(slot + 1, kNoMessage);
  open_slots_[static_cast<size_t>(slot)] = Intern(ShapeOf(message));
}

void Trajectory::SetLearning(const std::vector<IterationRecord>& records) {
  CloseRound();
  learning_.clear();
  for (const IterationRecord& r : records) {
    IterationRecord l;
    l.iteration = r.iteration;
    CopyLearning(r, l);
    learning_.push_back(std::move(l));
  }
}

int32_t Trajectory::ShapeAt(int64_t round, int slot) const {
  const auto run = std::lower_bound(run_end_.begin(), run_end_.end(), round);
  if (round < 1 || run == run_end_.end() || slot < 0) return kNoMessage;
  const std::vector<int32_t>& slots = runs_[static_cast<size_t>(run - run_end_.begin())].slots;
  return static_cast<size_t>(slot) < slots.size() ? slots[slot] : kNoMessage;
}

bool Trajectory::HasMessage(int64_t round, int slot) const {
  return ShapeAt(round, slot) != kNoMessage;
}

Message Trajectory::MessageAt(int64_t round, int slot) const {
  if (const int32_t shape = ShapeAt(round, slot); shape != kNoMessage) {
    return MessageOf(shapes_[static_cast<size_t>(shape)]);
  }
  throw std::runtime_error(fmt::format(
      "the trajectory has no message {} in round {} (it has {} rounds)", slot, round, rounds()));
}

void Trajectory::FillLearning(IterationRecord& r) const {
  const auto it = std::lower_bound(
      learning_.begin(), learning_.end(), r.iteration,
      [](const IterationRecord& l, int64_t iteration) { return l.iteration < iteration; });
  if (it == learning_.end() || it->iteration != r.iteration) {
    throw std::runtime_error(
        fmt::format("the trajectory has no record of iteration {}", r.iteration));
  }
  CopyLearning(*it, r);
}

Trajectory Trajectory::FromParts(std::vector<MessageShape> shapes, std::vector<RoundRun> runs,
                                 std::vector<IterationRecord> learning) {
  Trajectory t;
  for (const MessageShape& s : shapes) t.Intern(s);
  // Duplicate shapes in a file are kept as given so the indices stay valid.
  t.shapes_ = std::move(shapes);
  for (RoundRun& run : runs) t.AppendRun(run.count, std::move(run.slots));
  t.learning_ = std::move(learning);
  return t;
}

}  // namespace commsim
