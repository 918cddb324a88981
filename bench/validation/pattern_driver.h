// PatternDriver: runs one traffic pattern of a NetCase over a simulator's Transport, with the
// same semantics as commsim's traffic patterns (sim/traffic.h):
//   incast          every worker sends the message to the server at t = 0 (phase "up");
//   downlink        the server sends one unicast copy to every worker at t = 0 ("down"); the
//                   copies share the server's link as the simulator shares it (no forced order);
//   broadcast       the server multicasts one copy to all workers ("down");
//   ps_round        incast; when the last worker's message has arrived, downlink;
//   ps_round_multicast  incast, then broadcast;
//   ring_allreduce  hosts 0..H-1 form a logical ring; 2(H-1) steps of floor(M/H) bits; host i
//                   sends step s+1 to i+1 as soon as step s's chunk from i-1 has arrived
//                   (phase "step s").
// Sizes go to the transport in whole bytes: round(bits / 8).
// The driver records, per (flow, destination), the start and the delivery time given by
// Transport::NowS(), and prints them in one format for the harness:
//   flow <id> <phase words...> <src> <dst> <bytes> <start_s> <end_s>
#ifndef COMMSIM_BENCH_VALIDATION_PATTERN_DRIVER_H_
#define COMMSIM_BENCH_VALIDATION_PATTERN_DRIVER_H_

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "net_case.h"

namespace validation {

// What a simulator provides: a clock and a way to move bytes. Start() must eventually call
// PatternDriver::Delivered(id, dst) once per destination (unless the simulator loses the data).
class Transport {
 public:
  virtual ~Transport() = default;
  virtual double NowS() const = 0;
  // One destination: a unicast flow. Several: one multicast copy replicated in the network.
  virtual void Start(int id, int src, const std::vector<int>& dsts, uint64_t bytes) = 0;
};

struct FlowRecord {
  int id = 0;
  std::string phase;
  int src = 0;
  int dst = 0;
  uint64_t bytes = 0;
  double start_s = 0;
  double end_s = -1;  // -1: not delivered
};

class PatternDriver {
 public:
  PatternDriver(const NetCase& net, Transport& transport) : net_(net), transport_(transport) {}
  PatternDriver(const PatternDriver&) = delete;
  PatternDriver& operator=(const PatternDriver&) = delete;

  // Every (src, dst) pair of unicast flows the pattern will use, each once, for transports that
  // open connections in advance.
  std::vector<std::pair<int, int>> UnicastPairs() const;
  // True when the pattern multicasts.
  bool Multicasts() const;

  void Begin();
  void Delivered(int id, int dst);
  bool Done() const { return delivered_ == records_.size() && begun_; }
  const std::vector<FlowRecord>& records() const { return records_; }
  // The flow lines; returns false (and prints nothing else) if some flow was not delivered.
  bool Print(std::FILE* out) const;

 private:
  void Send(const std::string& phase, int src, const std::vector<int>& dsts, uint64_t bytes);
  void Downlink();

  const NetCase& net_;
  Transport& transport_;
  std::vector<FlowRecord> records_;
  std::map<std::pair<int, int>, size_t> index_;  // (id, dst) -> record
  std::vector<int> ring_steps_;                  // per flow id: its ring step, else -1
  size_t delivered_ = 0;
  int up_left_ = 0;
  int next_id_ = 0;
  bool begun_ = false;
};

// Bytes of one message and of one ring chunk.
uint64_t MessageBytes(const NetCase& net);
uint64_t RingChunkBytes(const NetCase& net);

}  // namespace validation

#endif  // COMMSIM_BENCH_VALIDATION_PATTERN_DRIVER_H_
