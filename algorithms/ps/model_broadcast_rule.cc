#include "algorithms/ps/model_broadcast_rule.h"

#include <memory>
#include <optional>
#include <utility>

#include "base/finite.h"
#include "base/target_clones.h"
#include "compression/compressors/fp32_stores.h"
#include "compression/compressors/identity.h"
#include "models/objective.h"

namespace commsim {
namespace {

// Whether `spec` is identity at 32 bits: its decoded values are double(float(x_j)).
bool IsFp32Identity(const ComponentSpec& spec) {
  const auto* config = dynamic_cast<const IdentityConfig*>(spec.config.get());
  return spec.name == "identity" && config != nullptr && config->precision == 32;
}

}  // namespace

ModelBroadcastRule::ModelBroadcastRule(const PsLinkKeys& links, double momentum)
    : uplink_(MakeLink(links.uplink)),
      downlink_(MakeLink(links.downlink)),
      momentum_(momentum),
      verify_replicas_(links.verify_replicas),
      fp32_downlink_(IsFp32Identity(links.downlink)) {}

void ModelBroadcastRule::Init(int workers, const Eigen::Ref<const Eigen::VectorXd>& x0,
                              const Objective& objective) {
  objective_ = &objective;
  workers_ = workers;
  x_ = x0;
  velocity_ = momentum_ > 0.0 ? Eigen::VectorXd::Zero(x0.size()) : Eigen::VectorXd();
  point_ = Point::kModel;  // x0 is every party's
  replica_.resize(0);      // sized by the first round that decodes into it
  point32_.reset();
  widened_.store(false, std::memory_order_relaxed);
  kept_.Clear();
  replicas_.Init(workers, x0, verify_replicas_, "model");
  InitWorkers(workers, x0.size());
  // Whether the workers stream their gradients: a probe encoder from a throw-away Rng (the
  // rules that stream keep no per-worker state in it).
  Rng probe(0);
  fp32_point_ = fp32_downlink_ && !verify_replicas_ && StepsByMean() &&
                WorkerChunkEncoder(0, probe) != nullptr;
}

const Eigen::VectorXd& ModelBroadcastRule::WorkerPoint(int w) const {
  if (replicas_.verify()) return replicas_.Get(w, replica_);
  if (point_ == Point::kModel) return x_;
  if (point_ == Point::kFp32 && !widened_.load(std::memory_order_acquire)) {
    const std::lock_guard<std::mutex> lock(widen_mutex_);
    if (!widened_.load(std::memory_order_relaxed)) {
      replica_.resize(x_.size());
      for (Eigen::Index j = 0; j < replica_.size(); ++j) {
        replica_[j] = static_cast<double>(point32_[static_cast<size_t>(j)]);
      }
      widened_.store(true, std::memory_order_release);
    }
  }
  return replica_;
}

const float* ModelBroadcastRule::WorkerPoint32(int /*w*/) const {
  return point_ == Point::kFp32 && !replicas_.verify() ? point32_.get() : nullptr;
}

DecodeTarget ModelBroadcastRule::ReplicaTarget() {
  replica_.resize(x_.size());
  return DecodeTarget(replica_);
}

DecodeTarget ModelBroadcastRule::SumFrom(int w) {
  if (w == 0) mean_.setZero(x_.size());  // mean_ may have held x0 (ServerScratch)
  return DecodeTarget(mean_, mean_, 1.0);
}

void ModelBroadcastRule::ServerReceive(int w, const Message& uplink) {
  uplink_->DecodeInto(uplink, SumFrom(w));
}

// Every uplink of the round at once (n > 1: the measured codec mode takes them one by one and
// times each) with a mean-direction step: kept for ServerRound, which decodes them and steps in
// one pass (ps_rule.h: they stay valid until then).
void ModelBroadcastRule::ServerReceiveRun(int w, std::span<const Message* const> uplinks) {
  if (StepsByMean() && kept_.KeepIfWholeRound(w, uplinks, workers())) return;
  uplink_->DecodeSumInto(uplinks, SumFrom(w));
}

bool ModelBroadcastRule::StepsByMean() const {
  return direction_is_mean() && momentum_ == 0.0 && !direction_has_step();
}

namespace {

// x[k] -= step * (sum[k] / n) for k < len; returns the OR of the new x[k]'s NonFiniteFlag.
// Element by element, each operation correctly rounded: every clone gives the same bits.
COMMSIM_TARGET_CLONES
uint64_t MeanStepRun(double* x, const double* sum, int64_t len, double n, double step) {
  uint64_t bad = 0;
  for (int64_t k = 0; k < len; ++k) {
    x[k] -= step * (sum[k] / n);
    bad |= NonFiniteFlag(x[k]);
  }
  return bad;
}

// x_j <- x_j - step * (sum_j / n) for j in [begin, end), sum_j = sum[j - begin], ORing the new
// x_j's NonFiniteFlag into bad: the operations of the separate passes (mean = sum / n;
// x -= step * mean), the mean not stored. The new chunk of x then goes to `down` (if any) while
// it is in cache, and (if point32 is set) its fp32 words to point32 as identity writes them.
struct MeanStep {
  double* x;
  double n, step;
  ChunkEncoder* down;
  unsigned char* point32;
  bool stream;
  uint64_t bad = 0;
  void operator()(int64_t begin, int64_t end, const double* sum) {
    bad |= MeanStepRun(x + begin, sum, end - begin, n, step);
    if (down != nullptr) down->Put(x + begin, end - begin);
    if (point32 != nullptr) PutFp32(x + begin, end - begin, point32 + 4 * begin, stream);
  }
};

}  // namespace

// The step by the mean of the sum in mean_, or of the uplinks kept by ServerReceiveRun (summed
// chunk by chunk, the step taken on each while it is in cache; mean_ is the scratch), each new
// chunk of x put into `down` (if not null) and its fp32 words into point32 (if not null).
// Returns whether x is finite.
bool ModelBroadcastRule::StepByMean(double step, ChunkEncoder* down, float* point32) {
  mean_.resize(x_.size());  // a no-op unless it was lent empty
  MeanStep apply{x_.data(),
                 static_cast<double>(workers()),
                 step,
                 down,
                 reinterpret_cast<unsigned char*>(point32),
                 StreamStores(4 * x_.size())};
  // One pointer captured: held inside the std::function, no allocation.
  kept_.ForEachSumChunk(
      *uplink_, mean_,
      [a = &apply](int64_t begin, int64_t end, const double* sum) { (*a)(begin, end, sum); });
  return (apply.bad >> 63) == 0;
}

// Without a prox to follow, the downlink encodes x as the step makes it, chunk by chunk (a
// downlink that can: one that draws no random numbers), and delivers the workers' model: into
// replica_, or as fp32 words into point32_ (fp32_point_; the encoder then decodes nothing).
std::optional<Message> ModelBroadcastRule::StepAndBroadcast(double step) {
  const bool fp32 = fp32_point_ && objective_->l1() == 0.0;
  std::optional<DecodeTarget> to_replica;
  if (!fp32) to_replica.emplace(ReplicaTarget());
  const std::unique_ptr<ChunkEncoder> down =
      objective_->l1() > 0.0 ? nullptr
                             : downlink_->ChunkEncode(x_.size(), fp32 ? nullptr : &*to_replica);
  if (fp32 && down != nullptr && point32_ == nullptr) {
    point32_ = std::make_unique_for_overwrite<float[]>(static_cast<size_t>(x_.size()));
  }
  model_finite_ = StepByMean(step, down.get(), down != nullptr && fp32 ? point32_.get() : nullptr);
  if (down == nullptr) return std::nullopt;
  std::optional<Message> message = down->Finish();  // none: x is not on the wire
  if (message) point_ = fp32 ? Point::kFp32 : Point::kReplica;
  return message;
}

Message ModelBroadcastRule::ServerRound(double step, Rng& rng) {
  model_finite_ = false;
  if (point_ == Point::kFp32 && widened_.load(std::memory_order_acquire)) {
    fp32_point_ = false;  // a worker read the double point: decode into it from now on
    point32_.reset();
  }
  widened_.store(false, std::memory_order_release);
  if (StepsByMean()) {
    std::optional<Message> message = StepAndBroadcast(step);
    if (message) return std::move(*message);  // else encode x below (for its error)
  } else {
    mean_ /= static_cast<double>(workers());
    ServerDirection(mean_);
    if (direction_has_step()) {
      x_ -= mean_;
    } else if (momentum_ > 0.0) {
      velocity_ = momentum_ * velocity_ + mean_;
      x_ -= step * velocity_;
    } else {
      x_ -= step * mean_;
    }
  }
  objective_->Prox(step, x_);
  // The workers' model is the decoded downlink, delivered by the encoder from its own pass.
  point_ = Point::kReplica;
  return downlink_->EncodeWithDecoded(x_, rng, ReplicaTarget());
}

// The downlink is the model: the worker's replica is the decoded message (without
// verify_replicas, the one ServerRound decoded already).
void ModelBroadcastRule::WorkerReceive(int w, const Message& downlink, double /*step*/) {
  if (!replicas_.verify()) return;
  downlink_->Decode(downlink, replicas_.Own(w));
  replicas_.Check(w, replica_);
}

}  // namespace commsim
