#include "algorithms/ps/dore.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "algorithms/ps/sgd.h"
#include "compression/registry.h"
#include "models/objective.h"

namespace commsim {

void DoreConfig::Describe(ParamVisitor& v) {
  DescribeLinks(v);
  v.Real("alpha", alpha, Range::OpenClosed(0, 1), "gradient-shift learning rate");
  v.Real("beta", beta, Range::OpenClosed(0, 1), "model update step on the compressed residual");
  v.Real("eta", eta, Range::NonNegative(), "weight of the model-residual error feedback");
  DescribeStorage(
      v, "debug: every worker keeps its own x^ and checks it against the server's every round");
}

DoreRule::DoreRule(const DoreConfig& config)
    : TwoWayRule(config),
      alpha_(config.alpha),
      beta_(config.beta),
      eta_(config.eta),
      worker_shift_(config.single()) {}

void DoreRule::Init(int workers, const ConstVec& x0, const Objective& objective) {
  InitModel(workers, x0, objective, "x^");
  const int64_t d = x0.size();
  grad_residual_sq_of_.assign(static_cast<size_t>(workers), 0.0);
  worker_shift_.Init(workers, d);
  xhat_ = x0;
  shift_ = Eigen::VectorXd::Zero(d);
  error_ = Eigen::VectorXd::Zero(d);
  kept_.Clear();
  // mean_ may hold x0 (ServerScratch): sized by the first ServerReceive.
}

// d_i = g_i - h_i (in grad); then h_i <- h_i + alpha d^_i.
Message DoreRule::WorkerEncode(int w, GradVec grad, double /*step*/, Rng& rng) {
  grad_residual_sq_of_[static_cast<size_t>(w)] =
      worker_shift_.AddToSquaredNorm(w, grad, /*subtract=*/true);
  return worker_shift_.EncodeAndAccumulate(*uplink_, w, grad, alpha_, rng);
}

namespace {

// DORE's worker fed g_i chunk by chunk: each piece of kPiece elements becomes d_i = g_i - h_i in
// a small scratch (its squares summed in WorkerEncode's order, PairedSquaredNorm), which the
// uplink's chunk encoder encodes, adding alpha d^_i to h_i as it goes (its decode target).
class DoreWorkerChunks final : public ChunkEncoder {
 public:
  DoreWorkerChunks(const WorkerVectors& shifts, int w, int64_t d,
                   std::unique_ptr<ChunkEncoder> encoder, double* residual_sq)
      : shifts_(shifts),
        w_(w),
        norm_(d),
        encoder_(std::move(encoder)),
        residual_sq_(residual_sq),
        scratch_(kPiece) {}  // when made, with the encoder's buffers (compressor.h)

  void Put(const double* values, int64_t n) override {
    for (int64_t k = 0; k < n; k += kPiece) {
      const int64_t m = std::min(kPiece, n - k);
      shifts_.SubtractChunk(w_, offset_, values + k, m, scratch_.data(), norm_);
      encoder_->Put(scratch_.data(), m);
      offset_ += m;
    }
  }

  std::optional<Message> Finish() override {
    std::optional<Message> message = encoder_->Finish();
    if (message) *residual_sq_ = norm_.Result();
    return message;
  }

