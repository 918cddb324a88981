#include "algorithms/ps/ps_driver.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "algorithms/codec_time.h"
#include "algorithms/message_send.h"
#include "algorithms/ps/ps_parts.h"
#include "algorithms/ps/ps_replay.h"
#include "algorithms/ps/worker_uplinks.h"
#include "algorithms/run_recorder.h"
#include "algorithms/sync_rounds.h"
#include "algorithms/trajectory.h"
#include "base/check.h"
#include "base/error.h"
#include "models/compute_time.h"
#include "models/objective.h"
#include "sim/engine.h"
#include "sim/network.h"
#include "sim/topology.h"

namespace commsim {
namespace {

class PsDriver {
 public:
  PsDriver(const RunSetup& setup, PsRule& rule)
      : setup_(setup),
        rule_(rule),
        objective_(*setup.objective),
        network_(engine_, *setup.topology, setup.network),
        recorder_(setup, "", Family::kParameterServer),
        rounds_(
            setup, engine_, recorder_, [this](IterationRecord& r) { Evaluate(r); },
            objective_.num_workers(),
            {.start = [this](int64_t k) { StartRound(k); }, .end_check = [this] { EndRound(); }}),
        clock_(setup.codec),
        uplinks_(setup, rule),
        servers_(setup.topology->servers()),
        worker_hosts_(setup.topology->WorkerHosts()) {
    COMMSIM_CHECK(!servers_.empty(), "parameter server needs a server host");
    ConfigureEngine(engine_, setup);
    server_lanes_.assign(servers_.size(), CodecLanes(setup.codec.server_threads));
    workers_ = static_cast<int>(worker_hosts_.size());
    COMMSIM_CHECK(workers_ == objective_.num_workers(), "{} worker hosts, {} shards", workers_,
                  objective_.num_workers());
    worker_of_host_.assign(setup.topology->num_hosts(), -1);
    for (int w = 0; w < workers_; ++w) {
      worker_of_host_[worker_hosts_[w]] = w;
      compute_rngs_.emplace_back(setup.seed, w, "compute");
    }
    server_rng_ = std::make_unique<Rng>(setup.seed, servers_.front(), "downlink");
    PlanTheParts();
    worker_lanes_.assign(workers_, CodecLanes(1));
    w_.resize(workers_);
    part_.resize(parts_.size());
  }

  void Run(std::vector<IterationRecord>* records, RunSummary* summary) {
    // x0 lives in a gradient buffer, unused until the first gradient: no d-vector of its own.
    Rng init_rng(setup_.seed, 0, "init");
    objective_.InitialPoint(init_rng, uplinks_.FreeBuffer());
    rule_.Init(workers_, uplinks_.FreeBuffer(), objective_);
    recorder_.Start([this](IterationRecord& r) { Evaluate(r); });
    rounds_.Run();
    recorder_.Finish(records, summary);
  }

 private:
  // A worker's state within a round.
  struct WorkerRound {
    SimTime compute = SimTime();
    SharedMessage uplink = nullptr;
    double encode_wall_s = 0, receive_wall_s = 0, apply_wall_s = 0;
    bool arrived = false;   // some part of its uplink reached the server
    bool received = false;  // the server's rule took its uplink (ServerReceive)
    bool applied = false;   // it applied the downlink (WorkerReceive)
    std::vector<std::pair<int, Stamp>> waiting = {};  // measured mode: parts waiting for `received`
    int parts_left = 0;                               // downlink parts still to decode
    Stamp done;                                       // its latest downlink decode
  };
  struct PartRound {
    int decoded = 0;  // uplink parts the part's server has decoded
    Stamp complete;   // the latest of them
  };

