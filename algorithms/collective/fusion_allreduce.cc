#include "algorithms/collective/fusion_allreduce.h"

#include <algorithm>
#include <utility>

#include "algorithms/collective/framework_plan.h"
#include "algorithms/sync_rounds.h"
#include "base/check.h"

namespace commsim {

FusionAllReduce::FusionAllReduce(const CollectiveWire& wire, std::vector<Bucket> tensors,
                                 int64_t cap, SimTime cycle, std::function<Schedule(int64_t)> make,
                                 const Compressor& codec, std::function<void(int)> on_done)
    : wire_(wire),
      tensors_(std::move(tensors)),
      cap_(cap),
      cycle_(cycle),
      make_(std::move(make)),
      codec_(codec),
      on_done_(std::move(on_done)),
      values_(wire.hosts.size()) {
  COMMSIM_CHECK(cap_ >= 1 && !tensors_.empty(), "fusion: cap {}, {} tensors", cap_,
                tensors_.size());
}

void FusionAllReduce::Load(int rank, const Eigen::Ref<const Eigen::VectorXd>& values) {
  if (!wire_.timing_only) values_[static_cast<size_t>(rank)] = values;
}

void FusionAllReduce::Reset() {
  buffers_.clear();
  next_tensor_ = 0;
  cycle_first_ = 0;
  ranks_left_ = 0;
}

SimTime FusionAllReduce::Begin(SimTime start, std::span<const SimTime> compute) {
  COMMSIM_CHECK(compute.size() == values_.size() && next_tensor_ == 0, "fusion: {} ranks",
                compute.size());
  ready_.assign(tensors_.size(), start);
  for (size_t t = 0; t < tensors_.size(); ++t) {
    for (const SimTime c : compute) {
      ready_[t] = std::max(ready_[t], start + ReadyAfter(c, tensors_[t].ready_fraction));
    }
  }
  const SimTime first = start + NextTick(ready_.front() - start, cycle_);
  RunAt(wire_.network->engine(), start, [this, start] { Cycle(start); });
  return first;
}

// A cycle at `at`: the ready tensors not yet sent, fused into buffers run one after the other.
void FusionAllReduce::Cycle(SimTime at) {
  cycle_start_ = at;
  cycle_first_ = buffers_.size();
  while (next_tensor_ < tensors_.size() && ready_[next_tensor_] <= at) {
    Buffer b;
    const Bucket& first = tensors_[next_tensor_];
    b.offset = first.offset;
    b.size = first.size;
    ++next_tensor_;
    while (next_tensor_ < tensors_.size() && ready_[next_tensor_] <= at &&
           b.size + tensors_[next_tensor_].size <= cap_) {
      const Bucket& t = tensors_[next_tensor_++];
      COMMSIM_CHECK(t.offset + t.size == b.offset, "fusion: tensors not adjacent");
      b.offset = t.offset;
      b.size += t.size;
    }
    const size_t index = buffers_.size();
    b.exec = std::make_unique<AllReduceExec>(wire_, make_(b.size), codec_,
                                             [this, index](int r) { BufferDone(r, index); });
    buffers_.push_back(std::move(b));
  }
  if (buffers_.size() == cycle_first_) {  // nothing ready: the cycle in which the next tensor is
    const SimTime next = at + NextTick(ready_[next_tensor_] - at, cycle_);
    wire_.network->engine().ScheduleAt(next, [this, next] { Cycle(next); });
    return;
  }
  ranks_left_ = static_cast<int>(values_.size());
  for (int r = 0; r < static_cast<int>(values_.size()); ++r) StartBuffer(r, cycle_first_);
}

void FusionAllReduce::StartBuffer(int rank, size_t b) {
  Buffer& buffer = buffers_[b];
  if (!wire_.timing_only) {
    buffer.exec->buffer(rank) =
        values_[static_cast<size_t>(rank)].segment(buffer.offset, buffer.size);
  }
  buffer.exec->Start(rank);
}

void FusionAllReduce::BufferDone(int rank, size_t b) {
  const Buffer& buffer = buffers_[b];
  if (!wire_.timing_only) {
    values_[static_cast<size_t>(rank)].segment(buffer.offset, buffer.size) =
        buffer.exec->buffer(rank);
  }
  if (b + 1 < buffers_.size()) {
    StartBuffer(rank, b + 1);
    return;
  }
  const bool last = next_tensor_ == tensors_.size();
  if (last) on_done_(rank);
  if (--ranks_left_ > 0 || last) return;
  Engine& engine = wire_.network->engine();
  const SimTime next = std::max(engine.Now(), cycle_start_ + cycle_);
  RunAt(engine, next, [this, next] { Cycle(next); });
}

void FusionAllReduce::Sum(int rank, Eigen::Ref<Eigen::VectorXd> out) const {
  if (!wire_.timing_only) out = values_[static_cast<size_t>(rank)];
}

}  // namespace commsim
