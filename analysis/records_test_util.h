// Hand-made run records for the tests of what is computed from them (targets, point summaries,
// reports, plots), and a lookup in a run's summaries.
// Header-only; tests only.
#ifndef COMMSIM_ANALYSIS_RECORDS_TEST_UTIL_H_
#define COMMSIM_ANALYSIS_RECORDS_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "records/records.h"

// Not commsim::testing: inside namespace commsim that name would hide gtest's ::testing.
namespace commsim::test_records {

// One entry's records at iterations 0..n: loss start / 2^k, test accuracy 1 - loss / 1024,
// 0.5 s and 100 bits per iteration.
inline std::vector<IterationRecord> Halving(const std::string& label, double start, int n) {
  std::vector<IterationRecord> records;
  for (int k = 0; k <= n; ++k) {
    IterationRecord r;
    r.algorithm = label;
    r.iteration = k;
    r.sim_time_s = 0.5 * k;
    r.cum_bits = 100 * k;
    r.loss = start / (1 << k);
    r.test_accuracy = 1.0 - r.loss / 1024;
    records.push_back(r);
  }
  return records;
}

// A summary of `iterations` iterations of `up` + `down` wire bits each.
inline RunSummary BitsSummary(const std::string& name, const std::string& algorithm,
                              int64_t iterations, int64_t up, int64_t down) {
  RunSummary s;
  s.name = name;
  s.algorithm = algorithm;
  s.iterations = iterations;
  s.bits_up = iterations * up;
  s.bits_down = iterations * down;
  s.total_bits = s.bits_up + s.bits_down;
  return s;
}

// A run of these entries, each with its summary: name = the records' label, iterations and final
// loss from the last record.
inline RunResult ResultOf(std::vector<std::vector<IterationRecord>> entries) {
  RunResult result;
  result.records = std::move(entries);
  for (const auto& records : result.records) {
    RunSummary s;
    s.name = records.front().algorithm;
    s.iterations = records.back().iteration;
    s.final_loss = records.back().loss;
    result.summaries.push_back(s);
  }
  return result;
}

// The summary of the entry labelled `name` (a test failure, and the first summary, when none is).
inline const RunSummary& SummaryNamed(const RunResult& r, const std::string& name) {
  for (const RunSummary& s : r.summaries) {
    if (s.name == name) return s;
  }
  ADD_FAILURE() << "no entry " << name;
  return r.summaries.front();
}

}  // namespace commsim::test_records

#endif  // COMMSIM_ANALYSIS_RECORDS_TEST_UTIL_H_
