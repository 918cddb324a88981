// NodeRule: the per-node state and update rule of a decentralized algorithm, split into the
// phases the round driver times. A round is exchanges() network exchanges, one after the other
// (exchange e + 1 starts when every node has finished exchange e). Exchange e of round t (0-based)
// at node i:
//   StepIn(i, t, e, slot)  local computation and encoding; returns what i sends this exchange
//                     (Outbox: nothing, one message for every neighbour, or one message per
//                     neighbour slot; the driver sends it and keeps no copy). `slot` names the
//                     scratch memory the call may use (below).
//   DeliverIn(i, e, k, m)  the exchange-e message of neighbours(i)[k] to i arrives; i decodes and
//                     applies it (m is valid only during the call).
//   CombineIn(i, t, e)  after StepIn(i, t, e) and the exchange's deliveries to i: mix and finish
//                     the exchange (the round, after the last exchange).
// Node i computes its gradient (the compute time the driver draws) in exchange
// compute_exchange(i). A one-exchange rule that sends one message to every neighbour implements
// only Step(i, t, slot), Deliver(i, k, m) and Combine(i, t): the default StepIn/DeliverIn/
// CombineIn call them. A rule with several exchanges or per-neighbour messages overrides the
// three ...In methods (and exchanges()) instead, and leaves Step/Deliver/Combine alone.
// Contract for every implementation:
//   - The result does not depend on the order of deliveries within an exchange (each
//     neighbour's message touches only that neighbour's slot; Combine sums the slots in neighbour
//     order), so the event-driven driver and RunSynchronousRound give bit-identical states.
//   - Which neighbours a node sends to in an exchange depends only on (node, t, e), never on
//     random draws (the driver counts the messages each node waits for from the outboxes).
//   - Randomness only from per-node streams DeriveSeed(seed, node, "batch"/"compress") (a rule
//     may add streams of its own derived from the context's seed: e.g. per-edge streams that
//     both endpoints draw alike).
//   - The proximal step of an l1 weight lambda (soft threshold by gamma_t * lambda) ends the
//     round's last Combine when lambda > 0.
//   - StepIn does not change x(i) (a run stopped inside an exchange evaluates the models as they
//     were before the nodes that had not combined yet).
//   - Threads (RunSetup::threads, the driver's node_work.h): StepIn calls for different nodes
//     may run at the same time, each with its own slot in [0, NodeRuleContext::threads); so may
//     the calls DeliverIn(i, ..)... then CombineIn(i, t, e) of different nodes. Each call writes
//     only node i's state and its slot's scratch (which carries nothing from one call to the
//     next), and reads only those, the message and what no call writes (mixing, compressor,
//     objective).
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_NODE_RULE_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_NODE_RULE_H_

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
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

// What a node sends in one exchange: nothing (both empty), one message for every neighbour
// (`all`), or one message per neighbour slot (`each`, deg(i) entries; nullopt: none to that
// neighbour).
struct Outbox {
  std::optional<Message> all;
  std::vector<std::optional<Message>> each;
  static Outbox ToAll(Message message) { return Outbox{.all = std::move(message), .each = {}}; }
  // Whether neighbour slot k receives a message.
  bool Addresses(int k) const {
    return all.has_value() || (static_cast<size_t>(k) < each.size() && each[k].has_value());
  }
};

class NodeRule {
 public:
  virtual ~NodeRule() = default;
  virtual int num_nodes() const = 0;
  // True when the messages of node i's compute exchange do not depend on the round's gradient
  // (D-PSGD sends x_i^t), so the driver sends them at the start of the exchange and overlaps
  // communication with computation (the compute then only has to end before the round's last
  // exchange ends).
  virtual bool sends_before_compute() const = 0;
  virtual int exchanges() const { return 1; }
  virtual int compute_exchange(int node) const {
    (void)node;
    return 0;
  }
  virtual Outbox StepIn(int node, int64_t t, int exchange, int slot) {
    COMMSIM_CHECK(exchange == 0, "a one-exchange rule has no exchange {}", exchange);
    return Outbox::ToAll(Step(node, t, slot));
  }
  virtual void DeliverIn(int node, int exchange, int slot, const Message& message) {
    (void)exchange;
    Deliver(node, slot, message);
  }
  virtual void CombineIn(int node, int64_t t, int exchange) {
    (void)exchange;
    Combine(node, t);
  }
  // The one-exchange form (above); a rule that overrides the ...In methods never has them called.
  virtual Message Step(int node, int64_t t, int slot);
  virtual void Deliver(int node, int slot, const Message& message);
  virtual void Combine(int node, int64_t t);
  // Values the run's summary reports besides the family's own (e.g. a privacy parameter).
  virtual std::vector<std::pair<std::string, double>> SummaryExtras() const { return {}; }
  // The node's model x_i.
  virtual const Eigen::VectorXd& x(int node) const = 0;
  virtual void SetX(int node, const Eigen::Ref<const Eigen::VectorXd>& x) = 0;
};

// The slot of a trajectory (algorithms/trajectory.h) that records node i's message in exchange e
// to neighbour slot k (k = -1: its message to every neighbour), in a round of `nodes` nodes whose
// largest degree is max_degree: e n (max_degree + 1) + (k + 1) n + i, so that a one-exchange
// rule's message of node i is slot i.
int TrajectorySlot(int nodes, int max_degree, int exchange, int node, int k);

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

// One round of every node in a plain loop on one thread (slot 0): for each exchange, StepIn all,
// deliver every message, CombineIn all.
// Returns the payload bits of the round (a message to every neighbour counts once, a message per
// neighbour once per neighbour).
int64_t RunSynchronousRound(NodeRule& rule, const MixingMatrix& mixing, int64_t t);

// x <- sign(x) * max(|x| - threshold, 0), elementwise. REQUIRES: threshold >= 0.
void SoftThreshold(double threshold, Eigen::Ref<Eigen::VectorXd> x);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_NODE_RULE_H_
