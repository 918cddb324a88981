#include "algorithms/collective/bucketed_allreduce.h"

#include <utility>

#include "base/check.h"

namespace commsim {

BucketedAllReduce::BucketedAllReduce(const CollectiveWire& wire, std::vector<Bucket> buckets,
                                     const std::function<Schedule(int64_t)>& make,
                                     const Compressor& codec, std::function<void(int)> on_done)
    : buckets_(std::move(buckets)),
      on_done_(std::move(on_done)),
      ranks_(wire.hosts.size()),
      timing_only_(wire.timing_only) {
  for (const Bucket& b : buckets_) {
    execs_.push_back(std::make_unique<AllReduceExec>(wire, make(b.size), codec,
                                                     [this](int rank) { BucketDone(rank); }));
  }
}

void BucketedAllReduce::Load(int rank, const Eigen::Ref<const Eigen::VectorXd>& values) {
  if (timing_only_) return;
  for (size_t k = 0; k < buckets_.size(); ++k) {
    execs_[k]->buffer(rank) = values.segment(buckets_[k].offset, buckets_[k].size);
  }
}

void BucketedAllReduce::Ready(int rank, int bucket) {
  RankState& r = ranks_[static_cast<size_t>(rank)];
  COMMSIM_CHECK(bucket == r.ready, "rank {}: bucket {} ready out of order", rank, bucket);
  ++r.ready;
  TryStart(rank);
}

void BucketedAllReduce::TryStart(int rank) {
  RankState& r = ranks_[static_cast<size_t>(rank)];
  if (r.running || r.next >= r.ready) return;
  r.running = true;
  execs_[static_cast<size_t>(r.next)]->Start(rank);
}

void BucketedAllReduce::BucketDone(int rank) {
  RankState& r = ranks_[static_cast<size_t>(rank)];
  r.running = false;
  if (++r.next == static_cast<int>(buckets_.size())) {
    on_done_(rank);
    return;
  }
  TryStart(rank);
}

void BucketedAllReduce::Sum(int rank, Eigen::Ref<Eigen::VectorXd> out) {
  if (timing_only_) return;
  for (size_t k = 0; k < buckets_.size(); ++k) {
    out.segment(buckets_[k].offset, buckets_[k].size) = execs_[k]->buffer(rank);
  }
}

void BucketedAllReduce::Reset() {
  for (auto& e : execs_) e->Reset();
  for (RankState& r : ranks_) r = RankState{};
}

}  // namespace commsim