  // The parts (ps_parts.h): the tensors of a per-tensor rule, buckets with layer-wise overlap
  // (else the whole vector), cut at the shards. Every link compresses part by part unless there is
  // one part without overlap.
  void PlanTheParts() {
    layerwise_ = setup_.compute != nullptr && setup_.compute->config().layerwise();
    const int64_t cap = layerwise_ ? setup_.compute->config().bucket_params() : 0;
    parts_ = PlanParts(setup_.layers, objective_.dim(), cap, static_cast<int>(servers_.size()),
                       rule_.per_tensor());
    if (layerwise_ || parts_.size() > 1) rule_.SetBuckets(SegmentsOf(parts_));
  }

  int ServerOf(int b) const { return servers_[static_cast<size_t>(parts_[b].shard)]; }
  CodecLanes& LanesOf(int b) { return server_lanes_[static_cast<size_t>(parts_[b].shard)]; }

  int64_t BatchFor(int w) const { return EffectiveBatch(setup_, objective_, w); }

  template <class F>
  void At(SimTime t, F&& f) {
    RunAt(engine_, t, std::forward<F>(f));
  }

  SimTime ReadyAt(int w, int b) const {
    const double f = parts_[static_cast<size_t>(b)].ready_fraction;
    const SimTime c = w_[w].compute;
    return start_ + ReadyAfter(c, f);
  }

  void StartRound(int64_t k) {
    uplinks_.Prepare();  // before the previous round's messages go (worker_uplinks.h)
    step_ = setup_.step.At(k - 1);
    next_uplink_ = 0;
    arrived_ = 0;
    start_ = engine_.Now();
    first_send_ = SimTime::Max();
    downlink_.reset();
    for (CodecLanes& lanes : server_lanes_) lanes.Reset(start_);
    for (PartRound& p : part_) p = PartRound{.complete = Stamp{start_, SimTime()}};
    IterationTiming& timing = rounds_.timing();
    for (int w = 0; w < workers_; ++w) {
      w_[w] = WorkerRound{.done = Stamp{start_, SimTime()}};
      worker_lanes_[w].Reset(start_);
      w_[w].compute = setup_.compute->Sample(w, BatchFor(w), compute_rngs_[w]);
      timing.compute = std::max(timing.compute, w_[w].compute);
      engine_.ScheduleAt(ReadyAt(w, 0), [this, w] { ComputeDone(w); });
    }
    uplinks_.Compute(step_);
  }

  // At its first bucket's ready time worker w takes its gradient and uplink (the whole message,
  // computed at the round's start with every worker's: worker_uplinks.h; the mathematics does
  // not depend on when); each part leaves after its encode job.
  void ComputeDone(int w) {
    WorkerRound& wr = w_[w];
    wr.uplink = Share(uplinks_.Take(w, &wr.encode_wall_s));
    if (setup_.record != nullptr) setup_.record->AddMessage(rounds_.round(), w, *wr.uplink);
    for (int b = 0; b < static_cast<int>(parts_.size()); ++b) {
      const SimTime duration = clock_.Encode(*PartOf(wr.uplink, static_cast<size_t>(b)),
                                             wr.encode_wall_s, wr.uplink->elements);
      const Stamp sent = worker_lanes_[w].Run(Stamp{ReadyAt(w, b), SimTime()}, duration);
      At(sent.at, [this, w, b, codec = sent.codec] { SendUplink(w, b, codec); });
    }
  }

  // Sends worker w's part b from host `from` to host `to`, counted into `tally`; a part
  // between a worker and a colocated server (the same host) crosses no link and counts no bits.
  // At its delivery, `Arrived(w, b, {delivery time, codec})` runs (a template argument, so the
  // delivery handler holds no member pointer and stays within the engine's inline storage).
  template <void (PsDriver::*Arrived)(int, int, const Stamp&)>
  void SendPart(int from, int to, int w, int b, SimTime codec, SharedMessage part,
                WireTally& tally) {
    SendMessage(network_, from, to, std::move(part), setup_.header_bits, tally,
                [this, w, b, codec](const SharedMessage&) {
                  (this->*Arrived)(w, b, Stamp{engine_.Now(), codec});
                });
  }

