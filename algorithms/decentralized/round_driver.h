// RunRounds: times a NodeRule's rounds on the event engine and records them. The rounds are
// chained by events in one engine run (SyncRounds, algorithms/sync_rounds.h), as in the
// parameter-server driver.
//
// Time model of round t (synchronous rounds; round t+1 starts when every node has combined):
//   - node i computes for c_i = compute.Sample(i, b_i) (0 without a compute model), where the
//     effective batch b_i = min(batch, shard_i), or shard_i when batch <= 0 (as the gradient and
//     the parameter-server driver use);
//   - it sends its message (Step) at the end of its compute, or at the start of the round when the
//     rule sends_before_compute() (D-PSGD: communication overlaps the compute);
//   - one unicast copy per neighbour over the network (bits counted per copy), or with
//     setup.broadcast one multicast per node (bits counted once: a shared medium);
//     wire bits = payload bits + setup.header_bits, counted where it is sent (message_send.h);
//   - each message is decoded at its delivery event (on the receiver's codec lane); node i
//     combines when its compute is done and all its neighbours' messages have arrived; the round
//     ends at the last combine.
// The computation behind those events runs on setup.threads threads (node_work.h): every node's
// Step at the round's start, every node's decodes and Combine when the round ends; the results
// are those of computing each at its event, for any thread count.
// Records: IterationTiming{round start, round end, slowest compute, up = the round's messages,
// down empty} through the RunRecorder, which stops the run on divergence.
// Divergence, checked every round: a NonFiniteError from an encoder, or a node whose model holds a
// NaN/Inf after the round, stops the run with status "diverged" in that round (recorder.Stop);
// any other exception stops it with status "error".
// REQUIRES: node i of the rule is host i of the topology (hosts beyond the nodes, e.g. a star's
// server, stay idle); mixing.neighbours(i) are the nodes i exchanges messages with, routed over
// the topology.
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
