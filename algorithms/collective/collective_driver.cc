#include "algorithms/collective/collective_driver.h"

#include <algorithm>
#include <memory>

#include "algorithms/codec_time.h"
#include "algorithms/collective/bucketed_allreduce.h"
#include "algorithms/collective/collective_exec.h"
#include "algorithms/collective/collective_replay.h"
#include "algorithms/collective/framework_plan.h"
#include "algorithms/collective/fusion_allreduce.h"
#include "algorithms/collective/schedule.h"
#include "algorithms/collective/worker_gradients.h"
#include "algorithms/run_recorder.h"
#include "algorithms/sync_rounds.h"
#include "algorithms/trajectory.h"
#include "base/check.h"
#include "base/error.h"
#include "models/buckets.h"
#include "models/compute_time.h"
#include "models/objective.h"
#include "sim/engine.h"
#include "sim/network.h"
#include "sim/topology.h"

namespace commsim {
namespace {

class CollectiveDriver {
 public:
  CollectiveDriver(const RunSetup& setup, const CollectiveOptions& options, CollectiveRule& rule)
      : setup_(setup),
        options_(options),
        rule_(rule),
        objective_(*setup.objective),
        network_(engine_, *setup.topology, setup.network),
        recorder_(setup, "", Family::kCollective),
        rounds_(
            setup, engine_, recorder_, [this](IterationRecord& r) { Evaluate(r); },
            objective_.num_workers(),
            {.start = [this](int64_t k) { StartRound(k); }, .end_check = [this] { EndRound(); }}),
        codec_(options.WireCodec()),
        clock_(setup.codec) {
    ConfigureEngine(engine_, setup);
    wire_ = {.network = &network_,
             .hosts = setup.topology->WorkerHosts(),
             .header_bits = setup.header_bits,
             .tally = &rounds_.timing().up,
             .timing_only = setup.replay != nullptr,
             .call = setup.framework.call,
             .transport = setup.framework.transport};
    workers_ = static_cast<int>(wire_.hosts.size());
    COMMSIM_CHECK(workers_ == objective_.num_workers(), "{} worker hosts, {} shards", workers_,
                  objective_.num_workers());
    for (int w = 0; w < workers_; ++w) {
      encode_rngs_.emplace_back(setup.seed, w, "uplink");
      compute_rngs_.emplace_back(setup.seed, w, "compute");
    }
    lanes_.assign(workers_, CodecLanes(1));
    stamp_.resize(workers_);
    compute_.resize(workers_);
  }

  void Run(std::vector<IterationRecord>* records, RunSummary* summary) {
    Eigen::VectorXd x0(objective_.dim());
    Rng init_rng(setup_.seed, 0, "init");
    objective_.InitialPoint(init_rng, x0);
    rule_.Init(workers_, x0, objective_, setup_.layers, setup_.seed);
    BuildPhases();
    if ((bucketed_ || fusion_) && !wire_.timing_only) sum_.resize(objective_.dim());
    gradients_ = std::make_unique<WorkerGradients>(setup_, rule_, sum_.size());
    rule_.UsePool(gradients_->pool());
    recorder_.Start([this](IterationRecord& r) { Evaluate(r); });
    rounds_.Run();
    recorder_.Finish(records, summary);
  }

