#include "pattern_driver.h"

#include <cmath>

namespace validation {

uint64_t MessageBytes(const NetCase& net) {
  return static_cast<uint64_t>(std::llround(static_cast<double>(net.message_bits) / 8.0));
}

uint64_t RingChunkBytes(const NetCase& net) {
  const int64_t chunk_bits = net.message_bits / net.hosts;
  return static_cast<uint64_t>(std::llround(static_cast<double>(chunk_bits) / 8.0));
}

std::vector<std::pair<int, int>> PatternDriver::UnicastPairs() const {
  std::vector<std::pair<int, int>> pairs;
  const std::string& p = net_.pattern;
  if (p == "ring_allreduce") {
    for (int h = 0; h < net_.hosts; ++h) pairs.emplace_back(h, (h + 1) % net_.hosts);
    return pairs;
  }
  if (p == "incast" || p == "ps_round" || p == "ps_round_multicast") {
    for (int w : net_.workers()) pairs.emplace_back(w, net_.server);
  }
  if (p == "downlink" || p == "ps_round") {
    for (int w : net_.workers()) pairs.emplace_back(net_.server, w);
  }
  return pairs;
}

bool PatternDriver::Multicasts() const {
  return net_.pattern == "broadcast" || net_.pattern == "ps_round_multicast";
}

void PatternDriver::Send(const std::string& phase, int src, const std::vector<int>& dsts,
                         uint64_t bytes) {
  const int id = next_id_++;
  ring_steps_.push_back(-1);
  for (int dst : dsts) {
    index_[{id, dst}] = records_.size();
    records_.push_back({id, phase, src, dst, bytes, transport_.NowS(), -1});
  }
  transport_.Start(id, src, dsts, bytes);
}

void PatternDriver::Downlink() {
  const std::vector<int> workers = net_.workers();
  if (Multicasts()) {
    Send("down", net_.server, workers, MessageBytes(net_));
    return;
  }
  for (int w : workers) Send("down", net_.server, {w}, MessageBytes(net_));
}

void PatternDriver::Begin() {
  begun_ = true;
  const std::string& p = net_.pattern;
  if (p == "downlink" || p == "broadcast") {
    Downlink();
  } else if (p == "ring_allreduce") {
    if (net_.hosts < 2) return;
    for (int h = 0; h < net_.hosts; ++h) {
      Send("step 0", h, {(h + 1) % net_.hosts}, RingChunkBytes(net_));
      ring_steps_.back() = 0;
    }
  } else {  // incast, ps_round, ps_round_multicast
    const std::vector<int> workers = net_.workers();
    up_left_ = static_cast<int>(workers.size());
    for (int w : workers) Send("up", w, {net_.server}, MessageBytes(net_));
  }
}

void PatternDriver::Delivered(int id, int dst) {
  FlowRecord& r = records_[index_.at({id, dst})];
  if (r.end_s >= 0) return;  // a duplicate report
  r.end_s = transport_.NowS();
  ++delivered_;
  const std::string& p = net_.pattern;
  if (r.phase == "up" && --up_left_ == 0 && (p == "ps_round" || p == "ps_round_multicast")) {
    Downlink();
  }
  const int step = ring_steps_[static_cast<size_t>(id)];
  if (step >= 0 && step + 1 < 2 * (net_.hosts - 1)) {
    Send("step " + std::to_string(step + 1), dst, {(dst + 1) % net_.hosts}, RingChunkBytes(net_));
    ring_steps_.back() = step + 1;
  }
}

bool PatternDriver::Print(std::FILE* out) const {
  bool complete = Done();
  for (const FlowRecord& r : records_) {
    if (r.end_s < 0) {
      complete = false;
      continue;
    }
    std::fprintf(out, "flow %d %s %d %d %llu %.12g %.12g\n", r.id, r.phase.c_str(), r.src, r.dst,
                 static_cast<unsigned long long>(r.bytes), r.start_s, r.end_s);
  }
  if (!complete)
    std::fprintf(out, "# incomplete: %zu of %zu flows delivered\n", delivered_, records_.size());
  return complete;
}

}  // namespace validation
