// PsRule: the mathematics of one parameter-server algorithm, kept apart from timing.
//
// A round, as the driver (ps_driver.h) plays it on the event engine:
//   1. each worker w computes a gradient at WorkerPoint(w) and calls WorkerEncode(w, ...) for
//      its uplink message (updating its own state: shifts, error memories);
//   2. the server receives the uplinks: ServerReceive(w, uplink) decodes and accumulates each one,
//      in worker order (the driver holds an uplink that arrives before a lower-numbered worker's
//      until that one is in, so the floating-point sums never depend on arrival order);
//   3. after the last, ServerRound(...) updates the server state and returns the one downlink
//      message sent to every worker;
//   4. each worker decodes the downlink itself on arrival and applies it: WorkerReceive(w, ...).
// Each party reads only messages it received and its own state.
// Threads (RunSetup::threads): at the start of a round the driver calls WorkerPoint and
// WorkerEncode for all workers at once, on several threads, before any ServerReceive of the
// round. WorkerEncode(w, ...) may therefore write only worker w's own state and `grad` (a buffer
// of the driver's, the rule's scratch space), and read only worker w's state, WorkerPoint(w) and
// its configuration: no server state, no scratch member shared by the workers, no running sum
// over workers (keep one value per worker and combine them in worker order in ServerRound,
// MeanInWorkerOrder below). Compressors are immutable and may be shared (compressor.h). Every
// other method runs on the driver's thread, one at a time.
// Compressors: a rule builds every compressor it sends with through MakeLink(spec), so the driver
// can stamp messages for the codec time model and, with layer-wise overlap, make every link
// compress bucket by bucket (SetBuckets; compression/codec/link_compressor.h). The rule's
// mathematics is unchanged: it encodes and decodes whole vectors as before.
// Contract: deterministic given the Rng streams passed in; messages are real encodings and every
// party uses decoded values only, so replicas agree bit for bit.
#ifndef COMMSIM_ALGORITHMS_PS_PS_RULE_H_
#define COMMSIM_ALGORITHMS_PS_PS_RULE_H_

#include <Eigen/Core>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/rng.h"
#include "compression/codec/link_compressor.h"
#include "compression/compressors/compressor.h"

namespace commsim {

class Objective;

// The mean of per-worker values, summed in worker order: sum of v[w] / n for w = 0, 1, ... (the
// workers' encodes may run in any order; a metric summed this way does not depend on it).
inline double MeanInWorkerOrder(const std::vector<double>& v) {
  double sum = 0;
  for (const double x : v) sum += x / static_cast<double>(v.size());
  return sum;
}

class PsRule {
 public:
  using ConstVec = Eigen::Ref<const Eigen::VectorXd>;  // a read-only vector argument
  using GradVec = Eigen::Ref<Eigen::VectorXd>;         // a gradient the callee may overwrite

