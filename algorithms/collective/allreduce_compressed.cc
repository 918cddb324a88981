#include "algorithms/collective/allreduce_compressed.h"

#include <utility>

#include "base/check.h"
#include "compression/registry.h"
#include "models/objective.h"

namespace commsim {
namespace {

const RandKConfig& KeptConfig(const ComponentSpec& spec) {
  const auto* config = dynamic_cast<const RandKConfig*>(spec.config.get());
  COMMSIM_CHECK(config != nullptr, "allreduce_compressed: compressor {} is not rand_k", spec.name);
  return *config;
}

}  // namespace

AllReduceCompressedConfig::AllReduceCompressedConfig() : compressor(CompressorSpec("rand_k")) {}

void AllReduceCompressedConfig::Describe(ParamVisitor& v) {
  common.Describe(v);
  v.Component("compressor", compressor,
              "a summable compressor (rand_k): its kept values are all-reduced");
  v.Bool("error_feedback", error_feedback,
         "keep what compression dropped and add it back next time (EF-SGD / MEM-SGD)");
}

void AllReduceCompressedConfig::Validate(ParamProblems& problems) const {
  if (compressor.name != "rand_k") {
    problems.Add("compressor",
                 "must be summable in the compressed domain: rand_k (every worker keeps the "
                 "coordinates drawn from a seed they share), got \"" +
                     compressor.name + "\"; allgather_compressed takes any compressor");
  }
}

AllReduceCompressedRule::AllReduceCompressedRule(const AllReduceCompressedConfig& config)
    : CompressedMeanRule(config.error_feedback),
      kept_(KeptConfig(config.compressor)),
      compressor_(MakeLinkCompressor(config.compressor)) {}

std::vector<CollectivePhase> AllReduceCompressedRule::Phases(int64_t dim,
                                                             const LayerProfile* /*layers*/) const {
  int64_t k = 0;
  if (parts_.empty()) k = kept_.KFor(dim);
  for (const Segment& s : parts_) k += kept_.KFor(s.size);
  return {{.kind = PhaseKind::kAllReduce, .length = k}};
}

void AllReduceCompressedRule::SetParts(std::vector<Segment> parts) {
  parts_ = parts;
  compressor_->set_buckets(std::move(parts));
  if (x_.size() > 0) DrawSupport();  // after Init: the indices are drawn per part
}

void AllReduceCompressedRule::InitRule(const LayerProfile* /*layers*/, uint64_t seed) {
  InitMean(seed);
  messages_.resize(static_cast<size_t>(workers_));
  decoded_.assign(static_cast<size_t>(workers_), Eigen::VectorXd(x_.size()));
  DrawSupport();
}

void AllReduceCompressedRule::DrawSupport() {
  Rng rng = SharedRng();
  Eigen::VectorXd& ones = decoded_[0];
  compressor_->Decode(compressor_->Encode(Eigen::VectorXd::Ones(x_.size()), rng), ones);
  support_.clear();
  for (int64_t i = 0; i < ones.size(); ++i) {
    if (ones[i] != 0) support_.push_back(i);
  }
}

void AllReduceCompressedRule::Input(int w, int /*phase*/,
                                    const Eigen::Ref<const Eigen::VectorXd>& grad, double step,
                                    Eigen::Ref<Eigen::VectorXd> out) {
  COMMSIM_CHECK(out.size() == static_cast<int64_t>(support_.size()), "{} values for {} kept",
                out.size(), support_.size());
  Rng rng = SharedRng();
  Eigen::VectorXd& decoded = decoded_[static_cast<size_t>(w)];
  Message& message = messages_[static_cast<size_t>(w)];
  if (error_feedback_) {
    Eigen::VectorXd& e = memory_[static_cast<size_t>(w)];
    e += step * grad;  // p_i
    message = compressor_->Encode(e, rng);
    compressor_->Decode(message, decoded);
    e -= decoded;
  } else {
    message = compressor_->Encode(grad, rng);
    compressor_->Decode(message, decoded);
  }
  for (size_t j = 0; j < support_.size(); ++j) out[static_cast<int64_t>(j)] = decoded[support_[j]];
}

// Every worker ends with the same sum (collective_rule.h): worker 0's stands for all.
void AllReduceCompressedRule::AllReduced(int w, int /*phase*/,
                                         const Eigen::Ref<const Eigen::VectorXd>& sum) {
  if (w != 0) return;
  mean_.setZero();
  const double n = static_cast<double>(workers_);
  for (size_t j = 0; j < support_.size(); ++j)
    mean_[support_[j]] = sum[static_cast<int64_t>(j)] / n;
}

void AllReduceCompressedRule::EndRound(double step) {
  CompressedMeanRule::EndRound(step);
  DrawSupport();
}

}  // namespace commsim
