// Layer-wise overlap of a gradient all-reduce, as PyTorch DDP does it: the d values are cut into
// buckets (models/buckets.h, in send order: the backward pass releases the last layers first),
// each all-reduced by its own schedule (an AllReduceExec over the bucket's values). A rank starts
// bucket k's all-reduce once the bucket is ready (Ready(rank, k)) and its all-reduce of bucket
// k - 1 is done: one stream per rank, collectives in the order they were issued, as NCCL runs them
// on one communicator. on_done(rank) runs when the rank has the sums of every bucket.
// The sums equal a whole-vector all-reduce's up to the order of the floating-point additions
// (each bucket is cut into the schedule's chunks on its own).
// REQUIRES: as AllReduceExec; buckets disjoint, covering [0, d); Ready(rank, k) called in order
// k = 0, 1, ... for each rank, after Load(rank, ...).
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_BUCKETED_ALLREDUCE_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_BUCKETED_ALLREDUCE_H_

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <vector>

#include "algorithms/collective/collective_exec.h"
#include "models/buckets.h"

namespace commsim {

class BucketedAllReduce {
 public:
  // make(length): the schedule for an all-reduce of `length` values.
  BucketedAllReduce(const CollectiveWire& wire, std::vector<Bucket> buckets,
                    const std::function<Schedule(int64_t)>& make, const Compressor& codec,
                    std::function<void(int rank)> on_done);

  const std::vector<Bucket>& buckets() const { return buckets_; }
  // Rank r's d values, copied into the buckets' buffers.
  void Load(int rank, const Eigen::Ref<const Eigen::VectorXd>& values);
  void Ready(int rank, int bucket);
  // After on_done(rank): the d sums.
  void Sum(int rank, Eigen::Ref<Eigen::VectorXd> out);
  void Reset();

 private:
  struct RankState {
    int ready = 0;  // buckets released so far
    int next = 0;   // the bucket to all-reduce next
    bool running = false;
  };
  void TryStart(int rank);
  void BucketDone(int rank);

  std::vector<Bucket> buckets_;
  std::vector<std::unique_ptr<AllReduceExec>> execs_;  // one per bucket
  std::function<void(int)> on_done_;
  std::vector<RankState> ranks_;
  bool timing_only_;  // CollectiveWire::timing_only: Load and Sum move no values
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_BUCKETED_ALLREDUCE_H_
