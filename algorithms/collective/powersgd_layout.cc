#include "algorithms/collective/powersgd_layout.h"

#include <vector>

#include "base/check.h"
#include "models/layer_profile.h"

namespace commsim {

namespace {

// A block's size and, for an out x rest matrix, its rows (0: square, -1: a vector).
struct BlockShape {
  int64_t params = 0;
  int64_t rows = 0;
};

std::vector<BlockShape> Shapes(int64_t dim, const LayerProfile* layers, PowerSgdReshape reshape) {
  std::vector<BlockShape> shapes;
  if (layers == nullptr || layers->TotalParams() != dim) return {{dim, 0}};
  for (const Layer& l : layers->layers) {
    if (reshape == PowerSgdReshape::kSquare) {
      shapes.push_back({l.params, 0});
      continue;
    }
    if (l.tensors.empty() && l.out == 0) {  // a layer given by its size only
      shapes.push_back({l.params, 0});
      continue;
    }
    const std::vector<int64_t> one{l.params};
    const std::vector<int64_t>& tensors = l.tensors.empty() ? one : l.tensors;
    for (size_t t = 0; t < tensors.size(); ++t) {
      const bool weight = t == 0 && l.out > 0 && tensors[t] % l.out == 0;
      shapes.push_back({tensors[t], weight ? l.out : -1});
    }
  }
  return shapes;
}

}  // namespace

PowerSgdLayout MakePowerSgdLayout(int64_t dim, int rank, const LayerProfile* layers,
                                  PowerSgdReshape reshape) {
  COMMSIM_CHECK(dim >= 0 && rank >= 1, "PowerSGD layout of {} values, rank {}", dim, rank);
  PowerSgdLayout layout;
  int64_t offset = 0;
  for (const BlockShape& shape : Shapes(dim, layers, reshape)) {
    const int64_t p = shape.params;
    PowerSgdBlock b{.offset = offset, .params = p};
    offset += p;
    int64_t k = 0, m = 0;
    if (shape.rows > 0) {
      m = shape.rows;
      k = p / m;
    } else if (shape.rows == 0) {
      while (k * k < p) ++k;  // ceil(sqrt(p)), exact in integers
      m = k == 0 ? 0 : (p + k - 1) / k;
    }
    b.matrix = p > 0 && shape.rows >= 0 && rank * (m + k) < p;
    if (b.matrix) {
      b.rows = m;
      b.cols = k;
      b.padded_offset = layout.padded_size;
      layout.padded_size += m * k;
    }
    layout.blocks.push_back(b);
  }
  for (PowerSgdBlock& b : layout.blocks) {  // P: matrix factors first, then the vectors
    if (!b.matrix) continue;
    b.p_offset = layout.p_length;
    layout.p_length += b.rows * rank;
    b.q_offset = layout.q_length;
    layout.q_length += b.cols * rank;
  }
  for (PowerSgdBlock& b : layout.blocks) {
    if (b.matrix) continue;
    b.p_offset = layout.p_length;
    layout.p_length += b.params;
  }
  return layout;
}

std::array<double, 3> PowerSgdFlops(const PowerSgdLayout& layout, int rank) {
  std::array<double, 3> flops{};
  const double r = rank;
  for (const PowerSgdBlock& b : layout.blocks) {
    if (!b.matrix) continue;
    const double m = static_cast<double>(b.rows), mk = m * static_cast<double>(b.cols);
    flops[0] += mk + 2 * mk * r;
    flops[1] += 2 * m * r * r + 2 * mk * r;
    flops[2] += 2 * mk * r + 2 * mk;
  }
  return flops;
}

}  // namespace commsim
