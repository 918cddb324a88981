// MaxMinSolver: max-min fair rates of flows sharing links (progressive filling).
//
// Input: the capacity of each link (bit/s) and, for each flow, the links it crosses (each at
// most once). Output: every flow's rate, such that no link carries more than its capacity and no
// flow can get more without taking from a flow whose rate is not larger (max-min fairness).
// Algorithm (bottleneck algorithm, Bertsekas & Gallager, Data Networks, section 6.5): repeat —
// for every link still crossed by unfrozen flows, its fair share = remaining capacity / number of
// unfrozen flows on it; take the link with the smallest share (ties: the lowest link index),
// freeze its unfrozen flows at that share and subtract the share from every link they cross.
// A flow that crosses no link gets rate +infinity. Deterministic: same input, same output.
// Cost: O(links x bottleneck steps + total flow-link pairs).
#ifndef COMMSIM_SIM_MAX_MIN_H_
#define COMMSIM_SIM_MAX_MIN_H_

#include <span>
#include <vector>

namespace commsim {

class MaxMinSolver {
 public:
  // Flow i crosses links flow_links[flow_offsets[i] .. flow_offsets[i+1]); link ids index
  // capacity_bps. rates_bps receives one rate per flow.
  // REQUIRES: flow_offsets.size() == rates_bps.size() + 1, capacities > 0, link ids in range.
  void Solve(std::span<const double> capacity_bps, std::span<const int> flow_offsets,
             std::span<const int> flow_links, std::span<double> rates_bps);

 private:
  // Scratch, kept between calls to avoid allocating.
  std::vector<double> remaining_bps_;
  std::vector<int> unfrozen_;
  std::vector<int> link_offsets_;
  std::vector<int> link_flows_;
  std::vector<char> frozen_;
  std::vector<int> active_links_;
};

}  // namespace commsim

#endif  // COMMSIM_SIM_MAX_MIN_H_
