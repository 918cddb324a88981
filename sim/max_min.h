// MaxMinSolver: max-min fair rates of flows sharing links (progressive filling).
//
// Input: the capacity of each link (bit/s) and, for each flow, the links it crosses (each at
// most once). Output: every flow's rate, such that no link carries more than its capacity and no
// flow can get more without taking from a flow whose rate is not larger (max-min fairness).
// Algorithm (bottleneck algorithm, Bertsekas & Gallager, Data Networks, section 6.5): repeat —
// for every link still crossed by unfrozen flows, its fair share = remaining capacity / number of
// unfrozen flows on it; take the link with the smallest share (ties: the lowest link index),
// freeze its unfrozen flows in flow index order at that share and subtract the share from every
// link they cross, in the flow's link order. A flow that crosses no link gets rate +infinity.
// Deterministic: same input, same output.
// Solve finds the smallest share with a heap of (share, link) holding one valid entry per link
// (re-pushed whenever a link's share changes): cost O((links + flow-link pairs) log links).
// SolveReference scans every link at every step, O(links x bottleneck steps + flow-link pairs),
// and is kept as the tests' oracle: both perform the same floating-point operations in the same
// order, so they return the same bits.
#ifndef COMMSIM_SIM_MAX_MIN_H_
#define COMMSIM_SIM_MAX_MIN_H_

#include <cstdint>
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
  // The same rates, bit for bit, by a scan of every link at every step (the tests' oracle).
  void SolveReference(const MaxMinProblem& problem, std::span<double> rates_bps);

 private:
  struct ShareEntry {
    double share_bps;
    int link;
    uint32_t version;
  };
  // Heap order: the smallest share on top, ties to the lowest link index (std heaps keep the
  // largest on top, so a goes after b when its share is larger or equal with a larger index).
  static bool After(const ShareEntry& a, const ShareEntry& b) {
    return a.share_bps > b.share_bps || (!(a.share_bps < b.share_bps) && a.link > b.link);
  }
  // Fills the link -> flows index and the counters; sets every rate to +infinity.
  void Prepare(const MaxMinProblem& problem, std::span<double> rates_bps);
  // Freezes the unfrozen flows of `link` at share_bps and returns how many; appends each link
  // crossed by a frozen flow to touched_ (once per flow).
  size_t FreezeLink(const MaxMinProblem& problem, int link, double share_bps,
                    std::span<double> rates_bps);
  double Share(int link) const;

  // Scratch, kept between calls to avoid allocating.
  std::vector<double> remaining_bps_;
  std::vector<int> unfrozen_;
  std::vector<int> link_offsets_;
  std::vector<int> link_flows_;
  std::vector<char> frozen_;
  std::vector<int> active_links_;
  std::vector<ShareEntry> heap_;
  std::vector<uint32_t> version_;    // per link: the version of its valid heap entry
  std::vector<uint32_t> pushed_at_;  // per link: the last step that re-pushed it
  std::vector<int> touched_;
};

}  // namespace commsim

#endif  // COMMSIM_SIM_MAX_MIN_H_
