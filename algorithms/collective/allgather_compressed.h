// allgather_compressed: compressed data-parallel SGD without a server. Worker i compresses its
// gradient, every worker all-gathers everyone's message (ring all-gather: n - 1 steps, each
// forwarding one message as it was received, so messages of different sizes travel as they are),
// decodes all n and averages them in worker order:
//   plain:           c_i = C(g_i);                        x <- prox_gamma(x - gamma mean_i D(c_i))
//   error_feedback:  p_i = e_i + gamma g_i, c_i = C(p_i), e_i <- p_i - D(c_i);
//                    x <- x - mean_i D(c_i)   (EF-SGD / MEM-SGD without a server; e_i = 0 at start)
// Any registered compressor (`compressor`, default qsgd). With `shared_seed` every worker draws
// the compressor's randomness from one stream per round (collective_rule.h: SharedRoundRng), so
// rand_k keeps the same indices on every worker (as allreduce_compressed does). `wire`
// "framework" ships every message in the layout GRACE ships (codec/framework_wire.h) instead of
// the exact encoding: same values, the framework's bits. Bits per iteration:
// (n - 1) times the sum of the n messages' wire bits (each message crosses n - 1 links of the
// ring). Every worker decodes the same n messages to the same average; the simulator decodes them
// once, on the run's threads: T messages at a time side by side, then added in worker order (each
// coordinate's sum in the same order whatever T).
#ifndef COMMSIM_ALGORITHMS_COLLECTIVE_ALLGATHER_COMPRESSED_H_
#define COMMSIM_ALGORITHMS_COLLECTIVE_ALLGATHER_COMPRESSED_H_

#include <memory>
#include <string>
#include <vector>

#include "algorithms/collective/collective_driver.h"
#include "algorithms/collective/collective_rule.h"
#include "algorithms/collective/compressed_mean_rule.h"
#include "base/params.h"
#include "compression/codec/link_compressor.h"

namespace commsim {

struct AllGatherCompressedConfig final : ConfigBase<AllGatherCompressedConfig> {
  CollectiveOptions common;  // not declared: the all-gather is always a ring
  ComponentSpec compressor;  // default qsgd
  bool error_feedback = false;
  bool shared_seed = false;
  std::string wire = "exact";  // or "framework" (compression/codec/framework_wire.h)
  AllGatherCompressedConfig();
  void Describe(ParamVisitor& v) override;
  void Validate(ParamProblems& problems) const override;
};

class AllGatherCompressedRule final : public CompressedMeanRule {
 public:
  using Config = AllGatherCompressedConfig;
  explicit AllGatherCompressedRule(const AllGatherCompressedConfig& config);
  std::vector<CollectivePhase> Phases(int64_t, const LayerProfile*) const override {
    return {{.kind = PhaseKind::kAllGather}};
  }
  Message Encode(int w, int phase, const Eigen::Ref<const Eigen::VectorXd>& grad, double step,
                 Rng& rng) override;
  void AllGathered(int w, int phase, std::span<const SharedMessage> messages) override;
  void SetParts(std::vector<Segment> parts) override;
  void UsePool(ThreadPool& pool) override;

 private:
  void InitRule(const LayerProfile* layers, uint64_t seed) override;

  std::unique_ptr<LinkCompressor> compressor_;
  bool shared_seed_;
  ThreadPool* pool_ = nullptr;
  std::vector<Eigen::VectorXd> decoded_;  // AllGathered's: one per thread
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_COLLECTIVE_ALLGATHER_COMPRESSED_H_
