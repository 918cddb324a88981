// `commsim plot`: PNG, SVG and PDF figures of a run folder or a sweep folder, drawn by gnuplot
// from the folder's CSV files into DIR/plots/ (scripts and data stay beside the images).
//
// Run folder (metrics.csv, summary.csv):
//   loss_vs_iteration, loss_vs_bits, loss_vs_time: the suboptimality F(x) − F* when summary.csv
//     has the optimum's loss (column optimal_loss), else the training loss F(x);
//   dist_vs_iteration (when ‖x − x*‖² is known), accuracy_vs_bits and accuracy_vs_iteration
//   (when test accuracy is known),
//   consensus_vs_iteration (decentralized), grad_residual_vs_iteration and
//   model_residual_vs_iteration (when recorded: DIANA's and DORE's residual norms),
//   bits_per_iteration (bars per entry, uplink solid,
//   downlink hatched), time_breakdown (stacked bars per entry of the mean time per iteration:
//   compute, codec, communication from summary.csv's mean_compute_time_s, mean_codec_time_s and
//   mean_comm_time_s; a missing column counts as 0). Decentralized runs are evaluated at the mean
//   x̄ and say so.
// Sweep folder (sweep.csv, axes.csv; x = the first axis):
//   time_per_iteration (one line per curve, the compute time as a grey reference),
//   speedup (over SGD, or D-PSGD for decentralized sweeps), time_to_target (when recorded).
// Log scales where the values span a wide range, with 10^n tic labels (SI prefixes on bit and
// bit/s axes). Every entry has its own colour and its own marker (EntryStyles); the first entry
// of an algorithm keeps the algorithm's colour in every plot. Sizes: options.size (page or
// column of a paper). Each function returns true when the images were rendered and false, after
// one line on options.log, when gnuplot is missing (the scripts and data are still written).
#ifndef COMMSIM_ANALYSIS_PLOT_H_
#define COMMSIM_ANALYSIS_PLOT_H_

#include <string>

#include "analysis/gnuplot.h"

namespace commsim {

bool PlotRunFolder(const std::string& dir, const PlotOptions& options = {});
bool PlotSweepFolder(const std::string& dir, const PlotOptions& options = {});
// Either of the above, chosen by the folder's content (sweep.csv or metrics.csv), for `commsim
// plot`: the folder written (options.into, else `dir`) must carry commsim's marker
// (CheckMarkedFolder). Throws UserError when it does not, or when `dir` holds neither file.
bool PlotFolder(const std::string& dir, const PlotOptions& options = {});

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_PLOT_H_
