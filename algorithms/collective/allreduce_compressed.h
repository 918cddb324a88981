// allreduce_compressed: data-parallel SGD whose compressed gradients are summed by an all-reduce
// in the compressed domain, as GRACE and PyTorch do with random-k. Every worker draws its rand_k
// indices from a seed all workers share (the run's seed and the round), so the n messages keep the
// same k coordinates: the sum of their decoded vectors is the decoded sum of their kept values,
// and the k values are all-reduced (schedule `collective`, `value_bits` on the wire) instead of
// the n messages all-gathered.
//   plain:           c_i = C(g_i);                        x <- prox_gamma(x - gamma mean_i D(c_i))
//   error_feedback:  p_i = e_i + gamma g_i, c_i = C(p_i), e_i <- p_i - D(c_i);
//                    x <- x - mean_i D(c_i)
// The iterates equal allgather_compressed's with the same compressor and `shared_seed` up to the
// order and width of the sum (value_bits 64: to rounding; tested).
// Only compressors whose kept coordinates depend on the shared seed alone are summable: rand_k.
// Under a framework of unit tensor or bucket the indices are drawn per part (k per tensor).
// Codec time: a worker encodes its message before it joins the all-reduce and decodes the sum
// once after (collective_rule.h: Coded). Bits per iteration (ring): 2(n-1) * value_bits * k plus
// a header per message.
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_ALLREDUCE_COMPRESSED_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_ALLREDUCE_COMPRESSED_H_

#include <memory>
#include <vector>

#include "algorithms/collective/collective_driver.h"
#include "algorithms/collective/collective_rule.h"
#include "algorithms/collective/compressed_mean_rule.h"
#include "base/params.h"
#include "compression/codec/link_compressor.h"
#include "compression/compressors/rand_k.h"

namespace commsim {

struct AllReduceCompressedConfig final : ConfigBase<AllReduceCompressedConfig> {
  CollectiveOptions common;
  ComponentSpec compressor;  // default rand_k, fraction 0.01
  bool error_feedback = false;
  AllReduceCompressedConfig();
  void Describe(ParamVisitor& v) override;
  void Validate(ParamProblems& problems) const override;
};

class AllReduceCompressedRule final : public CompressedMeanRule {
 public:
  using Config = AllReduceCompressedConfig;
  explicit AllReduceCompressedRule(const AllReduceCompressedConfig& config);
  // One all-reduce of the kept values (k in all; set the parts first).
  std::vector<CollectivePhase> Phases(int64_t dim, const LayerProfile* layers) const override;
  void SetParts(std::vector<Segment> parts) override;
  void Input(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>& grad, double step,
             Eigen::Ref<Eigen::VectorXd> out) override;
  const Message* Coded(int w, int /*phase*/) const override { return &messages_[w]; }
  void AllReduced(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>& sum) override;
  // The step, then the next round's indices.
  void EndRound(double step) override;

 private:
  void InitRule(const LayerProfile* layers, uint64_t seed) override;
  // The round's shared indices: where the decoded message of a vector of ones is not zero.
  void DrawSupport();

  RandK kept_;  // the compressor's k per part (Phases)
  std::unique_ptr<LinkCompressor> compressor_;
  std::vector<Segment> parts_;
  std::vector<int64_t> support_;          // the round's kept coordinates, increasing
  std::vector<Message> messages_;         // per worker: this round's message
  std::vector<Eigen::VectorXd> decoded_;  // per worker: D(c_i)
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_ALLREDUCE_COMPRESSED_H_
