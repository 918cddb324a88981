#include "algorithms/collective/schedule.h"

#include <algorithm>
#include <array>
#include <bit>

#include "base/check.h"

namespace commsim {
namespace {

int Mod(int a, int m) { return ((a % m) + m) % m; }

Schedule Empty(int n, int64_t d) {
  COMMSIM_CHECK(n >= 1 && d >= 0, "all-reduce over {} ranks of {} values", n, d);
  Schedule s;
  s.dim = d;
  s.ranks.resize(n);
  return s;
}

ScheduleStep& NewStep(Schedule& s, int rank) { return s.ranks[rank].emplace_back(); }

}  // namespace

Range64 Part(Range64 whole, int m, int i) {
  COMMSIM_CHECK(m >= 1 && i >= 0 && i < m, "part {} of {}", i, m);
  const int64_t base = whole.size() / m, extra = whole.size() % m;
  const int64_t begin = whole.begin + i * base + std::min<int64_t>(i, extra);
  return {begin, begin + base + (i < extra ? 1 : 0)};
}

namespace {

// One ring pass of m - 1 steps: at step s member i sends part (i - s + shift) to its successor and
// receives part (i - s - 1 + shift) from its predecessor. Reduce-scatter (shift 0) adds what it
// receives; all-gather (shift 1) forwards the reduced parts, which the receiver adopts.
void AppendRingPass(Schedule& schedule, std::span<const int> members, Range64 whole, int tag0,
                    bool gather) {
  const int m = static_cast<int>(members.size());
  const int shift = gather ? 1 : 0;
  for (int s = 0; s + 1 < m; ++s) {
    for (int i = 0; i < m; ++i) {
      ScheduleStep& step = NewStep(schedule, members[i]);
      step.sends.push_back({.peer = members[Mod(i + 1, m)],
                            .tag = tag0 + s,
                            .range = Part(whole, m, Mod(i - s + shift, m)),
                            .adopt = gather});
      step.recvs.push_back({.peer = members[Mod(i - 1, m)],
                            .tag = tag0 + s,
                            .range = Part(whole, m, Mod(i - s - 1 + shift, m)),
                            .combine = gather ? Combine::kCopy : Combine::kAdd});
    }
  }
}

}  // namespace

void AppendRingReduceScatter(Schedule& schedule, std::span<const int> members, Range64 whole,
                             int tag0) {
  AppendRingPass(schedule, members, whole, tag0, /*gather=*/false);
}

void AppendRingAllGather(Schedule& schedule, std::span<const int> members, Range64 whole,
                         int tag0) {
  AppendRingPass(schedule, members, whole, tag0, /*gather=*/true);
}

Schedule RingAllReduce(int n, int64_t d) {
  Schedule s = Empty(n, d);
  std::vector<int> members(n);
  for (int i = 0; i < n; ++i) members[i] = i;
  AppendRingReduceScatter(s, members, {0, d}, 0);
  AppendRingAllGather(s, members, {0, d}, n);
  return s;
}

Schedule TreeAllReduce(int n, int64_t d) {
  Schedule s = Empty(n, d);
  const Range64 all{0, d};
  for (int r = 0; r < n; ++r) {
    std::vector<int> children;
    for (int c : {2 * r + 1, 2 * r + 2}) {
      if (c < n) children.push_back(c);
    }
    if (!children.empty()) {  // reduce: own + left subtree + right subtree
      ScheduleStep& step = NewStep(s, r);
      for (int c : children) step.recvs.push_back({.peer = c, .tag = 0, .range = all});
    }
    if (r != 0) {  // up to the parent, then the result back from it
      ScheduleStep& step = NewStep(s, r);
      const int parent = (r - 1) / 2;
      step.sends.push_back({.peer = parent, .tag = 0, .range = all});
      step.recvs.push_back({.peer = parent, .tag = 1, .range = all, .combine = Combine::kCopy});
    }
    if (!children.empty()) {  // broadcast down
      ScheduleStep& step = NewStep(s, r);
      for (int c : children)
        step.sends.push_back({.peer = c, .tag = 1, .range = all, .adopt = true});
    }
  }
  return s;
}

Schedule HalvingDoublingAllReduce(int n, int64_t d) {
  Schedule s = Empty(n, d);
  const Range64 all{0, d};
  const int p = static_cast<int>(std::bit_floor(static_cast<unsigned>(n)));
  const int q = std::countr_zero(static_cast<unsigned>(p));
  // Block b of p covers Part(all, p, b); a rank's range is the blocks [lo, hi).
  const auto blocks = [&](int lo, int hi) -> Range64 {
    return {Part(all, p, lo).begin, Part(all, p, hi - 1).end};
  };
  for (int e = p; e < n; ++e) {  // fold the extra rank e into rank e - p, and back at the end
    ScheduleStep& step = NewStep(s, e);
    step.sends.push_back({.peer = e - p, .tag = 0, .range = all});
    step.recvs.push_back({.peer = e - p, .tag = 1, .range = all, .combine = Combine::kCopy});
    NewStep(s, e - p).recvs.push_back({.peer = e, .tag = 0, .range = all});
  }
  for (int r = 0; r < p; ++r) {
    std::vector<std::array<int, 2>> held;  // block ranges before each halving step
    int lo = 0, hi = p;
    for (int j = 0; j < q; ++j) {  // halving: distance p/2, p/4, ..., 1
      const int bit = p >> (j + 1), peer = r ^ bit, mid = (lo + hi) / 2;
      held.push_back({lo, hi});
      const bool keep_low = (r & bit) == 0;
      const Range64 give = keep_low ? blocks(mid, hi) : blocks(lo, mid);
      (keep_low ? hi : lo) = mid;
      ScheduleStep& step = NewStep(s, r);
      step.sends.push_back({.peer = peer, .tag = 2 + j, .range = give});
      step.recvs.push_back({.peer = peer, .tag = 2 + j, .range = blocks(lo, hi)});
    }
    for (int j = q - 1; j >= 0; --j) {  // doubling: distance 1, 2, ..., p/2
      const int peer = r ^ (p >> (j + 1));
      const Range64 mine = blocks(lo, hi);
      const auto [before_lo, before_hi] = held[j];
      const Range64 theirs = lo == before_lo ? blocks(hi, before_hi) : blocks(before_lo, lo);
      ScheduleStep& step = NewStep(s, r);
      step.sends.push_back({.peer = peer, .tag = 2 + q + j, .range = mine, .adopt = true});
      step.recvs.push_back(
          {.peer = peer, .tag = 2 + q + j, .range = theirs, .combine = Combine::kCopy});
      lo = before_lo;
      hi = before_hi;
    }
    if (r + p < n) {
      NewStep(s, r).sends.push_back({.peer = r + p, .tag = 1, .range = all, .adopt = true});
    }
  }
  return s;
}

Schedule HierarchicalAllReduce(int n, int64_t d, int group_size) {
  COMMSIM_CHECK(group_size >= 1 && n % group_size == 0, "group size {} for {} ranks", group_size,
                n);
  Schedule s = Empty(n, d);
  const int g = group_size, groups = n / g;
  const Range64 all{0, d};
  std::vector<int> members;
  for (int k = 0; k < groups; ++k) {
    members.clear();
    for (int i = 0; i < g; ++i) members.push_back(k * g + i);
    AppendRingReduceScatter(s, members, all, 0);
  }
  for (int i = 0; i < g; ++i) {  // local index i holds part (i + 1) mod g of its group's sum
    members.clear();
    for (int k = 0; k < groups; ++k) members.push_back(k * g + i);
    const Range64 part = Part(all, g, (i + 1) % g);
    AppendRingReduceScatter(s, members, part, n);
    AppendRingAllGather(s, members, part, 2 * n);
  }
  for (int k = 0; k < groups; ++k) {
    members.clear();
    for (int i = 0; i < g; ++i) members.push_back(k * g + i);
    AppendRingAllGather(s, members, all, 3 * n);
  }
  return s;
}

std::span<const std::string_view> CollectiveKinds() {
  static constexpr std::array<std::string_view, 4> kKinds = {"ring", "tree", "halving_doubling",
                                                             "hierarchical"};
  return kKinds;
}

Schedule MakeAllReduce(std::string_view kind, int n, int64_t d, int group_size) {
  if (kind == "ring") return RingAllReduce(n, d);
  if (kind == "tree") return TreeAllReduce(n, d);
  if (kind == "halving_doubling") return HalvingDoublingAllReduce(n, d);
  COMMSIM_CHECK(kind == "hierarchical", "unknown collective {}", kind);
  return HierarchicalAllReduce(n, d, group_size);
}

}  // namespace commsim
