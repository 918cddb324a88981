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

// The input of a max-min problem, built flow by flow: AddLink numbers links 0, 1, ... in the
// order it is called; Cross adds a link to the flow being built and EndFlow closes that flow.
// Flow i crosses links flow_links[flow_offsets[i] .. flow_offsets[i+1]), which index
// capacity_bps. Clear() empties it and keeps the memory, so a reused problem does not allocate.
struct MaxMinProblem {
  std::vector<double> capacity_bps;
  std::vector<int> flow_offsets{0};
  std::vector<int> flow_links;

  void Clear();
  int AddLink(double link_capacity_bps);
  void Cross(int link) { flow_links.push_back(link); }
  void EndFlow() { flow_offsets.push_back(static_cast<int>(flow_links.size())); }
  size_t num_flows() const { return flow_offsets.size() - 1; }
};

class MaxMinSolver {
 public:
  // rates_bps receives one rate per flow of `problem`.
  // REQUIRES: rates_bps.size() == problem.num_flows(), capacities > 0, link ids in range.
  void Solve(const MaxMinProblem& problem, std::span<double> rates_bps);

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
