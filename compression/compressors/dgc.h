// dgc: Deep Gradient Compression's sparsification (Lin, Han, Mao, Wang, Dally, "Deep Gradient
// Compression: Reducing the Communication Bandwidth for Distributed Training", ICLR 2018): keep
// the entries above a magnitude threshold estimated from a random sample, instead of sorting.
//
// For x of dimension d (k = max(1, round(ratio d)) the target count):
//   1. The encoder draws one 64-bit seed from the Rng (not sent: the receiver does not need the
//      sample) and samples m = min(d, max(min_sample, ceil(sample_fraction d))) distinct
//      coordinates from it (SampleIndices, sparse_wire.h; all of them when m = d).
//   2. The threshold thr is the k_s-th largest sampled magnitude, k_s = max(1, round(ratio m)):
//      the sample's (1 - ratio) quantile.
//   3. Selected: every nonzero x_j with |x_j| >= thr. When more than k are selected, the exact top
//      k of the selected ones are kept (ties: the lower index), so a message never carries more
//      than k values (the paper's hierarchical selection, with the target as a cap: commsim's
//      choice).
// Momentum correction, gradient clipping and factor masking are the algorithm's job, not the
// compressor's. Biased; deterministic given the Rng.
// Payload: the kept count s in ceil(log2(k + 1)) bits, the s increasing indices in the sparse
// wire format (sparse_wire.h), then the s values as fp32:
//   fixed   ceil(log2(k + 1)) + s (ceil(log2 d) + 32) bits (exact given s)
//   golomb  ceil(log2(k + 1)) + Golomb-coded gaps (M = GolombParameterFor(s/d)) + 32 s
// Error: the kept set is always the s largest magnitudes of x for some s, and s >= min(k_s, nnz)
// (the k_s sampled entries at or above thr are selected, unless thr = 0, when every nonzero is),
// so ||x - Q(x)||^2 <= (1 - k_s/d) ||x||^2: ErrorFactor(d) = 1 - k_s/d, the honest bound (with the
// defaults k_s is about ratio * m, far below k, when d exceeds min_sample). With m = d it is
// exactly top_k's 1 - k/d and the operator is top_k's.
// Expected(x): exact for m = d (no randomness); otherwise the mean over K sample draws with a
// fixed seed (K = 2^24 / d, clamped to [4, 16384]).
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_DGC_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_DGC_H_

#include <string>

#include "base/params.h"
#include "compression/compressors/compressor.h"
#include "compression/compressors/top_k_select.h"

namespace commsim {

struct DgcConfig final : ConfigBase<DgcConfig> {
  double ratio = 0.001;                // fraction of d kept (at most)
  double sample_fraction = 0.01;       // fraction of d sampled for the threshold
  int64_t min_sample = 100;            // sample at least this many (or all d)
  std::string index_coding = "fixed";  // fixed | golomb
  void Describe(ParamVisitor& v) override;
};

class Dgc final : public Compressor {
 public:
  explicit Dgc(const DgcConfig& config);
  COMMSIM_COMPRESSOR_MEMBERS;

  // k, m and k_s above. REQUIRES: d >= 1.
  int64_t TargetCount(int64_t d) const;
  int64_t SampleSize(int64_t d) const;
  int64_t SampleCount(int64_t d) const;
  // The kept entries for the sample seed: indices increasing, with their values. Throws
  // NonFiniteError on NaN/Inf. REQUIRES: 1 <= x.size() < 2^32.
  TopKSelection Select(const Eigen::Ref<const Eigen::VectorXd>& x, uint64_t seed) const;

 private:
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                     const DecodeTarget* target) const override;
  // Bits of the count field: ceil(log2(k + 1)).
  int CountBits(int64_t d) const;
  DgcConfig config_;
  bool golomb_;
};

}  // namespace commsim

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_DGC_H_
