// kFlow: flow-level max-min sharing (the contract is in network.h).
//
// The flows taking bandwidth are fluid_. Whenever one starts or ends, every flow's remaining bits
// are drained up to now at its old rate (one pass over parallel arrays), the max-min rates of the
// flows connected to it through shared links are recomputed (once per instant: the flows that
// start at one instant are solved together by one event after those already due then, which
// gives the rates a solve per start would, since no time passes in between) (the others cannot
// change: max-min sharing splits over the connected components of the flow-link graph, and a
// component's link numbering, hence its tie-breaking, depends on its own flows only), their
// completion instants are updated in due_heap_, and one wake-up event is scheduled at the earliest
// due instant of all; a wake-up made stale by a later change carries an older generation and does
// nothing. One wake-up event (rather than one per flow) keeps the engine's event order what it
// always was.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/check.h"
#include "base/error.h"
#include "sim/network.h"

namespace commsim {
namespace {

// Picoseconds to drain `bits` at `rate_bps`, rounded up (as TransmitTime does for a link).
SimTime DrainTime(double bits, double rate_bps) {
  const double ps = std::ceil(bits * 1e12 / rate_bps - 1e-6);
  if (!(ps < 9.2e18)) {
    throw SimulationLimitError(fmt::format(
        "a flow of {} bits at {} bit/s would end beyond the simulated time range", bits, rate_bps));
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
  flow.finish = SimTime::Max();  // until solved
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
  flow.fluid_pos = static_cast<int>(fluid_.size());
  fluid_.push_back(f);
  fluid_remaining_bits_.push_back(flow.remaining_bits);
  fluid_rate_bps_.push_back(flow.rate_bps);
  for (size_t h = 0; h < flow.hops.size(); ++h) {
    Hop& hop = flow.hops[h];
    std::vector<FluidRef>& on_link = link_fluid_[hop.link];
    hop.fluid_pos = static_cast<int>(on_link.size());
    on_link.push_back({f, static_cast<int>(h)});
    seed_links_.push_back(hop.link);
  }
  RequestSolve();
}

void Network::RequestSolve() {
  if (solve_pending_) return;
  solve_pending_ = true;
  engine_.Schedule(SimTime::Zero(), [this] {
    solve_pending_ = false;
    if (!seed_links_.empty()) RecomputeRates();  // else a wake-up at this instant solved them
  });
}

// Takes f out of the fluid set (swapping the last entry into its places) and seeds its links.
void Network::RemoveFluid(uint32_t f) {
  Flow& flow = flows_[f];
  const int pos = flow.fluid_pos;
  const uint32_t last = fluid_.back();
  fluid_[pos] = last;
  fluid_remaining_bits_[pos] = fluid_remaining_bits_.back();
  fluid_rate_bps_[pos] = fluid_rate_bps_.back();
  flows_[last].fluid_pos = pos;
  fluid_.pop_back();
  fluid_remaining_bits_.pop_back();
  fluid_rate_bps_.pop_back();
  flow.fluid_pos = -1;
  for (Hop& hop : flow.hops) {
    std::vector<FluidRef>& on_link = link_fluid_[hop.link];
    const FluidRef moved = on_link.back();
    on_link[hop.fluid_pos] = moved;
    flows_[moved.flow].hops[moved.hop].fluid_pos = hop.fluid_pos;
    on_link.pop_back();
    hop.fluid_pos = -1;
    seed_links_.push_back(hop.link);
  }
  if (due_heap_.Contains(f)) due_heap_.Remove(f);
}

void Network::GrowWindows(std::span<const uint32_t> due, SimTime now) {
  for (uint32_t f : due) {
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
    double* remaining = fluid_remaining_bits_.data();
    const double* rate = fluid_rate_bps_.data();
    const size_t n = fluid_remaining_bits_.size();
    for (size_t i = 0; i < n; ++i) remaining[i] = std::max(0.0, remaining[i] - rate[i] * elapsed_s);
  }
  fluid_updated_ = now;
}

void Network::RecomputeRates() {
  FindComponent();
  SolveComponent();
  ScheduleWake();
}

// component_ = the fluid flows reachable from seed_links_ through shared links, in activation
// order; each of them has visit == visit_stamp_.
void Network::FindComponent() {
  component_.clear();
  const uint64_t stamp = ++visit_stamp_;
  for (size_t i = 0; i < seed_links_.size(); ++i) {  // seed_links_ grows as the search goes
    const int link = seed_links_[i];
    if (link_visit_[link] == stamp) continue;
    link_visit_[link] = stamp;
    for (const FluidRef& ref : link_fluid_[link]) {
      Flow& flow = flows_[ref.flow];
      if (flow.visit == stamp) continue;
      flow.visit = stamp;
      component_.push_back(ref.flow);
      for (const Hop& hop : flow.hops) {
        if (link_visit_[hop.link] != stamp) seed_links_.push_back(hop.link);
      }
    }
  }
  seed_links_.clear();
  std::sort(component_.begin(), component_.end(),
            [this](uint32_t a, uint32_t b) { return flows_[a].activation < flows_[b].activation; });
}

// Solver input: the links of `flows`, numbered in order of first use; a window cap is one more
// link, private to its flow.
void Network::BuildSolverInput(const std::vector<uint32_t>& flows) {
  solver_input_.Clear();
  solver_links_.clear();
  for (uint32_t f : flows) {
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
}

// Sets the rates, completion and due instants of the component's flows. The reference solver
// solves every flow in flight instead, and checks that the flows outside the component keep
// their rates bit for bit (max-min sharing splits over components).
void Network::SolveComponent() {
  const std::vector<uint32_t>* solved = &component_;
  if (reference_flow_solver_) {
    all_fluid_ = fluid_;
    std::sort(all_fluid_.begin(), all_fluid_.end(), [this](uint32_t a, uint32_t b) {
      return flows_[a].activation < flows_[b].activation;
    });
    solved = &all_fluid_;
  }
  BuildSolverInput(*solved);
  solver_rates_.resize(solved->size());
  if (reference_flow_solver_) {
    solver_.SolveReference(solver_input_, solver_rates_);
  } else {
    solver_.Solve(solver_input_, solver_rates_);
  }
  const SimTime now = engine_.Now();
  for (size_t i = 0; i < solved->size(); ++i) {
    const uint32_t f = (*solved)[i];
    Flow& flow = flows_[f];
    double& rate_bps = fluid_rate_bps_[flow.fluid_pos];
    if (flow.visit != visit_stamp_) {  // outside the component (reference solver only)
      COMMSIM_CHECK(!(solver_rates_[i] != rate_bps),
                    "flow {}: rate {} outside the component "
                    "changed to {}",
                    f, rate_bps, solver_rates_[i]);
      continue;
    }
    rate_bps = solver_rates_[i];
    flow.finish = now + DrainTime(fluid_remaining_bits_[flow.fluid_pos], rate_bps);
  }
  auto due_ps = [this](uint32_t f) {
    return std::min(flows_[f].finish, flows_[f].next_growth).ps();
  };
  if (component_.size() * 8 >= due_heap_.size()) {  // most keys change: one heapify
    due_heap_.SetAll(component_, due_ps);
  } else {
    for (uint32_t f : component_) due_heap_.Set(f, due_ps(f));
  }
}

void Network::ScheduleWake() {
  if (fluid_.empty()) return;
  SimTime earliest = SimTime::Max();
  if (reference_flow_solver_) {
    for (uint32_t f : fluid_) {
      earliest = std::min({earliest, flows_[f].finish, flows_[f].next_growth});
    }
  } else {
    earliest = SimTime::FromPs(due_heap_.Top().key);
  }
  const uint64_t generation = ++fluid_generation_;
  engine_.ScheduleAt(earliest, [this, generation] { OnFlowWake(generation); });
}

void Network::CollectDueFlows(SimTime now, std::vector<uint32_t>& done,
                              std::vector<uint32_t>& grow) {
  if (reference_flow_solver_) {
    for (uint32_t f : fluid_) {
      if (flows_[f].finish <= now) {
        done.push_back(f);
      } else if (flows_[f].next_growth <= now) {
        grow.push_back(f);
      }
    }
  } else {
    while (!due_heap_.empty() && due_heap_.Top().key <= now.ps()) {
      const uint32_t f = due_heap_.Top().id;
      due_heap_.Remove(f);
      (flows_[f].finish <= now ? done : grow).push_back(f);
    }
  }
  std::sort(done.begin(), done.end(),
            [this](uint32_t a, uint32_t b) { return flows_[a].activation < flows_[b].activation; });
}

void Network::OnFlowWake(uint64_t generation) {
  if (generation != fluid_generation_) return;
  const SimTime now = engine_.Now();
  DrainFlowsTo(now);
  std::vector<uint32_t> done;
  std::vector<uint32_t> grow;
  CollectDueFlows(now, done, grow);
  for (uint32_t f : done) RemoveFluid(f);
  GrowWindows(grow, now);
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
