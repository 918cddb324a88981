// RunRounds: times a NodeRule's rounds on the event engine and records them. The rounds are
// chained by events in one engine run (SyncRounds, algorithms/sync_rounds.h), as in the
// parameter-server driver.
//
// Time model of round t (synchronous rounds; round t+1 starts when every node has combined). A
// round is the rule's exchanges() exchanges in turn; exchange e+1 starts when every node has
// finished exchange e (a barrier, as the round itself):
//   - node i computes once per round, from the start of its compute exchange
//     (rule.compute_exchange(i)), for c_i = compute.Sample(i, b_i) (0 without a compute model),
//     where the effective batch b_i = min(batch, shard_i), or shard_i when batch <= 0 (as the
//     gradient and the parameter-server driver use);
//   - in its compute exchange it sends its messages (StepIn) at the end of its compute, or at the
//     exchange's start when the rule sends_before_compute() (D-PSGD: communication overlaps the
//     compute); in any other exchange at the exchange's start;
//   - a message for every neighbour travels as one unicast copy per neighbour over the network
//     (bits counted per copy), or with setup.broadcast as one multicast (bits counted once: a
//     shared medium); a per-neighbour message as one unicast to its neighbour;
//     wire bits = payload bits + setup.header_bits, counted where it is sent (message_send.h);
//   - each message is decoded at its delivery event (on the receiver's codec lane); node i
//     finishes an exchange when the messages sent to it have arrived and, in its compute exchange
//     when it sends after computing, and in the round's last exchange, its compute is done; the
//     round ends at the last node's end of the last exchange.
// Trajectories record each message in the slot TrajectorySlot (node_rule.h) names.
// The computation behind those events runs on setup.threads threads (node_work.h): every node's
// StepIn at the exchange's start, every node's decodes and CombineIn when it ends; the results
// are those of computing each at its event, for any thread count.
// Records: IterationTiming{round start, round end, slowest compute, up = the round's messages,
// down empty} through the RunRecorder, which stops the run on divergence.
// Divergence, checked every exchange: a NonFiniteError from an encoder, or a node whose model
// holds a NaN/Inf after the exchange, stops the run with status "diverged" in that round
// (recorder.Stop); any other exception stops it with status "error". REQUIRES: node i of the rule
// is host i of the topology (hosts beyond the nodes, e.g. a star's server, stay idle);
// mixing.neighbours(i) are the nodes i exchanges messages with, routed over the topology.
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_ROUND_DRIVER_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_ROUND_DRIVER_H_

#include "algorithms/decentralized/mixing.h"
#include "algorithms/decentralized/node_rule.h"
#include "algorithms/run_recorder.h"

namespace commsim {

void RunRounds(const RunSetup& setup, const MixingMatrix& mixing, NodeRule& rule,
               RunRecorder& recorder, const RunRecorder::Evaluate& evaluate);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_ROUND_DRIVER_H_
