// Plain records of a run: one IterationRecord per algorithm per recorded iteration and one
// RunSummary per algorithm. Producers (algorithms/) fill them; writers and plots (analysis/) read
// them. Units are in the field names; optional values are empty cells in CSV and null in JSON.
#ifndef COMMSIM_RECORDS_RECORDS_H_
#define COMMSIM_RECORDS_RECORDS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace commsim {

// Status of an algorithm's run:
//   "ok"        ran all its iterations;
//   "diverged"  stopped at the iteration where a non-finite value appeared (in a gradient, message
//               or model, checked every iteration) or, at a recorded iteration, the loss was
//               non-finite, above the scenario's divergence_loss, or above divergence_factor times
//               the initial loss;
//   "error"     the entry threw (e.g. a simulation limit); `message` holds the error text.
// Stalling is not a status: it is a result, shown by the numbers.
inline constexpr const char* kStatusOk = "ok";
inline constexpr const char* kStatusDiverged = "diverged";
inline constexpr const char* kStatusError = "error";

// The run's target for time-to-target (see analysis/targets.h).
struct RunTarget {
  std::string metric;  // "loss" (reached when loss <= value) or "test_accuracy" (>= value)
  double value = 0;
  std::string rule;  // how the value was chosen, in words (written to summary.json)
};

// The columns of the output files are listed once, here, by the Visit functions below: each calls
// `v(name, value, info)` once per column, in column order, and every writer (metrics.csv,
// summary.csv, summary.json, the run report) iterates them. Adding a column is one line in one
// Visit function (plus the member). `value` is one of: const std::string&, int64_t, double,
// std::optional<double>, std::optional<int64_t>. Optional values are empty CSV cells and JSON null;
// non-finite numbers are "nan"/"inf" in CSV and null in JSON. The `extra` maps follow the listed
// columns, keys sorted.
struct ColumnInfo {
  bool csv_only = false;       // summary.csv only: not a field of summary.json's entries
  bool empty_is_null = false;  // an empty string is null in JSON
  // Non-empty: the run report's "Time and quality" table shows this column under this title when
  // some entry has a finite number in it.
  const char* report_title = "";
};

struct IterationRecord {
  std::string algorithm;  // the entry's label
  int64_t iteration = 0;  // 1-based: the iteration that just ended
  double sim_time_s = 0;  // simulated time at the end of this iteration
  double iter_time_s = 0;
  double compute_time_s = 0;  // the slowest worker's compute time in this iteration
  // Encoding and decoding time on the iteration's critical path: along the chain of events that
  // ended the iteration (the last party to finish, back through the decodes, encodes and
  // transfers it waited for, to a compute end), the sum of the codec jobs on it, including a
  // job's wait for its codec lane when the lane was busy with codec work (algorithms/codec_time.h).
  // 0 with codec mode none.
  double codec_time_s = 0;
  double comm_time_s = 0;  // iter_time_s - compute_time_s - codec_time_s (network and waiting)
  // Layer-wise overlap (parameter server): the time from the first gradient bucket leaving a
  // worker to the end of the slowest worker's compute, i.e. how long communication and codec
  // work ran under the backward pass (an upper bound on the time overlap saved, measured in the
  // same run, not by a second timing pass); 0 without overlap.
  double overlap_saved_s = 0;
  double loss = 0;  // F(x) + R(x) at the evaluation point
  std::optional<double> dist_to_opt_sq;
  std::optional<double> test_accuracy;
  std::optional<double> consensus_dist;  // decentralized: (1/n) sum ||x_i - mean x||^2
  std::optional<double> density;         // decentralized: fraction of nonzeros in mean x
  int64_t bits_up = 0;    // wire bits put on the network in this iteration (worker -> server, or
                          // node -> neighbour for decentralized), every unicast copy counted
  int64_t bits_down = 0;  // server -> workers in this iteration
  int64_t cum_bits = 0;   // all wire bits since the start, this iteration included
  // bits_up + bits_down as the network's protocol carries them: packets with their protocol
  // headers and framing, in bytes (each message rounded up to whole bytes)
  int64_t wire_bytes = 0;
  std::string status = kStatusOk;
  std::map<std::string, double> extra;  // algorithm-specific columns, e.g. DORE residual norms

  // metrics.csv's columns.
  template <class V>
  void Visit(V&& v) const {
    v("algorithm", algorithm);
    v("iteration", iteration);
    v("sim_time_s", sim_time_s);
    v("iter_time_s", iter_time_s);
    v("compute_time_s", compute_time_s);
    v("codec_time_s", codec_time_s);
    v("comm_time_s", comm_time_s);
    v("overlap_saved_s", overlap_saved_s);
    v("loss", loss);
    v("dist_to_opt_sq", dist_to_opt_sq);
    v("test_accuracy", test_accuracy);
    v("consensus_dist", consensus_dist);
    v("density", density);
    v("bits_up", bits_up);
    v("bits_down", bits_down);
    v("cum_bits", cum_bits);
    v("wire_bytes", wire_bytes);
    v("status", status);
  }
};