  void SendUplink(int w, int b, SimTime codec) {
    first_send_ = std::min(first_send_, engine_.Now());
    SendPart<&PsDriver::ArriveUplink>(worker_hosts_[w], ServerOf(b), w, b, codec,
                                      PartOf(w_[w].uplink, static_cast<size_t>(b)),
                                      rounds_.timing().up);
  }

  // The server's rule takes each uplink, in worker order, once the first of its parts has arrived
  // (TakeArrivedUplinks); one that arrives early waits, still encoded. After the last it computes
  // the downlink. Decode jobs run as the parts arrive (measured mode: once the
  // rule has taken the uplink, whose wall time they charge).
  void ArriveUplink(int w, int b, const Stamp& arrival) {
    WorkerRound& wr = w_[w];
    if (!wr.arrived) {
      wr.arrived = true;
      TakeArrivedUplinks();
      if (next_uplink_ == workers_) {
        const WallTimer timer;
        downlink_ = Share(rule_.ServerRound(step_, *server_rng_));
        downlink_wall_s_ = timer.Seconds();
        if (setup_.record != nullptr) {
          setup_.record->AddMessage(rounds_.round(), PsDownlinkSlot(workers_), *downlink_);
        }
      }
    }
    if (clock_.measured() && !wr.received) {
      wr.waiting.emplace_back(b, arrival);
      return;
    }
    DecodeUplink(w, b, arrival);
  }

  // The rule takes the uplinks in worker order: in the measured codec mode each once it and every
  // lower-numbered one have arrived (each uplink's decode is timed on its own); otherwise all of
  // them in one run once the last has arrived (one pass over the server's sum; the mathematics
  // does not depend on when).
  void TakeArrivedUplinks() {
    if (!clock_.measured()) {
      if (++arrived_ == workers_) TakeUplinks(workers_);
      return;
    }
    while (next_uplink_ < workers_ && w_[next_uplink_].arrived) TakeUplinks(1);
  }

  void TakeUplinks(int count) {
    const int w = next_uplink_;
    taken_.clear();
    for (int v = w; v < w + count; ++v) taken_.push_back(w_[v].uplink.get());
    const WallTimer timer;
    rule_.ServerReceiveRun(w, taken_);
    next_uplink_ += count;
    for (int v = w; v < next_uplink_; ++v) {
      WorkerRound& taken = w_[v];
      taken.receive_wall_s = timer.Seconds();
      taken.received = true;
      for (const auto& [part, stamp] : taken.waiting) {
        DecodeUplink(v, part, Stamp{engine_.Now(), stamp.codec});
      }
      taken.waiting.clear();
    }
  }

  void DecodeUplink(int w, int b, const Stamp& ready) {
    const WorkerRound& wr = w_[w];
    const SimTime duration = clock_.Decode(*PartOf(wr.uplink, static_cast<size_t>(b)),
                                           wr.receive_wall_s, wr.uplink->elements);
    const Stamp end = LanesOf(b).Run(ready, duration);
    At(end.at, [this, b, end] { AggregateBucket(b, end); });
  }

  // When every worker's part b is decoded, its server encodes part b of the downlink.
  void AggregateBucket(int b, const Stamp& end) {
    PartRound& part = part_[static_cast<size_t>(b)];
    part.complete = Later(part.complete, end);
    if (++part.decoded < workers_) return;
    COMMSIM_CHECK(downlink_ != nullptr, "part {} complete before the server round", b);
    const SimTime duration = clock_.Encode(*PartOf(downlink_, static_cast<size_t>(b)),
                                           downlink_wall_s_, downlink_->elements);
    const Stamp sent = LanesOf(b).Run(part.complete, duration);
    At(sent.at, [this, b, codec = sent.codec] { SendDownlink(b, codec); });
  }

