#include "algorithms/decentralized/node_work.h"

#include <algorithm>
#include <utility>

#include "algorithms/codec_time.h"
#include "algorithms/sync_rounds.h"
#include "base/check.h"

namespace commsim {

NodeWork::NodeWork(const RunSetup& setup, const MixingMatrix& mixing, NodeRule& rule)
    : mixing_(mixing),
      rule_(rule),
      deliver_at_event_(setup.codec.mode == CodecMode::kMeasured),
      pool_(RunThreads(setup, rule.num_nodes())),
      nodes_(static_cast<size_t>(rule.num_nodes())) {
  to_settle_.reserve(nodes_.size());
}

void NodeWork::Steps(int64_t t, int exchange) {
  settled_ = 0;
  exchange_ = exchange;
  pool_.ForEach(static_cast<int64_t>(nodes_.size()), [this, t, exchange](int64_t i, int slot) {
    NodeRound& r = nodes_[static_cast<size_t>(i)];
    r = NodeRound{};
    try {
      const WallTimer timer;
      Outbox out = rule_.StepIn(static_cast<int>(i), t, exchange, slot);
      if (out.all) r.sent.all = Share(std::move(*out.all));
      for (std::optional<Message>& m : out.each) {
        r.sent.each.push_back(m ? Share(std::move(*m)) : nullptr);
      }
      r.step_wall_s = timer.Seconds();
    } catch (...) {
      r.error = std::current_exception();
    }
  });
}

const NodeWork::Sent& NodeWork::Take(int node, double* step_wall_s) {
  NodeRound& r = nodes_[static_cast<size_t>(node)];
  if (r.error) std::rethrow_exception(std::exchange(r.error, nullptr));
  *step_wall_s = r.step_wall_s;
  return r.sent;
}

bool NodeWork::Sends(int from, int k) const {
  const NodeRound& r = nodes_[static_cast<size_t>(from)];
  return r.error || r.sent.all ||
         (static_cast<size_t>(k) < r.sent.each.size() && r.sent.each[k] != nullptr);
}

double NodeWork::Receive(int to, int from, const Message& message) {
  if (!deliver_at_event_) return 0;
  const WallTimer timer;
  rule_.DeliverIn(to, exchange_, mixing_.SlotOf(to, from), message);
  return timer.Seconds();
}

void NodeWork::Due(int node) { nodes_[static_cast<size_t>(node)].due = true; }

void NodeWork::Settle(int64_t t) {
  to_settle_.clear();
  for (size_t i = 0; i < nodes_.size(); ++i) {
    NodeRound& r = nodes_[i];
    if (!r.due || r.settled) continue;
    r.settled = true;  // once, even if it throws (a stop then evaluates what there is)
    to_settle_.push_back(static_cast<int>(i));
  }
  if (to_settle_.empty()) return;
  settled_ += static_cast<int>(to_settle_.size());
  pool_.ForEach(static_cast<int64_t>(to_settle_.size()), [this, t](int64_t k, int /*slot*/) {
    SettleOne(to_settle_[static_cast<size_t>(k)], t);
  });
  if (settled_ == static_cast<int>(nodes_.size())) {  // the exchange is over: free its messages
    for (NodeRound& r : nodes_) r.sent = Sent{};
  }
}

void NodeWork::SettleOne(int node, int64_t t) {
  if (!deliver_at_event_) {
    const std::vector<int>& nb = mixing_.neighbours(node);
    for (size_t k = 0; k < nb.size(); ++k) {
      const Sent& from = nodes_[static_cast<size_t>(nb[k])].sent;
      const SharedMessage& m = from.all            ? from.all
                               : from.each.empty() ? nullptr
                                                   : from.each[mixing_.SlotOf(nb[k], node)];
      if (m != nullptr) rule_.DeliverIn(node, exchange_, static_cast<int>(k), *m);
    }
  }
  rule_.CombineIn(node, t, exchange_);
  nodes_[static_cast<size_t>(node)].finite = rule_.x(node).allFinite();
}

int NodeWork::FirstNonFinite() const {
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i].settled && !nodes_[i].finite) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace commsim
