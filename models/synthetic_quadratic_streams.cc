// SyntheticQuadratic::StreamFiniteGradients: several workers' gradients at once, chunk by chunk.
#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "base/check.h"
#include "models/synthetic_quadratic.h"

namespace commsim {

bool SyntheticQuadratic::StreamFiniteGradients(std::span<GradientStream> streams) const {
  // On the stack for up to kInline streams: no allocation while the callers' messages are being
  // made (worker_uplinks.h).
  constexpr size_t kInline = 16;
  std::array<Pass, kInline> inline_passes;
  std::vector<Pass> heap_passes(streams.size() > kInline ? streams.size() : 0);
  const std::span<Pass> passes(streams.size() > kInline ? heap_passes.data() : inline_passes.data(),
                               streams.size());
  bool any_order = true;
  for (size_t i = 0; i < streams.size(); ++i) {
    const GradientStream& s = streams[i];
    COMMSIM_CHECK(s.x32 != nullptr || s.x->size() == dim_, "dimension mismatch");
    passes[i] = Begin(s.worker, s.x32 != nullptr ? nullptr : s.x->data(), s.x32, s.batch, *s.rng);
    // Noise is drawn in index order: such a stream goes in order.
    any_order = any_order && s.sink_at && !passes[i].noisy;
  }
  if (any_order && workers_ > 1) {
    StreamBySegments(streams, passes);
  } else {
    StreamInOrder(streams, passes);
  }
  for (size_t i = 0; i < streams.size(); ++i) streams[i].finite = (passes[i].bad >> 63) == 0;
  return true;
}

void SyntheticQuadratic::FillStreams(std::span<GradientStream> streams, std::span<Pass> passes,
                                     int64_t begin, int64_t end, const double* lam, double* chunk,
                                     bool at) const {
  for (size_t i = 0; i < streams.size(); ++i) {
    const auto fill = passes[i].x32 != nullptr ? &SyntheticQuadratic::FillChunk<false, float>
                                               : &SyntheticQuadratic::FillChunk<false, double>;
    (this->*fill)(passes[i], begin, end, lam, chunk);
    if (at) {
      streams[i].sink_at(begin, chunk, end - begin);
    } else {
      streams[i].sink(chunk, end - begin);
    }
  }
}

void SyntheticQuadratic::StreamInOrder(std::span<GradientStream> streams,
                                       std::span<Pass> passes) const {
  std::array<double, kChunk> lam, chunk;
  for (int64_t begin = 0; begin < dim_; begin += kChunk) {
    const int64_t end = std::min(dim_, begin + kChunk);
    lambda_.Fill(begin, end - begin, lam.data());
    FillStreams(streams, passes, begin, end, lam.data(), chunk.data(), false);
  }
}

// Worker i reads r at j + o_i (mod d), o_i = floor(i d / n): the segment boundaries s_m = o_m.
// Step k takes the k-th chunk of every segment m, [s_m + k C, s_m + (k + 1) C) within the
// segment, so worker i reads r near s_m + o_i + k C ~ s_(m+i mod n) + k C: n runs of r that every
// stream of the step shares, read from memory once instead of once per stream. The curvatures
// are filled from the block start at or before the chunk (QuadraticCurvatures::Fill's
// alignment).
void SyntheticQuadratic::StreamBySegments(std::span<GradientStream> streams,
                                          std::span<Pass> passes) const {
  std::array<double, kChunk + QuadraticCurvatures::kBlock> lam;
  std::array<double, kChunk> chunk;
  const auto boundary = [&](int m) {
    return m == workers_ ? dim_ : shift_[static_cast<size_t>(m)];
  };
  int64_t longest = 0;
  for (int m = 0; m < workers_; ++m) longest = std::max(longest, boundary(m + 1) - boundary(m));
  for (int64_t offset = 0; offset < longest; offset += kChunk) {
    for (int m = 0; m < workers_; ++m) {
      const int64_t begin = boundary(m) + offset;
      const int64_t end = std::min(boundary(m + 1), begin + kChunk);
      if (begin >= end) continue;
      const int64_t from = begin / QuadraticCurvatures::kBlock * QuadraticCurvatures::kBlock;
      lambda_.Fill(from, end - from, lam.data());
      FillStreams(streams, passes, begin, end, lam.data() + (begin - from), chunk.data(), true);
    }
  }
}

}  // namespace commsim