  void SendDownlink(int b, SimTime codec) {
    const SharedMessage part = PartOf(downlink_, static_cast<size_t>(b));
    const int server = ServerOf(b);
    if (setup_.multicast_downlink) {
      MulticastMessage(network_, server, worker_hosts_, part, setup_.header_bits,
                       rounds_.timing().down, [this, b, codec](int host, const SharedMessage&) {
                         ArriveDownlink(worker_of_host_[host], b, Stamp{engine_.Now(), codec});
                       });
    } else {
      for (int w = 0; w < workers_; ++w) {
        SendPart<&PsDriver::ArriveDownlink>(server, worker_hosts_[w], w, b, codec, part,
                                            rounds_.timing().down);
      }
    }
  }

  // Worker w applies the downlink (its rule decodes it) when its first part arrives; each part's
  // decode job runs on the worker's lane; the worker is done after the last.
  void ArriveDownlink(int w, int b, const Stamp& arrival) {
    WorkerRound& wr = w_[w];
    if (!wr.applied) {
      wr.applied = true;
      wr.parts_left = static_cast<int>(parts_.size());
      const WallTimer timer;
      rule_.WorkerReceive(w, *downlink_, step_);
      wr.apply_wall_s = timer.Seconds();
    }
    const SimTime duration = clock_.Decode(*PartOf(downlink_, static_cast<size_t>(b)),
                                           wr.apply_wall_s, downlink_->elements);
    const Stamp end = worker_lanes_[w].Run(arrival, duration);
    At(end.at, [this, w, end] { DecodedDownlink(w, end); });
  }

  void DecodedDownlink(int w, const Stamp& end) {
    WorkerRound& wr = w_[w];
    wr.done = Later(wr.done, end);
    if (--wr.parts_left > 0) return;
    if (layerwise_) {
      const SimTime compute_end = start_ + rounds_.timing().compute;
      rounds_.timing().overlap_saved =
          first_send_ < compute_end ? compute_end - first_send_ : SimTime();
    }
    rounds_.PartyDone(wr.done.codec);
  }

  void EndRound() const {
    if (!rule_.ModelKnownFinite() && !rule_.Model().allFinite()) {
      throw NonFiniteError("the model has a non-finite value");
    }
  }

  void Evaluate(IterationRecord& r) const {
    EvaluateModel(objective_, rule_.Model(), r);
    rule_.Extra(r.extra);
  }

  const RunSetup& setup_;
  PsRule& rule_;
  const Objective& objective_;
  Engine engine_;
  Network network_;
  RunRecorder recorder_;
  SyncRounds rounds_;
  CodecClock clock_;
  WorkerUplinks uplinks_;
  std::vector<int> servers_;              // shard -> server host
  std::vector<CodecLanes> server_lanes_;  // one set per server
  std::vector<CodecLanes> worker_lanes_;
  int workers_ = 0;
  std::vector<int> worker_hosts_;    // worker index -> host
  std::vector<int> worker_of_host_;  // host -> worker index (-1 for a dedicated server)
  std::vector<Rng> compute_rngs_;
  std::unique_ptr<Rng> server_rng_;
  std::vector<PsPart> parts_;  // send order; one part (the whole vector) unsharded, no overlap
  bool layerwise_ = false;
  // The current round.
  double step_ = 0;
  SimTime start_, first_send_;
  int next_uplink_ = 0;                // the worker whose uplink the server's rule takes next
  int arrived_ = 0;                    // workers with some part of their uplink at the server
  std::vector<const Message*> taken_;  // the uplinks the rule takes next
  std::vector<WorkerRound> w_;
  std::vector<PartRound> part_;
  SharedMessage downlink_;
  double downlink_wall_s_ = 0;
};

}  // namespace

void RunParameterServer(const RunSetup& setup, PsRule& rule, std::vector<IterationRecord>* records,
                        RunSummary* summary) {
  PsDriver driver(setup, rule);
  driver.Run(records, summary);
}

}  // namespace commsim
