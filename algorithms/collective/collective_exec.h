// Running collectives on the simulated network: every step is real messages between hosts.
//
// AllReduceExec plays a Schedule (schedule.h): rank r lives on hosts[r]; each send encodes the
// values of its range with the value codec (the identity compressor at the configured width,
// 32 or 64 bits per value), and the receiver decodes the message at delivery. A rank joins when
// the driver calls Start(r) (after its gradient), so its peers' messages that arrive earlier wait
// for it; from then on it runs its program dependency-driven and calls on_done(r) at its end.
// AllGatherExec: each rank contributes one message of its own (any size); ring all-gather over
// the ranks in order: n - 1 steps, in step s rank i forwards the message of rank (i - s) mod n,
// as it was received, to rank i + 1. On completion rank r holds all n messages in rank order.
// Both: wire bits of a message = payload_bits + header_bits, counted into *tally as it is sent.
// The framework's costs (algorithms/framework.h): Start(r) joins `call` later, and every message
// is used transport.Delay(wire bits) after the network delivered it. Both zero: no event added.
// Reset() prepares the next round (every rank must have finished the previous one).
// REQUIRES: the Network, codec and counters outlive the executor; one executor per phase.
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_COLLECTIVE_EXEC_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_COLLECTIVE_EXEC_H_

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <vector>

#include "algorithms/collective/schedule.h"
#include "algorithms/framework.h"
#include "algorithms/message_send.h"
#include "base/rng.h"
#include "compression/compressors/compressor.h"
#include "compression/message.h"
#include "sim/engine.h"
#include "sim/network.h"

namespace commsim {

struct CollectiveWire {
  Network* network = nullptr;
  std::vector<int> hosts;  // rank -> host
  int64_t header_bits = 0;
  WireTally* tally = nullptr;  // what the messages carried (added to)
  // A replay (collective_replay.h): all-reduce messages carry their shape only (the value codec's
  // encoding of that many zeros, without its words); no values are kept, sent or combined, and
  // buffer(rank) is empty.
  bool timing_only = false;
  SimTime call;         // each collective call
  Transport transport;  // the backend's per-message costs

  // Sends `message` from rank `from` to rank `to`, counts its wire bits, and runs
  // deliver(const SharedMessage&) at `to` once the transport has staged it.
  template <class F>
  void Send(int from, int to, SharedMessage message, F deliver) const {
    const int64_t wire_bits = message->payload_bits + header_bits;
    if (transport.zero()) {
      SendMessage(*network, hosts[from], hosts[to], std::move(message), header_bits, *tally,
                  std::move(deliver));
      return;
    }
    SendMessage(
        *network, hosts[from], hosts[to], std::move(message), header_bits, *tally,
        [engine = &network->engine(), delay = transport.Delay(wire_bits), f = std::move(deliver)](
            const SharedMessage& m) { engine->Schedule(delay, [f, m] { f(m); }); });
  }
  // Runs f() after the call cost (at once when it is zero).
  template <class F>
  void AfterCall(F f) const {
    if (call == SimTime()) {
      f();
    } else {
      network->engine().Schedule(call, std::move(f));
    }
  }
};

class AllReduceExec {
 public:
  AllReduceExec(const CollectiveWire& wire, Schedule schedule, const Compressor& codec,
                std::function<void(int rank)> on_done);
  AllReduceExec(const AllReduceExec&) = delete;
  AllReduceExec& operator=(const AllReduceExec&) = delete;

  // Rank r's vector: fill it before Start(r); after on_done(r) it holds the sum.
  Eigen::VectorXd& buffer(int rank) { return ranks_[rank].buffer; }
  void Start(int rank);
  void Reset();

 private:
  struct Arrival {
    int from = 0;
    int tag = 0;
    SharedMessage message;
  };
  struct RankState {
    Eigen::VectorXd buffer;
    size_t pc = 0;  // the step it is at
    bool started = false;
    bool sent = false;  // the current step's sends are out
    std::vector<Arrival> pending;
  };
  void Deliver(int to, int from, int tag, const SharedMessage& message);
  void Advance(int rank);
  void SendStep(int rank, const ScheduleStep& step);
  SharedMessage Encode(RankState& state, const ScheduleSend& send);
  void Combine(RankState& state, const ScheduleRecv& recv, const Message& message);
  bool StepReady(const RankState& state, const ScheduleStep& step) const;

  CollectiveWire wire_;
  Schedule schedule_;
  const Compressor& codec_;
  std::function<void(int)> on_done_;
  std::vector<RankState> ranks_;
  Eigen::VectorXd decoded_;
  std::map<int64_t, SharedMessage> shapes_;  // timing_only: the message of n values, by n
  Rng rng_{0};  // the value codec is deterministic; Encode takes an Rng all the same
};

class AllGatherExec {
 public:
  AllGatherExec(const CollectiveWire& wire, std::function<void(int rank)> on_done);
  AllGatherExec(const AllGatherExec&) = delete;
  AllGatherExec& operator=(const AllGatherExec&) = delete;

  void Start(int rank, SharedMessage own);
  // After on_done(rank): the n messages, message i from rank i.
  std::span<const SharedMessage> messages(int rank) const { return ranks_[rank].slots; }
  void Reset();

 private:
  struct RankState {
    std::vector<SharedMessage> slots;  // by origin rank
    int step = 0;
    bool started = false;
  };
  void Deliver(int to, int origin, const SharedMessage& message);
  void Advance(int rank);

  CollectiveWire wire_;
  std::function<void(int)> on_done_;
  std::vector<RankState> ranks_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_COLLECTIVE_EXEC_H_