 private:
  void BuildPhases() {
    UseFrameworkParts(setup_, objective_.dim(), options_.ValueBytes(), rule_);
    phases_ = rule_.Phases(objective_.dim(), setup_.layers);
    at_start_ = !phases_.empty() && phases_[0].at_round_start;
    const int group = options_.GroupSize(workers_);
    const auto schedule = [this, group](int64_t length) {
      return MakeAllReduce(options_.collective, workers_, length, group);
    };
    for (size_t p = 0; p < phases_.size(); ++p) {
      const auto done = [this, p](int w) { DecodePhase(w, static_cast<int>(p)); };
      gather_.emplace_back();
      own_.emplace_back(workers_);
      const FrameworkSetup& f = setup_.framework;
      if (p == 0 && phases_[0].gradient && f.unit == FrameworkUnit::kTensor) {
        fusion_ = std::make_unique<FusionAllReduce>(
            wire_, TensorBuckets(setup_.layers, phases_[0].length),
            f.fusion_bytes > 0 ? BufferValues(f.fusion_bytes, options_.ValueBytes()) : 1, f.cycle,
            schedule, codec_, [this](int w) { Aggregate(w); });
        reduce_.emplace_back();
      } else if (p == 0 && phases_[0].gradient &&
                 (setup_.compute->config().layerwise() || f.unit == FrameworkUnit::kBucket)) {
        bucketed_ = std::make_unique<BucketedAllReduce>(
            wire_, GradientBuckets(setup_, phases_[0].length, options_.ValueBytes()), schedule,
            codec_, [this](int w) { Aggregate(w); });
        reduce_.emplace_back();
      } else if (phases_[p].kind == PhaseKind::kAllReduce) {
        reduce_.push_back(
            std::make_unique<AllReduceExec>(wire_, schedule(phases_[p].length), codec_, done));
      } else {
        reduce_.emplace_back();
      }
    }
  }

  // Runs f at the framework's next background cycle tick, at once without a cycle.
  template <class F>
  void AtTick(F f) {
    RunAt(engine_, start_ + NextTick(engine_.Now() - start_, setup_.framework.cycle), std::move(f));
  }

  int64_t BatchFor(int w) const { return EffectiveBatch(setup_, objective_, w); }

  void StartRound(int64_t k) {
    step_ = setup_.step.At(k - 1);
    for (auto& e : reduce_) {
      if (e) e->Reset();
    }
    for (auto& parts : gather_) {
      for (auto& e : parts) e->Reset();
    }
    if (bucketed_) bucketed_->Reset();
    if (fusion_) fusion_->Reset();
    start_ = engine_.Now();
    IterationTiming& timing = rounds_.timing();
    SimTime first_send = SimTime::Max();
    for (int w = 0; w < workers_; ++w) {
      lanes_[w].Reset(start_);
      stamp_[w] = Stamp{start_, SimTime()};
      compute_[w] =
          setup_.compute->SampleSteps(w, BatchFor(w), compute_rngs_[w], rule_.LocalSteps());
      timing.compute = std::max(timing.compute, compute_[w]);
      first_send = std::min(first_send, ReadyAt(w, 0));
      engine_.ScheduleAt(ReadyAt(w, 0), [this, w] { ComputeDone(w, gradients_->Take(w)); });
    }
    // Every worker's gradient and phase-0 work, on the run's threads; taken at the events above.
    gradients_->Compute(
        [this](int w, const Eigen::Ref<const Eigen::VectorXd>& grad,
               Eigen::Ref<Eigen::VectorXd> scratch) { return FirstPhaseWork(w, grad, scratch); },
        [this](int w, const auto& grad) { rule_.LocalStep(w, grad, step_); });
    if (fusion_) first_send = fusion_->Begin(start_, compute_);
    if ((bucketed_ || fusion_) && first_send < start_ + timing.compute) {
      timing.overlap_saved = start_ + timing.compute - first_send;
    }
  }

  // When worker w's gradients of bucket b are ready: its compute time's ready fraction; without
  // buckets, the end of its compute (the fusion runs its own cycles); the round's start when
  // phase 0 works on the round-start state.
  SimTime ReadyAt(int w, int b) const {
    if (!bucketed_) return start_ + (at_start_ ? SimTime() : compute_[w]);
    return start_ +
           ReadyAfter(compute_[w], bucketed_->buckets()[static_cast<size_t>(b)].ready_fraction);
  }

  // Worker w's phase 0 on its gradient (on a pool thread: touches only worker w's buffers and
  // state): its all-reduce input, or its all-gather message (returned).
  Message FirstPhaseWork(int w, const Eigen::Ref<const Eigen::VectorXd>& grad,
                         Eigen::Ref<Eigen::VectorXd> scratch) {
    if (phases_.empty()) return {};
    if (bucketed_ || fusion_) {
      rule_.Input(w, 0, grad, step_, scratch);
      if (bucketed_) bucketed_->Load(w, scratch);
      if (fusion_) fusion_->Load(w, scratch);
      return {};
    }
    if (reduce_[0]) {
      rule_.Input(w, 0, grad, step_, reduce_[0]->buffer(w));
      return {};
    }
    return rule_.Encode(w, 0, grad, step_, encode_rngs_[w]);
  }