 private:
  static constexpr int64_t kPiece = 2048;  // 16 KB of d_i: read back by the encoder from L1
  const WorkerVectors& shifts_;
  int w_;
  int64_t offset_ = 0;
  PairedSquaredNorm norm_;
  std::unique_ptr<ChunkEncoder> encoder_;
  double* residual_sq_;
  std::vector<double> scratch_;
};

}  // namespace

std::unique_ptr<ChunkEncoder> DoreRule::WorkerChunkEncoder(int w, Rng& rng) {
  if (worker_shift_.single() || !PairedSquaredNorm::kEigenOrder) return nullptr;
  const int64_t d = WorkerPoint(w).size();
  const DecodeTarget shift = worker_shift_.AccumulateTarget(w, alpha_);
  std::unique_ptr<ChunkEncoder> encoder = uplink_->ChunkEncodeWithRng(d, rng, &shift);
  if (encoder == nullptr) return nullptr;
  return std::make_unique<DoreWorkerChunks>(worker_shift_, w, d, std::move(encoder),
                                            &grad_residual_sq_of_[static_cast<size_t>(w)]);
}

void DoreRule::ServerReceive(int w, const Message& uplink) {
  const Message* one[] = {&uplink};
  ServerReceiveRun(w, one);
}

// Every uplink of the round at once (more than one: the measured codec mode takes them one by one
// and times each): kept for ServerRound, which sums them in its first pass (ps_rule.h: they stay
// valid until then).
void DoreRule::ServerReceiveRun(int w, std::span<const Message* const> uplinks) {
  if (kept_.KeepIfWholeRound(w, uplinks, worker_shift_.size())) return;
  if (w == 0) mean_.setZero(x_.size());  // mean_ may have held x0 (ServerScratch)
  uplink_->DecodeSumInto(uplinks, DecodeTarget(mean_, mean_, 1.0));
}

namespace {

// The server's first pass on elements [begin, end) of the uplinks' sum (sum_j = sum[j - begin]):
// d^ = sum / n; x = x^ - gamma (h + d^); h <- h + alpha d^; with kResidual (the prox is the
// identity) also q = x - x^ + eta e, into q, which may be the sum's own storage (each element is
// read before it is written). The operations of the separate passes, in the same order.
struct DoreFirstPass {
  double* x;
  double* shift;
  double* q;
  const double* xhat;
  const double* error;
  double n, step, alpha, eta;

  template <bool kResidual>
  void Run(int64_t begin, int64_t end, const double* sum) const {
    for (int64_t j = begin; j < end; ++j) {
      const double mean = sum[j - begin] / n;
      x[j] = xhat[j] - step * (shift[j] + mean);
      shift[j] += alpha * mean;
      if constexpr (kResidual) q[j] = x[j] - xhat[j] + eta * error[j];
    }
  }
};

}  // namespace

// The first pass over the sum in mean_, or over the uplinks kept by ServerReceiveRun (summed
// chunk by chunk, each used while in cache; mean_ is the scratch); with the prox the identity it
// leaves q in mean_ as well. Returns whether it did.
bool DoreRule::FirstPass(double step) {
  const int64_t d = x_.size();
  // Objective::Prox does nothing when step * l1 <= 0.
  const bool residual = step * objective_->l1() <= 0.0;
  mean_.resize(d);  // a no-op unless it was lent empty
  const double n = static_cast<double>(worker_shift_.size());
  const DoreFirstPass pass{x_.data(), shift_.data(), mean_.data(), xhat_.data(), error_.data(),
                           n,         step,          alpha_,       eta_};
  auto run = [&pass, residual](int64_t begin, int64_t end, const double* sum) {
    residual ? pass.Run<true>(begin, end, sum) : pass.Run<false>(begin, end, sum);
  };
  kept_.ForEachSumChunk(*uplink_, mean_, run);
  return residual;
}

Message DoreRule::ServerRound(double step, Rng& rng) {
  grad_residual_sq_ = MeanInWorkerOrder(grad_residual_sq_of_);
  Eigen::VectorXd& q = mean_;  // the sum is used up
  if (!FirstPass(step)) {
    objective_->Prox(step, x_);
    q = x_ - xhat_ + eta_ * error_;
  }
  model_residual_sq_ = q.squaredNorm();
  // The encoder writes e = q - q^ (the old e is in q already) as q + (-1) q^, the same bits;
  // then x^ += beta q^ decoded from the message (the values the encoder delivered, compressor.h).
  Message message = downlink_->EncodeWithDecoded(q, rng, DecodeTarget(error_, q, -1.0));
  ApplyDownlink(message, step, xhat_);
  return message;
}

void DoreRule::ApplyDownlink(const Message& downlink, double /*step*/, Eigen::VectorXd& xhat) {
  downlink_->DecodeInto(downlink, DecodeTarget(xhat, xhat, beta_));
}

void DoreRule::Extra(std::map<std::string, double>& out) const {
  out["grad_residual_sq"] = grad_residual_sq_;
  out["model_residual_sq"] = model_residual_sq_;
}

}  // namespace commsim
