// All-reduce schedules: which rank sends which part of its vector to whom, step by step.
//
// A Schedule is a program per rank (ranks 0..n-1, in the driver's worker order) over a vector of
// d values. Each rank runs its steps in order; a step issues its sends at once (the values the
// rank holds then), then waits until every receive it lists has arrived, applies them in the
// listed order (kAdd: buffer[range] += received; kCopy: buffer[range] = received) and moves on.
// So a rank starts a step as soon as what that step needs has arrived (dependency-driven, no
// global barrier). A send with `adopt` makes the sender replace its own range with the values as
// they travel on the wire (the decoded message), so that when values are rounded on the wire
// (fp32) every rank ends with the same bits. Messages are matched by (peer, tag); tags are unique
// per (sender, receiver) pair within a schedule.
//
// Every builder guarantees: after the program, every rank holds the sum of all ranks' inputs,
// each value summed in a fixed order that depends only on (kind, n, d), never on timing:
//   ring                chunk c (of n) accumulates ranks c, c+1, ..., c+n-1 (mod n) in turn;
//   tree                each node adds its left then its right child's subtree sum to its own;
//   halving_doubling    pairs add at distance p/2, p/4, ..., 1 (p = largest power of two <= n),
//                       after rank p+i has been added into rank i;
//   hierarchical        in-group ring, then ring across groups over the same local index.
// Chunks: a range of length L split into m parts gives part i the length L/m, plus one for the
// first L mod m parts (balanced, contiguous, in order).
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_SCHEDULE_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_SCHEDULE_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace commsim {

struct Range64 {
  int64_t begin = 0;
  int64_t end = 0;
  int64_t size() const { return end - begin; }
};

struct ScheduleSend {
  int peer = 0;
  int tag = 0;
  Range64 range;
  bool adopt = false;
};

enum class Combine { kAdd, kCopy };

struct ScheduleRecv {
  int peer = 0;
  int tag = 0;
  Range64 range;
  Combine combine = Combine::kAdd;
};

struct ScheduleStep {
  std::vector<ScheduleSend> sends;
  std::vector<ScheduleRecv> recvs;
};

struct Schedule {
  int64_t dim = 0;
  std::vector<std::vector<ScheduleStep>> ranks;  // ranks[r] = r's steps in order
  int num_ranks() const { return static_cast<int>(ranks.size()); }
};

// Part i of [begin, end) split into m balanced parts (see above). REQUIRES: 0 <= i < m.
Range64 Part(Range64 whole, int m, int i);

// Ring reduce-scatter over `members` (ranks, in ring order) on `whole`: |members| - 1 steps; in
// step s member i sends part (i - s) mod m to member i+1 and adds part (i - s - 1) mod m from
// member i-1; afterwards member i holds the full sum of part (i + 1) mod m. Tags tag0 + s.
void AppendRingReduceScatter(Schedule& schedule, std::span<const int> members, Range64 whole,
                             int tag0);
// Ring all-gather, the inverse: member i starts with part (i + 1) mod m; in step s it sends part
// (i + 1 - s) mod m (adopt) and copies part (i - s) mod m from member i-1. Tags tag0 + s.
void AppendRingAllGather(Schedule& schedule, std::span<const int> members, Range64 whole, int tag0);

// The all-reduce schedules (n >= 1 ranks, d >= 0 values).
Schedule RingAllReduce(int n, int64_t d);
// Binary tree in heap order (parent of r is (r-1)/2): reduce to rank 0, then broadcast back.
Schedule TreeAllReduce(int n, int64_t d);
// Rabenseifner's recursive halving (reduce-scatter) then doubling (all-gather) over p blocks.
Schedule HalvingDoublingAllReduce(int n, int64_t d);
// Groups of group_size consecutive ranks: ring reduce-scatter inside each group; ring all-reduce
// of each part across the ranks with the same local index; ring all-gather inside each group.
// REQUIRES: group_size >= 1 divides n.
Schedule HierarchicalAllReduce(int n, int64_t d, int group_size);

// The collective kinds by name, for configs: "ring", "tree", "halving_doubling", "hierarchical".
std::span<const std::string_view> CollectiveKinds();
// REQUIRES: kind is one of CollectiveKinds(); for "hierarchical", group_size divides n.
Schedule MakeAllReduce(std::string_view kind, int n, int64_t d, int group_size);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_SCHEDULE_H_