  virtual ~PsRule() = default;
  // Called once before the first round. `objective` supplies the proximal operator.
  virtual void Init(int workers, const ConstVec& x0, const Objective& objective) = 0;
  // The point where worker w evaluates its gradient this round.
  virtual const Eigen::VectorXd& WorkerPoint(int w) const = 0;
  // The same point as dim() floats p with WorkerPoint(w)[j] == double(p[j]), when the rule holds
  // it so (e.g. a model broadcast in fp32), else nullptr (the default). A driver may read it
  // instead of WorkerPoint(w) (Objective::GradientStream::x32), which the rule may then build only
  // when asked. Valid until the next ServerRound; same threading rules as WorkerPoint.
  virtual const float* WorkerPoint32(int /*w*/) const { return nullptr; }
  // `grad` is worker w's gradient at WorkerPoint(w); the rule may overwrite it (it is the
  // worker's scratch, so rules keep no d-vector of their own for the message).
  virtual Message WorkerEncode(int w, GradVec grad, double step, Rng& rng) = 0;
  // An encoder that does WorkerEncode(w, grad, step, rng) when fed worker w's gradient in order
  // (ChunkEncoder, compressor.h): its Finish() gives WorkerEncode's message, with worker w's state
  // updated as WorkerEncode updates it and `rng` left where WorkerEncode leaves it (its draws
  // taken as Compressor::ChunkEncodeWithRng takes them: from rng's state when made); nullptr
  // (the default) when the rule has none. Each chunk may be used with worker w's state (e.g. a
  // shift subtracted) and update it while it is in cache. The driver streams the gradient into it
  // instead of storing it (worker_uplinks.h), with a copy of the worker's uplink Rng as `rng`.
  // When Finish() declines (a value the encoder cannot send: WorkerEncode would throw), worker
  // w's state may hold the updates of the chunks before the failing one, and the driver runs
  // WorkerEncode on it from the old Rng, for its error. Same threading rules as WorkerEncode.
  virtual std::unique_ptr<ChunkEncoder> WorkerChunkEncoder(int /*w*/, Rng& /*rng*/) {
    return nullptr;
  }
  // Server: worker w's uplink of this round (w = 0, 1, ..., workers - 1 in turn).
  virtual void ServerReceive(int w, const Message& uplink) = 0;
  // ServerReceive(w + i, *uplinks[i]) for each i in turn (the default); a rule may take them in
  // one pass (the same results). The driver calls it with every uplink of the round at once where
  // it can wait for the last (not in the measured codec mode, which times each uplink's decode).
  // The messages stay valid until ServerRound has returned (a rule may decode them there).
  virtual void ServerReceiveRun(int w, std::span<const Message* const> uplinks) {
    for (const Message* m : uplinks) ServerReceive(w++, *m);
  }
  // Server, after every uplink of the round: updates its state and returns the downlink.
  virtual Message ServerRound(double step, Rng& rng) = 0;
  // Worker w decodes this round's downlink and applies it to its own state.
  virtual void WorkerReceive(int w, const Message& downlink, double step) = 0;
  // The model evaluated for metrics (the server's model).
  virtual const Eigen::VectorXd& Model() const = 0;
  // True when the last ServerRound found every element of Model() finite in a pass of its own
  // (and Model() has not changed since), so the driver's end-of-round check can skip its pass;
  // false (the default): the driver checks.
  virtual bool ModelKnownFinite() const { return false; }
  // Algorithm-specific metrics of the last round (e.g. residual norms), for metrics.csv.
  virtual void Extra(std::map<std::string, double>& /*out*/) const {}
  // A d-vector of the rule's that holds nothing from the end of ServerRound to the next round's
  // first ServerReceive (a server-side scratch, e.g. the sum of the round's uplinks), or nullptr.
  // The driver lends it out as a gradient buffer (worker_uplinks.h): the workers' gradients and
  // WorkerEncode calls run in that window, and x0 sits in it during Init, so one d-vector serves
  // both. The rule's Init must read x0 before writing the scratch, and WorkerPoint and
  // WorkerEncode must not touch it. Called before Init; the vector may be empty until then.
  virtual Eigen::VectorXd* ServerScratch() { return nullptr; }
  // True when every parameter tensor of the layer profile is its own message, compressed on its
  // own (a per-key push and pull, as MXNet's KVStore does), instead of the whole vector (or the
  // layer-wise buckets). Without a layer profile: the whole vector.
  virtual bool per_tensor() const { return false; }

  // Every link compressor built by MakeLink compresses bucket by bucket from now on (empty: the
  // whole vector). Called by the driver before Init.
  void SetBuckets(const std::vector<Segment>& buckets) {
    for (LinkCompressor* link : links_) link->set_buckets(buckets);
  }

 protected:
  // The registered compressor `spec` as one of this rule's links.
  std::unique_ptr<Compressor> MakeLink(const ComponentSpec& spec) {
    std::unique_ptr<LinkCompressor> link = MakeLinkCompressor(spec);
    links_.push_back(link.get());
    return link;
  }

 private:
  std::vector<LinkCompressor*> links_;  // owned by the rule's members
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_PS_RULE_H_
