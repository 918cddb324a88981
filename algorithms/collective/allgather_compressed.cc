#include "algorithms/collective/allgather_compressed.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "base/thread_pool.h"
#include "compression/codec/framework_wire.h"
#include "compression/codec/link_compressor.h"
#include "compression/registry.h"
#include "models/objective.h"

namespace commsim {
namespace {

constexpr std::array<std::string_view, 2> kWireFormats = {"exact", "framework"};

}  // namespace

AllGatherCompressedConfig::AllGatherCompressedConfig() : compressor(CompressorSpec("qsgd")) {}

void AllGatherCompressedConfig::Describe(ParamVisitor& v) {
  v.Component("compressor", compressor, "how each worker's gradient is compressed");
  v.Bool("error_feedback", error_feedback,
         "keep what compression dropped and add it back next time (EF-SGD / MEM-SGD)");
  v.Text("wire", wire, kWireFormats,
         "exact: commsim's encoding; framework: the layout GRACE ships (int32 index + fp32 "
         "value, one byte per sign or level)");
  v.Bool("shared_seed", shared_seed,
         "every worker draws the compressor's randomness from one stream per round (rand_k: the "
         "same indices everywhere)");
}

void AllGatherCompressedConfig::Validate(ParamProblems& problems) const {
  if (wire == "framework" && FrameworkWireBits(compressor.name, 1, 1) < 0) {
    problems.Add("wire", fmt::format("\"framework\" needs a compressor with a framework layout "
                                     "({}), got \"{}\"",
                                     FrameworkWireCompressors(), compressor.name));
  }
}

AllGatherCompressedRule::AllGatherCompressedRule(const AllGatherCompressedConfig& config)
    : CompressedMeanRule(config.error_feedback),
      compressor_(MakeLinkCompressor(config.compressor)),
      shared_seed_(config.shared_seed) {
  compressor_->set_framework_wire(config.wire == "framework");
}

void AllGatherCompressedRule::InitRule(const LayerProfile* /*layers*/, uint64_t seed) {
  InitMean(seed);
  decoded_.assign(1, Eigen::VectorXd(x_.size()));
}

Message AllGatherCompressedRule::Encode(int w, int /*phase*/,
                                        const Eigen::Ref<const Eigen::VectorXd>& grad, double step,
                                        Rng& own) {
  Rng shared = SharedRng();
  Rng& rng = shared_seed_ ? shared : own;
  if (!error_feedback_) return compressor_->Encode(grad, rng);
  // p_i and then the new e_i live in e_i itself (no shared scratch: workers encode in parallel).
  Eigen::VectorXd& e = memory_[w];
  e += step * grad;  // p_i = e_i + gamma g_i
  Message message = compressor_->Encode(e, rng);
  // e_i = p_i - D(c_i): p_i + (-1) D(c_i), the same bits as the difference.
  compressor_->DecodeInto(message, DecodeTarget(e, e, -1.0));
  return message;
}

void AllGatherCompressedRule::SetParts(std::vector<Segment> parts) {
  compressor_->set_buckets(std::move(parts));
}

void AllGatherCompressedRule::UsePool(ThreadPool& pool) {
  pool_ = &pool;
  decoded_.resize(static_cast<size_t>(pool.threads()), Eigen::VectorXd(mean_.size()));
}

void AllGatherCompressedRule::AllGathered(int w, int /*phase*/,
                                          std::span<const SharedMessage> messages) {
  if (w != 0) return;  // the same messages on every worker: one decode stands for all
  mean_.setZero();
  const auto n = static_cast<int64_t>(messages.size());
  const auto batch = static_cast<int64_t>(decoded_.size());
  for (int64_t first = 0; first < n; first += batch) {
    const int64_t count = std::min(batch, n - first);
    const auto decode = [&](int64_t k, int) {
      compressor_->Decode(*messages[static_cast<size_t>(first + k)],
                          decoded_[static_cast<size_t>(k)]);
    };
    // mean_ += the batch's vectors in worker order, block by block of coordinates.
    const int64_t dim = mean_.size(), block = 1 << 16;
    const auto add = [&](int64_t b, int) {
      const int64_t begin = b * block, size = std::min(block, dim - begin);
      for (int64_t k = 0; k < count; ++k) {
        mean_.segment(begin, size) += decoded_[static_cast<size_t>(k)].segment(begin, size);
      }
    };
    if (pool_ == nullptr) {
      for (int64_t k = 0; k < count; ++k) decode(k, 0);
      for (int64_t b = 0; b * block < dim; ++b) add(b, 0);
    } else {
      pool_->ForEach(count, decode);
      pool_->ForEach((dim + block - 1) / block, add);
    }
  }
  mean_ /= static_cast<double>(n);
}

}  // namespace commsim
