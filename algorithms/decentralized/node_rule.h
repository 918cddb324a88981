// NodeRule: the per-node state and update rule of a decentralized algorithm, split into the
// phases the round driver times. Round t (0-based) at node i:
//   Step(i, t, slot)  local computation (stochastic gradient, local step) and encoding; returns the
//                     message i sends to every neighbour this round (the driver sends it; it keeps
//                     no copy). `slot` names the scratch memory the call may use (below).
//   Deliver(i, k, m)  the round-t message of neighbours(i)[k] arrives at i; i decodes and applies
//                     it (m is valid only during the call).
//   Combine(i, t)     after Step(i, t) and all deg(i) deliveries: mix and finish the round.
// Contract for every implementation:
//   - The result does not depend on the order of deliveries within a round (each neighbour's
//     message touches only that neighbour's slot; Combine sums the slots in neighbour order), so
//     the event-driven driver and RunSynchronousRound give bit-identical states.
//   - Randomness only from per-node streams DeriveSeed(seed, node, "batch"/"compress").
//   - The proximal step of an l1 weight lambda (soft threshold by gamma_t * lambda) ends Combine
//     when lambda > 0.
//   - Step does not change x(i) (a run stopped inside a round evaluates the models as they were
//     before the nodes that had not combined yet).
//   - Threads (RunSetup::threads, the driver's node_work.h): Step calls for different nodes may
//     run at the same time, each with its own slot in [0, NodeRuleContext::threads); so may the
//     calls Deliver(i, ..)... then Combine(i, t) of different nodes. Each call writes only node i's
//     state and its slot's scratch (which carries nothing from one call to the next), and reads
//     only those, the message and what no call writes (mixing, compressor, objective).
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_NODE_RULE_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_NODE_RULE_H_

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "algorithms/decentralized/mixing.h"
#include "algorithms/step_schedule.h"
#include "base/check.h"
#include "base/rng.h"
#include "compression/compressors/compressor.h"

namespace commsim {

class Objective;

// What every rule is built from. Pointers are borrowed and must outlive the rule.
struct NodeRuleContext {
  const MixingMatrix* mixing = nullptr;
  const Compressor* compressor = nullptr;
  const Objective* objective = nullptr;  // nullptr: gossip only (no gradient step)
  int64_t dim = 0;
  StepConfig step = StepConfig();
  int64_t batch = 0;     // samples per node per round; <= 0: full shard
  double prox_l1 = 0.0;  // lambda of the proximal step; 0 = none
  uint64_t seed = 1;
  int threads = 1;  // Step's slots: [0, threads). REQUIRES: >= 1.
};

class NodeRule {
 public:
  virtual ~NodeRule() = default;
  virtual int num_nodes() const = 0;
  // True when Step's message does not depend on the round's gradient (D-PSGD sends x_i^t), so the
  // driver sends at the start of the round and overlaps communication with computation.
  virtual bool sends_before_compute() const = 0;
  virtual Message Step(int node, int64_t t, int slot) = 0;
  virtual void Deliver(int node, int slot, const Message& message) = 0;
  virtual void Combine(int node, int64_t t) = 0;
  // The node's model x_i.
  virtual const Eigen::VectorXd& x(int node) const = 0;
  virtual void SetX(int node, const Eigen::Ref<const Eigen::VectorXd>& x) = 0;
};

// What every shipped rule keeps per node: its model x and its two random streams, "batch" (the
// gradient's sampling) and "compress" (the compressor's draws), derived from the context's seed
// and the node index. A rule's own per-node state derives from it.
struct GossipNode {
  GossipNode(const NodeRuleContext& context, int node, const Eigen::Ref<const Eigen::VectorXd>& x0)
      : x(x0),
        batch_rng(context.seed, node, "batch"),
        compress_rng(context.seed, node, "compress") {}
  Eigen::VectorXd x;
  Rng batch_rng, compress_rng;
};

// NodesRule<Node>: a NodeRule that keeps one Node (derived from GossipNode, constructible as
// Node(context, node, x0)) per node of the mixing matrix, and the context; it supplies
// num_nodes(), x() and SetX().
template <class Node>
class NodesRule : public NodeRule {
 public:
  int num_nodes() const final { return static_cast<int>(nodes_.size()); }
  const Eigen::VectorXd& x(int node) const final { return nodes_[node].x; }
  void SetX(int node, const Eigen::Ref<const Eigen::VectorXd>& x) final { nodes_[node].x = x; }

 protected:
  // REQUIRES: context.mixing and context.compressor set, x0.size() == context.dim.
  NodesRule(const NodeRuleContext& context, const Eigen::Ref<const Eigen::VectorXd>& x0)
      : context_(context) {
    COMMSIM_CHECK(context.mixing != nullptr && context.compressor != nullptr, "incomplete context");
    COMMSIM_CHECK(x0.size() == context.dim, "x0 has {} entries, dim is {}", x0.size(), context.dim);
    const int n = context.mixing->num_nodes();
    nodes_.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) nodes_.emplace_back(context, i, x0);
  }

  NodeRuleContext context_;
  std::vector<Node> nodes_;
};

// One round of every node in a plain loop on one thread (slot 0): Step all, deliver every
// message, Combine all.
// Returns the payload bits of the round (sum over nodes of one message each).
int64_t RunSynchronousRound(NodeRule& rule, const MixingMatrix& mixing, int64_t t);

// x <- sign(x) * max(|x| - threshold, 0), elementwise. REQUIRES: threshold >= 0.
void SoftThreshold(double threshold, Eigen::Ref<Eigen::VectorXd> x);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_NODE_RULE_H_
