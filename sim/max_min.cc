#include "sim/max_min.h"

#include <algorithm>
#include <limits>

#include "base/check.h"

namespace commsim {
void MaxMinProblem::Clear() {
  capacity_bps.clear();
  flow_offsets.assign(1, 0);
  flow_links.clear();
}

int MaxMinProblem::AddLink(double link_capacity_bps) {
  capacity_bps.push_back(link_capacity_bps);
  return static_cast<int>(capacity_bps.size()) - 1;
}

void MaxMinSolver::Prepare(const MaxMinProblem& problem, std::span<double> rates_bps) {
  const std::vector<double>& capacity_bps = problem.capacity_bps;
  const std::vector<int>& flow_offsets = problem.flow_offsets;
  const std::vector<int>& flow_links = problem.flow_links;
  const size_t num_links = capacity_bps.size();
  const size_t num_flows = rates_bps.size();
  COMMSIM_CHECK(flow_offsets.size() == num_flows + 1, "max-min: offsets do not match the flows");
  remaining_bps_.assign(capacity_bps.begin(), capacity_bps.end());
  unfrozen_.assign(num_links, 0);
  frozen_.assign(num_flows, 0);
  // Link -> flows, as offsets into link_flows_ (counting sort keeps flows in index order).
  for (int l : flow_links) {
    COMMSIM_CHECK(l >= 0 && static_cast<size_t>(l) < num_links, "max-min: link {} out of range", l);
    ++unfrozen_[l];
  }
  link_offsets_.assign(num_links + 1, 0);
  for (size_t l = 0; l < num_links; ++l) link_offsets_[l + 1] = link_offsets_[l] + unfrozen_[l];
  link_flows_.resize(flow_links.size());
  std::vector<int>& fill = active_links_;  // reused as a cursor per link
  fill.assign(link_offsets_.begin(), link_offsets_.end() - 1);
  for (size_t f = 0; f < num_flows; ++f) {
    rates_bps[f] = std::numeric_limits<double>::infinity();
    for (int k = flow_offsets[f]; k < flow_offsets[f + 1]; ++k) {
      link_flows_[fill[flow_links[k]]++] = static_cast<int>(f);
    }
  }
  active_links_.clear();
}

double MaxMinSolver::Share(int link) const {
  return std::max(remaining_bps_[link], 0.0) / unfrozen_[link];
}

size_t MaxMinSolver::FreezeLink(const MaxMinProblem& problem, int link, double share_bps,
                                std::span<double> rates_bps) {
  size_t frozen = 0;
  const std::vector<int>& flow_offsets = problem.flow_offsets;
  const std::vector<int>& flow_links = problem.flow_links;
  for (int k = link_offsets_[link]; k < link_offsets_[link + 1]; ++k) {
    const int f = link_flows_[k];
    if (frozen_[f]) continue;
    frozen_[f] = 1;
    ++frozen;
    rates_bps[f] = share_bps;
    for (int j = flow_offsets[f]; j < flow_offsets[f + 1]; ++j) {
      const int l = flow_links[j];
      remaining_bps_[l] -= share_bps;
      --unfrozen_[l];
      touched_.push_back(l);
    }
  }
  return frozen;
}

void MaxMinSolver::Solve(const MaxMinProblem& problem, std::span<double> rates_bps) {
  Prepare(problem, rates_bps);
  const int num_links = static_cast<int>(problem.capacity_bps.size());
  version_.assign(num_links, 0);
  pushed_at_.assign(num_links, 0);
  uint32_t step = 0;
  heap_.clear();
  for (int l = 0; l < num_links; ++l) {
    if (unfrozen_[l] > 0) heap_.push_back({Share(l), l, 0});
  }
  std::make_heap(heap_.begin(), heap_.end(), After);
  // Once every flow is frozen the entries left are stale: stop (a star's incast freezes all at
  // the first step and would otherwise pop every worker link).
  size_t frozen = 0;
  const size_t num_flows = rates_bps.size();
  while (!heap_.empty() && frozen < num_flows) {
    std::pop_heap(heap_.begin(), heap_.end(), After);
    const ShareEntry top = heap_.back();
    heap_.pop_back();
    if (top.version != version_[top.link] || unfrozen_[top.link] == 0) continue;  // stale
    touched_.clear();
    frozen += FreezeLink(problem, top.link, top.share_bps, rates_bps);
    ++step;
    for (int l : touched_) {  // a link crossed by several frozen flows is listed once per flow
      if (unfrozen_[l] == 0 || pushed_at_[l] == step) continue;
      pushed_at_[l] = step;
      heap_.push_back({Share(l), l, ++version_[l]});
      std::push_heap(heap_.begin(), heap_.end(), After);
    }
  }
}

void MaxMinSolver::SolveReference(const MaxMinProblem& problem, std::span<double> rates_bps) {
  Prepare(problem, rates_bps);
  const size_t num_links = problem.capacity_bps.size();
  for (size_t l = 0; l < num_links; ++l) {
    if (unfrozen_[l] > 0) active_links_.push_back(static_cast<int>(l));
  }
  while (!active_links_.empty()) {
    int best = -1;
    double best_share = 0;
    for (int l : active_links_) {
      const double share = Share(l);
      if (best < 0 || share < best_share) {  // strict: ties keep the lowest index (sorted list)
        best = l;
        best_share = share;
      }
    }
    touched_.clear();
    FreezeLink(problem, best, best_share, rates_bps);
    std::erase_if(active_links_, [this](int l) { return unfrozen_[l] == 0; });
  }
}

}  // namespace commsim
