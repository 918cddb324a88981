// Horovod's tensor fusion on its background cycle, for the gradient's all-reduce under a
// framework of unit tensor (algorithms/framework.h).
//
// The gradient's tensors come in backward order (models/buckets.h: TensorBuckets), each ready on
// every rank at a time given per round (the slowest rank's: Horovod's coordinator starts a
// collective once every rank has asked for it). The background loop runs cycles: a cycle that
// starts at c takes every tensor ready by c and not yet reduced, in order, and all-reduces it in
// fused buffers of at most `cap` values (a larger tensor alone; consecutive tensors are adjacent
// in the parameter vector, so a buffer is one contiguous range), the buffers one after the other
// (each an AllReduceExec, joined `call` later by every rank: collective_exec.h). The next cycle
// starts at c + cycle or once every rank has finished this cycle's buffers, whichever is later
// (Horovod sleeps out the rest of its cycle); the first starts at the round's start. on_done(r)
// runs when rank r has the sums of every tensor.
// The sums equal a whole-vector all-reduce's up to the order of the floating-point additions.
// A cycle with nothing ready is skipped to the first cycle in which a tensor is ready (cycle 0:
// the loop runs again as soon as a tensor is ready).
// REQUIRES: as AllReduceExec; tensors disjoint, covering [0, d), in backward order; Load for every
// rank before Begin.
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_FUSION_ALLREDUCE_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_FUSION_ALLREDUCE_H_

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "algorithms/collective/collective_exec.h"
#include "models/buckets.h"

namespace commsim {

class FusionAllReduce {
 public:
  // make(length): the schedule for an all-reduce of `length` values.
  FusionAllReduce(const CollectiveWire& wire, std::vector<Bucket> tensors, int64_t cap,
                  SimTime cycle, std::function<Schedule(int64_t)> make, const Compressor& codec,
                  std::function<void(int rank)> on_done);

  const std::vector<Bucket>& tensors() const { return tensors_; }
  // Rank r's d values (kept until the round's sums replace them).
  void Load(int rank, const Eigen::Ref<const Eigen::VectorXd>& values);
  // Starts the round's cycles at `start`, rank r's backward pass taking compute[r]: tensor t is
  // ready on every rank at start + the largest ReadyAfter(compute[r], its ready fraction).
  // Returns the start of the first cycle with a tensor to reduce.
  SimTime Begin(SimTime start, std::span<const SimTime> compute);
  // After on_done(rank): the d sums.
  void Sum(int rank, Eigen::Ref<Eigen::VectorXd> out) const;
  void Reset();

 private:
  struct Buffer {
    int64_t offset = 0, size = 0;
    std::unique_ptr<AllReduceExec> exec;
  };
  void Cycle(SimTime at);
  void StartBuffer(int rank, size_t b);
  void BufferDone(int rank, size_t b);

  CollectiveWire wire_;
  std::vector<Bucket> tensors_;
  int64_t cap_;
  SimTime cycle_;
  std::function<Schedule(int64_t)> make_;
  const Compressor& codec_;
  std::function<void(int)> on_done_;
  std::vector<Eigen::VectorXd> values_;  // per rank: the gradient, then the sums
  std::vector<SimTime> ready_;
  std::vector<Buffer> buffers_;  // the round's, in issue order
  size_t next_tensor_ = 0;       // the first tensor not yet in a buffer
  size_t cycle_first_ = 0;       // the current cycle's first buffer
  SimTime cycle_start_;
  int ranks_left_ = 0;  // ranks still running the current cycle's buffers
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_FUSION_ALLREDUCE_H_
