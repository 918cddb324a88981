// TuneConsensus: the CHOCO-SGD recipe for the consensus step gamma_c — run CHOCO-gossip (no
// gradients) from random vectors for a few hundred rounds at each gamma_c of a grid and keep the
// one with the lowest final consensus error. The rule is the `choco_gossip` algorithm's
// (gossip.h: CHOCO's rule without gradients, options.rescale applied to the compressor).
//
// Contract: deterministic given options.seed (node i starts from N(0, I) drawn from
// DeriveSeed(seed, i, "tune")); the error after round r is
//   e_r = sum_i ||x_i - mean x||^2 / sum_i ||x_i^0 - mean x^0||^2     (mean x is preserved by
//   gossip);
// a gamma_c whose error becomes non-finite or exceeds 1e6 is reported as diverged (error = +inf).
// The best gamma_c has the lowest final error, except that among those reaching
// kConsensusFloor (where only rounding noise is left) the one that got there first wins.
#ifndef COMMSIM_ALGORITHMS_DECENTRALIZED_TUNE_H_
#define COMMSIM_ALGORITHMS_DECENTRALIZED_TUNE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/decentralized/mixing.h"
#include "compression/compressors/compressor.h"

namespace commsim {

inline constexpr double kConsensusFloor = 1e-20;

struct TuneOptions {
  int64_t dim = 1000;
  int64_t rounds = 300;
  std::vector<double> grid = {};  // empty: DefaultConsensusGrid()
  uint64_t seed = 1;
  std::string rescale = "auto";  // see ChocoScale (choco.h)
};

struct ConsensusTuning {
  std::vector<double> grid;
  // curves[g][r]: relative error after r rounds at grid[g] (r = 0..rounds; stops early at
  // divergence).
  std::vector<std::vector<double>> curves;
  std::vector<double> final_error;  // +inf when diverged
  std::vector<int64_t> bits;        // payload bits sent (one message per node per round)
  size_t best = 0;                  // index into grid
  double best_gamma() const { return grid[best]; }
};

// 1, 0.7, 0.5, 0.4, ..., 0.002: log-spaced, denser where compressed gossip usually settles.
std::vector<double> DefaultConsensusGrid();

// REQUIRES: every grid value in (0, 1], dim >= 1, rounds >= 1.
ConsensusTuning TuneConsensus(const MixingMatrix& mixing, const Compressor& compressor,
                              const TuneOptions& options);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_DECENTRALIZED_TUNE_H_
