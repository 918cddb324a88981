// Plain records of a run: one IterationRecord per algorithm per recorded iteration and one
// RunSummary per algorithm. Producers (algorithms/) fill them; writers and plots (analysis/) read
// them. Units are in the field names; optional values are empty cells in CSV and null in JSON.
#ifndef COMMSIM_ANALYSIS_RECORDS_H_
#define COMMSIM_ANALYSIS_RECORDS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace commsim {

// Status of an algorithm's run: "ok" (ran all iterations), "diverged" (NaN/Inf or loss above the
// scenario's bound; stopped at that iteration).
inline constexpr const char* kStatusOk = "ok";
inline constexpr const char* kStatusDiverged = "diverged";

struct IterationRecord {
  std::string algorithm;  // the entry's label
  int64_t iteration = 0;  // 1-based: the iteration that just ended
  double sim_time_s = 0;  // simulated time at the end of this iteration
  double iter_time_s = 0;
  double compute_time_s = 0;  // the slowest worker's compute time in this iteration
  double comm_time_s = 0;     // iter_time_s - compute_time_s (communication and waiting)
  double loss = 0;            // F(x) + R(x) at the evaluation point
  std::optional<double> dist_to_opt_sq;
  std::optional<double> test_accuracy;
  std::optional<double> consensus_dist;  // decentralized: (1/n) sum ||x_i - mean x||^2
  std::optional<double> density;         // decentralized: fraction of nonzeros in mean x
  int64_t bits_up = 0;    // wire bits put on the network in this iteration (worker -> server, or
                          // node -> neighbour for decentralized), every unicast copy counted
  int64_t bits_down = 0;  // server -> workers in this iteration
  int64_t cum_bits = 0;   // all wire bits since the start, this iteration included
  std::string status = kStatusOk;
  std::map<std::string, double> extra;  // algorithm-specific columns, e.g. DORE residual norms
};

struct RunSummary {
  std::string name;       // the entry's label
  std::string algorithm;  // registry name
  std::string family;     // "parameter_server" or "decentralized"
  std::string status = kStatusOk;
  int64_t iterations = 0;  // iterations completed
  double final_loss = 0;
  std::optional<double> final_dist_to_opt_sq;
  std::optional<double> final_test_accuracy;
  std::optional<double> final_consensus_dist;
  std::optional<double> final_density;
  int64_t total_bits = 0;
  int64_t bits_up = 0;
  int64_t bits_down = 0;
  double mean_iter_time_s = 0;
  double mean_compute_time_s = 0;
  double mean_comm_time_s = 0;
  double sim_time_s = 0;
  std::optional<double> bits_fraction_of_sgd;  // total_bits / the `sgd` entry's total_bits
  std::map<std::string, double> extra;         // e.g. spectral_gap, rho for decentralized runs
};

// What a scenario run produced, in entry order.
struct RunResult {
  std::vector<std::vector<IterationRecord>> records;  // records[entry]
  std::vector<RunSummary> summaries;                  // summaries[entry]
};

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_RECORDS_H_
