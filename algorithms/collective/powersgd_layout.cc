#include "algorithms/collective/powersgd_layout.h"

#include "models/layer_profile.h"
#include "sim/check.h"

namespace commsim {

PowerSgdLayout MakePowerSgdLayout(int64_t dim, int rank, const LayerProfile* layers) {
  COMMSIM_CHECK(dim >= 0 && rank >= 1, "PowerSGD layout of {} values, rank {}", dim, rank);
  std::vector<int64_t> sizes;
  if (layers != nullptr && layers->TotalParams() == dim) {
    for (const Layer& l : layers->layers) sizes.push_back(l.params);
  } else {
    sizes.push_back(dim);
  }
  PowerSgdLayout layout;
  int64_t offset = 0;
  for (int64_t p : sizes) {
    PowerSgdBlock b{.offset = offset, .params = p};
    offset += p;
    int64_t k = 0;
    while (k * k < p) ++k;  // ceil(sqrt(p)), exact in integers
    const int64_t m = k == 0 ? 0 : (p + k - 1) / k;
    b.matrix = p > 0 && rank * (m + k) < p;
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

}  // namespace commsim
