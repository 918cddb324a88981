// How PowerSGD sees the parameter vector: blocks in vector order, each a matrix or a vector.
//
// Reshape kSquare (commsim's own): one block per layer of the layer profile when it is given and
// its parameters add up to d, else one block of all d parameters. A block of p parameters becomes
// an m x k matrix with k = ceil(sqrt(p)) and m = ceil(p / k), filled column by column with the
// block's parameters in order and zero-padded to m k entries.
// Reshape kOutByRest (the paper's and PyTorch's hook): one block per parameter tensor
// (Layer::tensors); a layer's weight (its first tensor, with Layer::out rows) becomes the
// out x (p / out) matrix, every other tensor (biases, norms) a vector; without a profile, one
// square block as above.
// Either way a block stays an uncompressed vector when rank (m + k) >= p (compression would not
// save anything).
// The all-reduced P of a round holds the matrices' m x rank factors in block order (column-major)
// followed by the vectors' values; Q holds the k x rank factors in block order.
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_POWERSGD_LAYOUT_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_POWERSGD_LAYOUT_H_

#include <array>
#include <cstdint>
#include <vector>

namespace commsim {

struct LayerProfile;

struct PowerSgdBlock {
  int64_t offset = 0;  // in the parameter vector
  int64_t params = 0;
  bool matrix = false;
  int64_t rows = 0, cols = 0;  // m, k (matrices)
  int64_t padded_offset = 0;   // matrices: in the per-worker padded matrix storage
  int64_t p_offset = 0;        // in P: matrices m x rank; vectors their values
  int64_t q_offset = 0;        // in Q (matrices)
};

struct PowerSgdLayout {
  std::vector<PowerSgdBlock> blocks;
  int64_t padded_size = 0;  // sum of m k over the matrices
  int64_t p_length = 0;
  int64_t q_length = 0;
};

enum class PowerSgdReshape { kSquare, kOutByRest };

// REQUIRES: dim >= 0, rank >= 1. `layers` may be nullptr.
PowerSgdLayout MakePowerSgdLayout(int64_t dim, int rank, const LayerProfile* layers,
                                  PowerSgdReshape reshape = PowerSgdReshape::kSquare);

// The floating-point operations one worker computes for PowerSGD in a round, per matrix m x k at
// rank r: before the P all-reduce, M += G and P = M Q (m k + 2 m k r); before the Q all-reduce,
// Gram-Schmidt on P and Q = M^T P (2 m r^2 + 2 m k r); after it, G^ = P Q^T, e = M - G^ and the
// step (2 m k r + 2 m k). Index 0, 1, 2 in that order.
std::array<double, 3> PowerSgdFlops(const PowerSgdLayout& layout, int rank);

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_POWERSGD_LAYOUT_H_
