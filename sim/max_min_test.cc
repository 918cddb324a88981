#include "sim/max_min.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <limits>
#include <vector>

#include "base/rng.h"

namespace commsim {
namespace {

// Rates of flows given as lists of links.
std::vector<double> Rates(const std::vector<double>& capacity,
                          const std::vector<std::vector<int>>& flows) {
  MaxMinProblem problem;
  for (double c : capacity) problem.AddLink(c);
  for (const auto& f : flows) {
    for (int link : f) problem.Cross(link);
    problem.EndFlow();
  }
  std::vector<double> rates(flows.size());
  MaxMinSolver solver;
  solver.Solve(problem, rates);
  return rates;
}

TEST(MaxMinTest, EqualFlowsSplitOneLink) {
  EXPECT_EQ(Rates({1e9}, {{0}, {0}, {0}, {0}}), (std::vector<double>{2.5e8, 2.5e8, 2.5e8, 2.5e8}));
}

// Parking lot: A crosses L0 and L1, B only L0, C only L1, capacity C each: all get C/2 (the long
// flow is not starved, nor does it get less than the short ones).
TEST(MaxMinTest, ParkingLotGivesEveryFlowHalf) {
  EXPECT_EQ(Rates({1e9, 1e9}, {{0, 1}, {0}, {1}}), (std::vector<double>{5e8, 5e8, 5e8}));
}

// Link 0 (3 units): A, B, C; link 1 (1 unit): A, D; link 2 (2 units): C, E.
// By hand: link 1 has the smallest share (1/2): A = D = 1/2. Then link 0 offers (3 - 1/2)/2 =
// 1.25 to B and C, link 2 offers 2/2 = 1 to C and E: link 2 is next, C = E = 1. B gets the rest
// of link 0: 3 - 1/2 - 1 = 1.5. Freezing link 0 first (equal thirds) would give A = 1 and
// overload link 1.
TEST(MaxMinTest, BottlenecksFreezeInOrderOfTheirShare) {
  EXPECT_EQ(Rates({3, 1, 2}, {{0, 1}, {0}, {0, 2}, {1}, {2}}),
            (std::vector<double>{0.5, 1.5, 1, 0.5, 1}));
}

// Capacities C and 2C in series, a long flow over both and one short flow on each: link 0 (C)
// splits C between the long flow and its short flow; the short flow on link 1 takes 2C - C/2.
TEST(MaxMinTest, UnequalCapacitiesInSeries) {
  EXPECT_EQ(Rates({1e9, 2e9}, {{0, 1}, {0}, {1}}), (std::vector<double>{5e8, 5e8, 1.5e9}));
}

// The problem builder: ids in order of AddLink, flows closed by EndFlow, Clear keeps nothing.
TEST(MaxMinTest, ProblemBuilderNumbersLinksAndClosesFlows) {
  MaxMinProblem p;
  EXPECT_EQ(p.AddLink(5.0), 0);
  EXPECT_EQ(p.AddLink(7.0), 1);
  p.Cross(1);
  p.Cross(0);
  p.EndFlow();
  p.EndFlow();
  EXPECT_EQ(p.num_flows(), 2u);
  EXPECT_EQ(p.flow_offsets, (std::vector<int>{0, 2, 2}));
  EXPECT_EQ(p.flow_links, (std::vector<int>{1, 0}));
  p.Clear();
  EXPECT_EQ(p.num_flows(), 0u);
  EXPECT_TRUE(p.capacity_bps.empty() && p.flow_links.empty());
  EXPECT_EQ(p.AddLink(1.0), 0);
}

TEST(MaxMinTest, AFlowOnNoLinkIsUnbounded) {
  const std::vector<double> r = Rates({1e9}, {{}, {0}});
  EXPECT_EQ(r[0], std::numeric_limits<double>::infinity());
  EXPECT_EQ(r[1], 1e9);
}

TEST(MaxMinTest, SolverReusedWithOtherSizesGivesFreshResults) {
  MaxMinSolver solver;
  std::vector<double> two(2), one(1);
  const MaxMinProblem problem2{{1.0, 1.0}, {0, 2, 3}, {0, 1, 1}};
  solver.Solve(problem2, two);
  EXPECT_EQ(two, (std::vector<double>{0.5, 0.5}));
  const MaxMinProblem problem1{{4.0}, {0, 1}, {0}};
  solver.Solve(problem1, one);
  EXPECT_EQ(one, (std::vector<double>{4.0}));
}

// The heap solver against the scan (SolveReference) on random problems whose capacities and
// paths repeat, so that shares tie often: the same rates, bit for bit.
TEST(MaxMinTest, HeapSolverGivesTheReferenceBitsOnRandomProblems) {
  MaxMinSolver heap_solver;
  MaxMinSolver scan_solver;
  MaxMinProblem problem;
  for (uint64_t trial = 0; trial < 2000; ++trial) {
    Rng rng(DeriveSeed(7, trial, "max_min"));
    problem.Clear();
    const int links = 1 + static_cast<int>(rng.UniformInt(30));
    for (int l = 0; l < links; ++l) {
      const double c[] = {1e9, 2e9, 3e9, 1e9 / 3, 7.5e8, 1e10};
      problem.AddLink(c[rng.UniformInt(6)]);
    }
    const int flows = static_cast<int>(rng.UniformInt(60));
    for (int f = 0; f < flows; ++f) {
      const int first = static_cast<int>(rng.UniformInt(links));
      const int hops = static_cast<int>(rng.UniformInt(5));
      for (int k = 0; k < hops && first + k * 3 < links; ++k) problem.Cross(first + k * 3);
      problem.EndFlow();
    }
    std::vector<double> heap_rates(problem.num_flows()), scan_rates(problem.num_flows());
    heap_solver.Solve(problem, heap_rates);
    scan_solver.SolveReference(problem, scan_rates);
    ASSERT_EQ(heap_rates, scan_rates) << "trial " << trial;
  }
}

}  // namespace
}  // namespace commsim
