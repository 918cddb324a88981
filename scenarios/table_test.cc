// The printed table: bits per iteration, per worker and per parameter, the line saying what they
// sum, and the time model's line.
#include "scenarios/table.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace commsim {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Splits a table line at runs of two or more spaces (cells hold single spaces).
std::vector<std::string> Cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == ' ' && i + 1 < line.size() && line[i + 1] == ' ') {
      if (!cell.empty()) out.push_back(cell);
      cell.clear();
      while (i + 1 < line.size() && line[i + 1] == ' ') ++i;
    } else {
      cell += line[i];
    }
  }
  if (!cell.empty()) out.push_back(cell);
  return out;
}

TEST(ComparisonTableTest, BitsColumnsArePerIterationPerWorkerAndPerParameter) {
  RunResult r;
  RunSummary s;
  s.name = "qsgd";
  s.iterations = 3;
  s.bits_per_iteration = 1.5e6;
  s.bits_up_per_worker = 64000;
  s.bits_down_per_worker = 0;
  s.bits_per_parameter = 32;
  s.bits_fraction_of_baseline = 0.25;
  s.baseline = "sgd";
  s.mean_iter_time_s = 0.002;
  s.sim_time_s = 0.006;
  r.summaries = {s};
  r.time_model = "network flow, protocol none";
  const std::vector<std::string> lines = Lines(ComparisonTable(r));
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(Cells(lines[0]),
            (std::vector<std::string>{"algorithm", "status", "iters", "final loss", "|x-x*|^2",
                                      "test acc", "bits/iter", "up/worker", "down/worker",
                                      "bits/param", "bits vs baseline", "iter time", "sim time"}));
  EXPECT_EQ(Cells(lines[1]), (std::vector<std::string>{"qsgd", "ok", "3", "0.000e+00", "-", "-",
                                                       "1.500 Mbit", "64.000 kbit", "0 bit", "32",
                                                       "25.00% of sgd", "2.000 ms", "6.000 ms"}));
  EXPECT_EQ(lines[2].rfind("bits/iter: all messages of an iteration", 0), 0u) << lines[2];
  EXPECT_EQ(lines[3], "time model: network flow, protocol none");
}

TEST(ComparisonTableTest, NoTimeModelLineWhenTheResultHasNone) {
  RunResult r;
  r.summaries = {RunSummary{}};
  EXPECT_EQ(ComparisonTable(r).find("time model:"), std::string::npos);
}

}  // namespace
}  // namespace commsim
