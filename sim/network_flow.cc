// kFlow: flow-level max-min sharing (the contract is in network.h).
//
// The flows taking bandwidth are fluid_, in activation order. Whenever one starts or ends, every
// flow's remaining bits are drained up to now at its old rate, the max-min rates of the flows
// connected to it through shared links are recomputed (the others cannot change), and one
// wake-up event is scheduled at the earliest completion; a wake-up made stale by a later change
// carries an older generation and does nothing.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/check.h"
#include "sim/error.h"
#include "sim/network.h"

namespace commsim {
namespace {

// Picoseconds to drain `bits` at `rate_bps`, rounded up (as TransmitTime does for a link).
SimTime DrainTime(double bits, double rate_bps) {
  const double ps = std::ceil(bits * 1e12 / rate_bps - 1e-6);
  if (!(ps < 9.2e18)) {
    throw SimulationLimitError(fmt::format(
        "a flow of {} bits at {} bit/s would end beyond the simulated time range", bits,
        rate_bps));
  }
  return SimTime::FromPs(ps > 0 ? static_cast<int64_t>(ps) : 0);
}

}  // namespace

void Network::LaunchFlow(uint32_t f) {
  Flow& flow = flows_[f];
  const int64_t bits = flow.last_bits;  // the whole message's wire bits
  const SimTime min_latency = PathLatencies(flow).first;
  flow.bottleneck_bps = std::numeric_limits<double>::infinity();
  for (const Hop& hop : flow.hops) {
    LinkState& link = links_[hop.link];
    flow.bottleneck_bps = std::min(flow.bottleneck_bps, link.bandwidth_bps);
    link.stats.bits += bits;
    link.stats.busy_time += TransmitTime(bits, link.bandwidth_bps);
    link.stats.messages += 1;
    link.stats.packets += flow.packets;
  }
  flow.min_latency = min_latency;
  flow.remaining_bits = static_cast<double>(bits);
  flow.rate_bps = 0;
  engine_.Schedule(min_latency, [this, f] { ActivateFlow(f); });
}

void Network::ActivateFlow(uint32_t f) {
  if (flows_[f].remaining_bits <= 0) {  // nothing to drain: deliver now
    FinishFlow(f);
    return;
  }
  DrainFlowsTo(engine_.Now());
  Flow& flow = flows_[f];
  flow.cap_bps = 0;
  flow.next_growth = SimTime::Max();
  flow.rtt = flow.min_latency * 2;
  if (options_.protocol.kind == ProtocolKind::kTcp && options_.protocol.tcp_slow_start &&
      flow.rtt > SimTime::Zero()) {
    const double window_bits = static_cast<double>(kTcpInitialWindow * full_packet_bits_);
    flow.cap_bps = window_bits / flow.rtt.seconds();
    flow.next_growth = engine_.Now() + flow.rtt;
    if (flow.cap_bps >= flow.bottleneck_bps) {  // the window already covers the path
      flow.cap_bps = 0;
      flow.next_growth = SimTime::Max();
    }
  }
  flow.activation = ++activations_;
  fluid_.push_back(f);
  for (const Hop& hop : flow.hops) {
    link_fluid_[hop.link].push_back(f);
    seed_links_.push_back(hop.link);
  }
  RecomputeRates();
}

void Network::GrowWindows(SimTime now) {
  for (uint32_t f : fluid_) {
    Flow& flow = flows_[f];
    if (flow.next_growth > now) continue;
    for (const Hop& hop : flow.hops) seed_links_.push_back(hop.link);
    flow.cap_bps *= 2;
    flow.next_growth = flow.next_growth + flow.rtt;
    if (flow.cap_bps >= flow.bottleneck_bps) {
      flow.cap_bps = 0;
      flow.next_growth = SimTime::Max();
    }
  }
}

void Network::DrainFlowsTo(SimTime now) {
  const double elapsed_s = (now - fluid_updated_).seconds();
  if (elapsed_s > 0) {
    for (uint32_t f : fluid_) {
      Flow& flow = flows_[f];
      flow.remaining_bits = std::max(0.0, flow.remaining_bits - flow.rate_bps * elapsed_s);
    }
  }
  fluid_updated_ = now;
}

void Network::RecomputeRates() {
  // Only the flows connected to a changed link (through links they share) can change rate:
  // max-min sharing splits over the connected components of the flow-link graph.
  component_.clear();
  const uint64_t stamp = ++visit_stamp_;
  for (size_t i = 0; i < seed_links_.size(); ++i) {  // seed_links_ grows as the search goes
    for (uint32_t f : link_fluid_[seed_links_[i]]) {
      Flow& flow = flows_[f];
      if (flow.visit == stamp) continue;
      flow.visit = stamp;
      component_.push_back(f);
      for (const Hop& hop : flow.hops) seed_links_.push_back(hop.link);
    }
  }
  seed_links_.clear();
  std::sort(component_.begin(), component_.end(), [this](uint32_t a, uint32_t b) {
    return flows_[a].activation < flows_[b].activation;
  });
  // Solver input: the component's links, numbered in order of first use; a window cap is one
  // more link, private to its flow.
  solver_input_.Clear();
  solver_links_.clear();
  for (uint32_t f : component_) {
    for (const Hop& hop : flows_[f].hops) {
      int& slot = link_slot_[hop.link];
      if (slot < 0) {
        slot = solver_input_.AddLink(links_[hop.link].bandwidth_bps);
        solver_links_.push_back(hop.link);
      }
      solver_input_.Cross(slot);
    }
    if (flows_[f].cap_bps > 0) {
      solver_input_.Cross(solver_input_.AddLink(flows_[f].cap_bps));
      solver_links_.push_back(-1);
    }
    solver_input_.EndFlow();
  }
  for (int l : solver_links_) {
    if (l >= 0) link_slot_[l] = -1;
  }
  solver_rates_.resize(component_.size());
  solver_.Solve(solver_input_, solver_rates_);
  const SimTime now = engine_.Now();
  for (size_t i = 0; i < component_.size(); ++i) {
    Flow& flow = flows_[component_[i]];
    flow.rate_bps = solver_rates_[i];
    flow.finish = now + DrainTime(flow.remaining_bits, flow.rate_bps);
  }
  SimTime earliest = SimTime::Max();
  for (uint32_t f : fluid_) earliest = std::min({earliest, flows_[f].finish, flows_[f].next_growth});
  if (fluid_.empty()) return;
  const uint64_t generation = ++fluid_generation_;
  engine_.ScheduleAt(earliest, [this, generation] { OnFlowWake(generation); });
}

void Network::OnFlowWake(uint64_t generation) {
  if (generation != fluid_generation_) return;
  const SimTime now = engine_.Now();
  DrainFlowsTo(now);
  std::vector<uint32_t> done;
  std::erase_if(fluid_, [&](uint32_t f) {
    if (flows_[f].finish > now) return false;
    done.push_back(f);
    return true;
  });
  for (uint32_t f : done) {
    for (const Hop& hop : flows_[f].hops) {
      std::erase(link_fluid_[hop.link], f);
      seed_links_.push_back(hop.link);
    }
  }
  GrowWindows(now);
  RecomputeRates();
  for (uint32_t f : done) FinishFlow(f);
}

void Network::FinishFlow(uint32_t f) {
  Flow& flow = flows_[f];
  flow.remaining_bits = 0;
  flow.rate_bps = 0;
  // Destinations at the shortest latency are delivered now, in route order, after the others
  // are scheduled: the last delivery frees the flow, and its handler may reuse the slot.
  std::vector<int> now_dst;
  for (const Hop& hop : flow.hops) {
    if (hop.deliver_to < 0) continue;
    const SimTime extra = hop.path_latency - flow.min_latency;
    const int dst = hop.deliver_to;
    if (extra == SimTime::Zero()) {
      now_dst.push_back(dst);
    } else {
      engine_.Schedule(extra, [this, f, dst] { Deliver(f, dst); });
    }
  }
  for (int dst : now_dst) Deliver(f, dst);
}

}  // namespace commsim
