// NodeWork: the per-node computation of a decentralized round (node_rule.h) on RunSetup::threads
// threads, for the round driver (round_driver.h), which keeps every simulated time it had.
//
// An exchange of a round (node_rule.h) is synchronous: every node's StepIn inputs (its model, its
// state, its Rng streams) are final when the exchange starts, so Steps(t, e) runs every node's
// StepIn(i, t, e, slot) at once, in parallel (base/thread_pool.h); the driver's events then only
// take the messages (Take) at the simulated times they always had. Deliveries and combines are
// kept for Settle, which runs each node's deliveries (in neighbour-slot order) then its
// CombineIn, the nodes in parallel. This gives
// the models, bit for bit, of a driver that decodes at each arrival and combines at each node's
// event: by the rule's contract a delivery touches only its slot, a combine only its node, and
// nothing reads a node's model before the exchange ends, except the evaluation of a run that stops
// inside the exchange. So the driver calls Due(i) at the event where node i combines and settles
//   - at the exchange's end (every node due), before the next exchange's Steps and, after the
//     round's last exchange, before it checks the models (FirstNonFinite);
//   - before a stop's evaluation: the nodes due by then, the ones that had combined.
// With codec mode "measured" each decode is timed at its arrival (Receive decodes there, on the
// driver's thread); CheckDecentralized refuses that mode with more than one thread.
// Errors: Take(i) rethrows node i's StepIn exception (e.g. a NonFiniteError from its encoder) at
// node i's event, as when it stepped there; Settle rethrows the lowest node's exception.
// Memory: the rule's per-thread scratch, and the exchange's messages until it has settled.
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_NODE_WORK_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_NODE_WORK_H_

#include <cstdint>
#include <exception>
#include <vector>

#include "algorithms/algorithm.h"
#include "algorithms/decentralized/mixing.h"
#include "algorithms/decentralized/node_rule.h"
#include "base/thread_pool.h"
#include "compression/message.h"

namespace commsim {

class NodeWork {
 public:
  // REQUIRES: the rule was built with NodeRuleContext::threads >= RunThreads(setup, its nodes)
  // (algorithms/sync_rounds.h); `mixing` and `rule` outlive this.
  NodeWork(const RunSetup& setup, const MixingMatrix& mixing, NodeRule& rule);

  // A node's messages of an exchange (Outbox, shared): `all` for every neighbour, or `each` per
  // neighbour slot (nullptr: none to that neighbour).
  struct Sent {
    SharedMessage all;
    std::vector<SharedMessage> each;
  };
  // Every node's StepIn of exchange e of round t; starts the exchange (nothing is due).
  void Steps(int64_t t, int exchange);
  // Node i's messages of the exchange, with the wall seconds its StepIn took; rethrows its
  // exception.
  const Sent& Take(int node, double* step_wall_s);
  // Whether `from` sends to its neighbour slot k this exchange (true when its StepIn threw).
  bool Sends(int from, int k) const;
  // `from`'s message arrives at `to`: decoded now (returns its wall seconds) in measured mode,
  // else kept for Settle (returns 0).
  double Receive(int to, int from, const Message& message);
  // Node i has stepped and received every message sent to it: its combine is due.
  void Due(int node);
  // Deliveries and CombineIn of the current exchange of round t for every due node not yet
  // settled.
  void Settle(int64_t t);
  // The lowest node whose model is not finite after it settled, or -1.
  int FirstNonFinite() const;

 private:
  struct NodeRound {
    Sent sent;
    double step_wall_s = 0;
    std::exception_ptr error;
    bool due = false, settled = false, finite = true;
  };
  void SettleOne(int node, int64_t t);

  const MixingMatrix& mixing_;
  NodeRule& rule_;
  bool deliver_at_event_;
  ThreadPool pool_;
  std::vector<NodeRound> nodes_;
  std::vector<int> to_settle_;  // Settle's nodes
  int settled_ = 0;
  int exchange_ = 0;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_NODE_WORK_H_