  // At the end of worker w's compute: phase 0 joins its collective.
  void ComputeDone(int w, Message message) {
    if (phases_.empty()) {
      rounds_.PartyDone(stamp_[w].codec);
    } else if (fusion_) {  // its cycles started with the round (BeginFusion)
      return;
    } else if (bucketed_) {  // each bucket joins its all-reduce once the backward releases it
      for (int b = 0; b < static_cast<int>(bucketed_->buckets().size()); ++b) {
        RunAt(engine_, ReadyAt(w, b), [this, w, b] { bucketed_->Ready(w, b); });
      }
    } else if (reduce_[0]) {
      SendReduce(w, 0);
    } else {
      SendGather(w, 0, std::move(message));
    }
  }

  // Phase p >= 1 (no gradient: later phases work on the rule's state).
  void StartPhase(int w, int p) {
    if (p == static_cast<int>(phases_.size())) {
      // once its compute is done too (a phase 0 at the round's start runs while it computes)
      RunAt(engine_, std::max(engine_.Now(), start_ + compute_[w]),
            [this, w] { rounds_.PartyDone(stamp_[w].codec); });
      return;
    }
    const Eigen::VectorXd none;
    if (reduce_[p]) {
      rule_.Input(w, p, none, step_, reduce_[p]->buffer(w));
      SendReduce(w, p);
      return;
    }
    SendGather(w, p, rule_.Encode(w, p, none, step_, encode_rngs_[w]));
  }

  // The worker joins phase p's all-reduce (after encoding, when it all-reduces compressed values)
  // at the framework's next cycle.
  void SendReduce(int w, int p) {
    const Message* coded = rule_.Coded(w, p);
    if (coded != nullptr && setup_.record != nullptr) {
      setup_.record->AddMessage(rounds_.round(), CollectiveSlot(workers_, p, w), *coded);
    }
    AfterCodec(w,
               (coded ? CodecTime(*coded, true) : SimTime()) +
                   RuleWork(phases_[p].flops_before, phases_[p].calls_before),
               [this, w, p] { AtTick([this, w, p] { reduce_[p]->Start(w); }); });
  }

  // The worker's own message joins the all-gather once its encode job is done; a message with
  // parts (a framework's tensors or buckets) is all-gathered part by part, one collective after
  // the other.
  void SendGather(int w, int p, Message own) {
    SharedMessage message = Share(std::move(own));
    if (setup_.record != nullptr) {
      setup_.record->AddMessage(rounds_.round(), CollectiveSlot(workers_, p, w), *message);
    }
    std::vector<std::unique_ptr<AllGatherExec>>& execs = gather_[p];
    for (size_t i = execs.size(); i < PartCount(*message); ++i) {
      execs.push_back(
          std::make_unique<AllGatherExec>(wire_, [this, p, i](int v) { ArrivePart(v, p, i); }));
    }
    own_[p][w] = std::move(message);
    AfterCodec(w, CodecTime(*own_[p][w], true), [this, w, p] {
      AtTick([this, w, p] { gather_[p][0]->Start(w, PartOf(own_[p][w], 0)); });
    });
  }

  void ArrivePart(int w, int p, size_t i) {
    if (i + 1 < PartCount(*own_[p][w])) {
      gather_[p][i + 1]->Start(w, PartOf(own_[p][w], i + 1));
      return;
    }
    DecodePhase(w, p);
  }

  // Encoding (decoding) a message on the codec lane: each part's time and the framework's cost
  // of a compressor call.
  SimTime CodecTime(const Message& m, bool encode) const {
    return clock_.WholeMessage(m, encode, setup_.framework.codec_call);
  }

