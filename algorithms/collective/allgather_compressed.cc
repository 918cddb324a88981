#include "algorithms/collective/allgather_compressed.h"

#include "algorithms/codec/link_compressor.h"
#include "algorithms/registry.h"
#include "models/objective.h"

namespace commsim {

AllGatherCompressedConfig::AllGatherCompressedConfig() : compressor(CompressorSpec("qsgd")) {}

void AllGatherCompressedConfig::Describe(ParamVisitor& v) {
  v.Component("compressor", compressor, "how each worker's gradient is compressed");
  v.Bool("error_feedback", error_feedback,
         "keep what compression dropped and add it back next time (EF-SGD / MEM-SGD)");
}

AllGatherCompressedRule::AllGatherCompressedRule(const AllGatherCompressedConfig& config)
    : compressor_(MakeLinkCompressor(config.compressor)), error_feedback_(config.error_feedback) {}

void AllGatherCompressedRule::Init(int workers, const Eigen::Ref<const Eigen::VectorXd>& x0,
                                   const Objective& objective, const LayerProfile* /*layers*/,
                                   uint64_t /*seed*/) {
  objective_ = &objective;
  x_ = x0;
  mean_.resize(x0.size());
  decoded_.resize(x0.size());
  if (error_feedback_) memory_.assign(workers, Eigen::VectorXd::Zero(x0.size()));
}

Message AllGatherCompressedRule::Encode(int w, int /*phase*/,
                                        const Eigen::Ref<const Eigen::VectorXd>& grad, double step,
                                        Rng& rng) {
  if (!error_feedback_) return compressor_->Encode(grad, rng);
  // p_i and then the new e_i live in e_i itself (no shared scratch: workers encode in parallel).
  Eigen::VectorXd& e = memory_[w];
  e += step * grad;  // p_i = e_i + gamma g_i
  Message message = compressor_->Encode(e, rng);
  // e_i = p_i - D(c_i): p_i + (-1) D(c_i), the same bits as the difference.
  compressor_->DecodeInto(message, DecodeTarget(e, e, -1.0));
  return message;
}

void AllGatherCompressedRule::AllGathered(int w, int /*phase*/,
                                          std::span<const SharedMessage> messages) {
  if (w != 0) return;  // the same messages on every worker: one decode stands for all
  mean_.setZero();
  for (const SharedMessage& m : messages) {
    compressor_->Decode(*m, decoded_);
    mean_ += decoded_;
  }
  mean_ /= static_cast<double>(messages.size());
}

void AllGatherCompressedRule::EndRound(double step) {
  if (error_feedback_) {
    x_ -= mean_;
  } else {
    x_ -= step * mean_;
  }
  objective_->Prox(step, x_);
}

void AllGatherCompressedRule::Extra(std::map<std::string, double>& out) const {
  if (!error_feedback_) return;
  double sum = 0;
  for (const Eigen::VectorXd& m : memory_) sum += m.squaredNorm();
  out["memory_sq"] = sum / static_cast<double>(memory_.size());
}

}  // namespace commsim
