#include "algorithms/collective/collective_exec.h"

#include <utility>

#include "algorithms/message_send.h"
#include "algorithms/trajectory.h"
#include "base/check.h"

namespace commsim {

AllReduceExec::AllReduceExec(const CollectiveWire& wire, Schedule schedule, const Compressor& codec,
                             std::function<void(int rank)> on_done)
    : wire_(wire), schedule_(std::move(schedule)), codec_(codec), on_done_(std::move(on_done)) {
  COMMSIM_CHECK(wire_.network != nullptr && wire_.tally != nullptr &&
                    static_cast<int>(wire_.hosts.size()) == schedule_.num_ranks(),
                "collective wiring: {} hosts for {} ranks", wire_.hosts.size(),
                schedule_.num_ranks());
  ranks_.resize(schedule_.num_ranks());
  if (wire_.timing_only) return;
  for (RankState& r : ranks_) r.buffer.resize(schedule_.dim);
}

void AllReduceExec::Reset() {
  for (RankState& r : ranks_) {
    COMMSIM_CHECK(r.pending.empty(), "a collective message outlived its round");
    r.pc = 0;
    r.started = false;
    r.sent = false;
  }
}

void AllReduceExec::Start(int rank) {
  COMMSIM_CHECK(!ranks_[rank].started, "rank {} started twice", rank);
  wire_.AfterCall([this, rank] {
    ranks_[rank].started = true;
    Advance(rank);
  });
}

void AllReduceExec::Deliver(int to, int from, int tag, const SharedMessage& message) {
  ranks_[to].pending.push_back({from, tag, message});
  if (ranks_[to].started) Advance(to);
}

bool AllReduceExec::StepReady(const RankState& state, const ScheduleStep& step) const {
  for (const ScheduleRecv& recv : step.recvs) {
    bool found = false;
    for (const Arrival& a : state.pending) found |= a.from == recv.peer && a.tag == recv.tag;
    if (!found) return false;
  }
  return true;
}

// The message of `send`'s range (an adopting sender takes the values as decoded).
SharedMessage AllReduceExec::Encode(RankState& state, const ScheduleSend& send) {
  if (wire_.timing_only) {
    SharedMessage& shape = shapes_[send.range.size()];
    if (shape == nullptr) {
      const Eigen::VectorXd zeros = Eigen::VectorXd::Zero(send.range.size());
      shape = Share(MessageOf(ShapeOf(codec_.Encode(zeros, rng_))));
    }
    return shape;
  }
  auto values = state.buffer.segment(send.range.begin, send.range.size());
  SharedMessage message = Share(codec_.Encode(values, rng_));
  if (send.adopt) codec_.Decode(*message, values);
  return message;
}

void AllReduceExec::Combine(RankState& state, const ScheduleRecv& recv, const Message& message) {
  if (wire_.timing_only) return;
  decoded_.resize(recv.range.size());
  codec_.Decode(message, decoded_);
  auto values = state.buffer.segment(recv.range.begin, recv.range.size());
  if (recv.combine == Combine::kAdd) {
    values += decoded_;
  } else {
    values = decoded_;
  }
}

void AllReduceExec::SendStep(int rank, const ScheduleStep& step) {
  for (const ScheduleSend& send : step.sends) {
    const int tag = send.tag;
    wire_.Send(
        rank, send.peer, Encode(ranks_[rank], send),
        [this, to = send.peer, rank, tag](const SharedMessage& m) { Deliver(to, rank, tag, m); });
  }
}

void AllReduceExec::Advance(int rank) {
  RankState& state = ranks_[rank];
  const std::vector<ScheduleStep>& steps = schedule_.ranks[rank];
  while (state.pc < steps.size()) {
    const ScheduleStep& step = steps[state.pc];
    if (!state.sent) {
      SendStep(rank, step);
      state.sent = true;
    }
    if (!StepReady(state, step)) return;
    for (const ScheduleRecv& recv : step.recvs) {  // in the listed order: a fixed sum order
      auto it = state.pending.begin();
      while (it->from != recv.peer || it->tag != recv.tag) ++it;
      Combine(state, recv, *it->message);
      state.pending.erase(it);
    }
    ++state.pc;
    state.sent = false;
  }
  state.started = false;  // done: later calls find nothing to do
  on_done_(rank);
}

AllGatherExec::AllGatherExec(const CollectiveWire& wire, std::function<void(int rank)> on_done)
    : wire_(wire), on_done_(std::move(on_done)) {
  COMMSIM_CHECK(wire_.network != nullptr && wire_.tally != nullptr && !wire_.hosts.empty(),
                "collective wiring");
  ranks_.resize(wire_.hosts.size());
  Reset();
}

void AllGatherExec::Reset() {
  for (RankState& r : ranks_) {
    r.slots.assign(ranks_.size(), nullptr);
    r.step = 0;
    r.started = false;
  }
}

void AllGatherExec::Start(int rank, SharedMessage own) {
  RankState& state = ranks_[rank];
  COMMSIM_CHECK(!state.started && own != nullptr, "rank {} started twice", rank);
  wire_.AfterCall([this, rank, own = std::move(own)]() mutable {
    RankState& joined = ranks_[rank];
    joined.slots[rank] = std::move(own);
    joined.started = true;
    Advance(rank);
  });
}

void AllGatherExec::Deliver(int to, int origin, const SharedMessage& message) {
  ranks_[to].slots[origin] = message;
  if (ranks_[to].started) Advance(to);
}

// Step s forwards the message of rank (i - s) mod n, received in step s - 1 (own at s = 0).
void AllGatherExec::Advance(int rank) {
  RankState& state = ranks_[rank];
  const int n = static_cast<int>(ranks_.size());
  const int next = (rank + 1) % n;
  while (state.step < n - 1) {
    const int origin = ((rank - state.step) % n + n) % n;
    const SharedMessage& m = state.slots[origin];
    if (m == nullptr) return;
    wire_.Send(rank, next, m,
               [this, next, origin](const SharedMessage& got) { Deliver(next, origin, got); });
    ++state.step;
  }
  for (const SharedMessage& m : state.slots) {
    if (m == nullptr) return;
  }
  state.started = false;
  state.step = n;  // done: later calls find nothing to do
  on_done_(rank);
}

}  // namespace commsim