struct RunSummary {
  std::string name;       // the entry's label
  std::string algorithm;  // registry name
  std::string family;     // "parameter_server" or "decentralized"
  std::string color;      // plot colour of the algorithm, "#rrggbb" (its registry line)
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
  int64_t wire_bytes = 0;  // the sum of the iterations' wire_bytes
  // The same bits per iteration (means over the iterations completed; 0 when none):
  double bits_per_iteration = 0;    // total_bits / iterations: every message of an iteration
  double bits_up_per_worker = 0;    // bits_up / (iterations x workers): one worker's (or
                                    // node's) messages of one iteration
  double bits_down_per_worker = 0;  // bits_down / (iterations x workers): what one worker
                                    // is sent by the server(s) in one iteration
  double bits_per_parameter = 0;    // bits_up_per_worker / d
  double mean_iter_time_s = 0;
  double mean_compute_time_s = 0;
  double mean_codec_time_s = 0;  // mean of codec_time_s
  double mean_comm_time_s = 0;   // mean_iter - mean_compute - mean_codec
  double mean_overlap_saved_s = 0;
  double sim_time_s = 0;
  // How codec time was counted: "none", "model <device>", or "measured (wall time: not
  // reproducible)" — a measured run's times differ from run to run.
  std::string codec = "none";
  std::string message;  // why the status is not "ok" (divergence reason, error text); else ""
  // Comparison with a baseline (label in `baseline`): the full-precision entry of the entry's
  // family (`sgd`, `dpsgd`, `allreduce_sgd`), else the first such entry of any family, else the
  // first entry that sent bits (scenarios/runner.cc).
  std::string baseline;                             // "" when no entry sent bits
  std::optional<double> bits_fraction_of_baseline;  // bits per iteration / the baseline's
  // Time to target (analysis/targets.h): simulated time and wire bits at the first recorded
  // iteration that reaches the run's target; empty when not reached or when no target applies.
  std::optional<double> time_to_target_s;
  std::optional<int64_t> bits_to_target;
  std::map<std::string, double> extra;  // e.g. spectral_gap, rho for decentralized runs

  // summary.csv's columns and summary.json's entry fields; the run's target (the same on every
  // row) is shown in the CSV only.
  template <class V>
  void Visit(V&& v, const std::optional<RunTarget>& target) const {
    v("name", name);
    v("algorithm", algorithm);
    v("family", family);
    v("color", color);
    v("status", status);
    v("message", message);
    v("iterations", iterations);
    v("final_loss", final_loss);
    v("final_dist_to_opt_sq", final_dist_to_opt_sq, ColumnInfo{.report_title = "final ‖x−x*‖²"});
    v("final_test_accuracy", final_test_accuracy,
      ColumnInfo{.report_title = "final test accuracy"});
    v("final_consensus_dist", final_consensus_dist,
      ColumnInfo{.report_title = "final consensus distance"});
    v("final_density", final_density, ColumnInfo{.report_title = "final density"});
    v("total_bits", total_bits);
    v("bits_up", bits_up);
    v("bits_down", bits_down);
    v("wire_bytes", wire_bytes);
    v("bits_per_iteration", bits_per_iteration);
    v("bits_up_per_worker", bits_up_per_worker);
    v("bits_down_per_worker", bits_down_per_worker);
    v("bits_per_parameter", bits_per_parameter);
    v("mean_iter_time_s", mean_iter_time_s);
    v("mean_compute_time_s", mean_compute_time_s);
    v("mean_codec_time_s", mean_codec_time_s);
    v("mean_comm_time_s", mean_comm_time_s);
    v("mean_overlap_saved_s", mean_overlap_saved_s);
    v("codec", codec);
    v("sim_time_s", sim_time_s);
    v("baseline", baseline, ColumnInfo{.empty_is_null = true});
    v("bits_fraction_of_baseline", bits_fraction_of_baseline);
    v("target_metric", target ? target->metric : std::string(), ColumnInfo{.csv_only = true});
    v("target_value", target ? std::optional<double>(target->value) : std::nullopt,
      ColumnInfo{.csv_only = true});
    v("time_to_target_s", time_to_target_s);
    v("bits_to_target", bits_to_target);
  }
};

// The problem the entries shared, for the outputs.
struct ProblemInfo {
  int64_t dim = 0;                       // d, the model's parameter count
  int64_t workers = 0;                   // shards (parameter-server workers or decentralized nodes)
  int64_t train_samples = 0;             // all workers' shards together
  int64_t test_samples = 0;              // 0 when the problem has no test set
  int64_t shard_min = 0, shard_max = 0;  // training samples per worker
  int64_t batch_min = 0, batch_max = 0;  // effective batch per worker: min(batch, shard), or shard
};

// What a scenario run produced, in entry order.
struct RunResult {
  std::vector<std::vector<IterationRecord>> records;  // records[entry]
  std::vector<RunSummary> summaries;                  // summaries[entry]
  std::optional<RunTarget> target;  // absent when time to target is not meaningful
  std::string target_omitted;       // why `target` is absent ("" when present)
  ProblemInfo problem;
  // Which parts of the time model are on, in one line (scenarios/time_model_line.h); "" when
  // not stated.
  std::string time_model;
  // Wall-clock seconds (whole run and per entry): the only non-deterministic outputs; written to
  // run.json alone, so every other file stays byte-identical across runs.
  double wall_time_s = 0;
  std::vector<double> entry_wall_time_s;
};

}  // namespace commsim

#endif  // COMMSIM_RECORDS_RECORDS_H_