  // A rule's own work (CollectivePhase): FLOPs at the compute rate (not in codec mode none), calls.
  SimTime RuleWork(double flops, int64_t calls) const {
    const SimTime overhead = setup_.framework.codec_call * calls;
    if (flops == 0 || setup_.codec.mode == CodecMode::kNone) return overhead;
    return overhead + SimTime::FromSeconds(flops / setup_.compute->flops_per_s());
  }

  // After an all-gather the worker decodes the n messages one after the other on its lane.
  void DecodePhase(int w, int p) {
    SimTime decode;
    if (reduce_[p]) {
      if (const Message* coded = rule_.Coded(w, p)) decode = CodecTime(*coded, false);
      decode += RuleWork(phases_[p].flops_after, phases_[p].calls_after);
      rule_.AllReduced(w, p, reduce_[p]->buffer(w));
    } else {
      rule_.AllGathered(w, p, own_[p]);
      for (const SharedMessage& m : own_[p]) decode += CodecTime(*m, false);
    }
    AfterCodec(w, decode, [this, w, p] { StartPhase(w, p + 1); });
  }

  void Aggregate(int w) {
    if (bucketed_) bucketed_->Sum(w, sum_);
    if (fusion_) fusion_->Sum(w, sum_);
    rule_.AllReduced(w, 0, sum_);
    StartPhase(w, 1);
  }

  // Runs `then` after a codec job of `duration` on worker w's lane (at once when it is 0),
  // adding the job to the worker's codec chain.
  template <class F>
  void AfterCodec(int w, SimTime duration, F&& then) {
    if (duration == SimTime()) {
      then();
      return;
    }
    stamp_[w] = lanes_[w].Run(Stamp{engine_.Now(), stamp_[w].codec}, duration);
    RunAt(engine_, stamp_[w].at, std::forward<F>(then));
  }

  void EndRound() {
    rule_.EndRound(step_);
    if (!rule_.Model().allFinite()) throw NonFiniteError("the model has a non-finite value");
  }

  void Evaluate(IterationRecord& r) const {
    EvaluateModel(objective_, rule_.Model(), r);
    rule_.Extra(r.extra);
  }

  const RunSetup& setup_;
  const CollectiveOptions& options_;
  CollectiveRule& rule_;
  const Objective& objective_;
  Engine engine_;
  Network network_;
  RunRecorder recorder_;
  SyncRounds rounds_;
  Identity codec_;
  CodecClock clock_;
  std::vector<CodecLanes> lanes_;  // one per worker
  std::vector<Stamp> stamp_;       // per worker: its last codec job and its codec chain
  CollectiveWire wire_;
  int workers_ = 0;
  std::vector<CollectivePhase> phases_;
  std::vector<std::unique_ptr<AllReduceExec>> reduce_;  // per phase, or null
  // Per phase: the all-gathers of its message's parts (one without parts; none for all-reduce).
  std::vector<std::vector<std::unique_ptr<AllGatherExec>>> gather_;
  std::vector<std::vector<SharedMessage>> own_;  // per phase, per worker: its message this round
  std::unique_ptr<BucketedAllReduce> bucketed_;  // phase 0 with layer-wise overlap, or null
  std::unique_ptr<FusionAllReduce> fusion_;      // phase 0 under a per-tensor framework, or null
  Eigen::VectorXd sum_;                          // phase 0's sums (bucketed)
  std::unique_ptr<WorkerGradients> gradients_;   // built once the phases are known
  std::vector<SimTime> compute_;                 // per worker, this round
  SimTime start_;
  bool at_start_ = false;  // phase 0 joins at the round's start (CollectivePhase::at_round_start)
  std::vector<Rng> encode_rngs_, compute_rngs_;
  double step_ = 0;
};

}  // namespace

void RunCollective(const RunSetup& setup, const CollectiveOptions& options, CollectiveRule& rule,
                   std::vector<IterationRecord>* records, RunSummary* summary) {
  CollectiveDriver driver(setup, options, rule);
  driver.Run(records, summary);
}

}  // namespace commsim
