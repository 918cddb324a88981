// Trajectory reuse: a replayed entry gives the same outputs, byte for byte, as running it in full
// on the replay's network; its learning comes from the trajectory; only timing keys qualify.
#include "scenarios/trajectory_reuse.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/writers.h"
#include "scenarios/runner.h"
#include "scenarios/scenario.h"
#include "scenarios/sweep.h"
#include "scenarios/sweep_point.h"

namespace commsim {
namespace {

// Entries `algorithms` (a JSON array) on 4 workers of a star at `bandwidth`, with gradient
// buckets (layer-wise overlap, so messages have parts), codec time, compute jitter and TCP.
Scenario OnStar(const std::string& bandwidth, const char* algorithms,
                const std::string& codec_mode = "model") {
  nlohmann::json doc = nlohmann::json::parse(R"({
    "name": "reuse", "seed": 5, "workers": 4, "iterations": 6, "metrics_every": 2,
    "model": {"name": "synthetic_quadratic", "dim": 3000, "samples_per_worker": 64,
              "noise": 0.5},
    "batch": 8, "step": {"size": 0.005},
    "network": {"model": "flow", "protocol": "tcp",
                "topology": {"name": "star", "worker_latency": "20us"}},
    "compute": {"mode": "flops", "device": "cpu_core", "overlap": "layerwise",
                "bucket": 32000, "jitter": 0.2}
  })");
  doc["network"]["topology"]["worker_bandwidth"] = bandwidth;
  doc["codec"] = {{"mode", codec_mode}, {"device", "cpu_core"}};
  doc["algorithms"] = nlohmann::json::parse(algorithms);
  return ParseScenario(doc, "reuse.json", ".");
}

// Three parameter-server entries with varying message sizes (qsgd's Elias coding).
Scenario Small(const std::string& bandwidth, const std::string& codec_mode = "model") {
  return OnStar(bandwidth, R"(["qsgd", "dore", "memsgd"])", codec_mode);
}

struct Outputs {
  std::string metrics, summary;
};

Outputs RunWith(const Scenario& s, TrajectoryStore* store) {
  RunOptions options;
  options.trajectories = store;
  const RunResult r = RunScenario(s, options);
  return {MetricsCsv(r), SummaryCsv(r)};
}

// Records every entry of make(bandwidth) at 1 Gbps, replays them at 30 Mbps, and compares the
// outputs with full runs at 30 Mbps, byte for byte.
template <class Make>
void ExpectReplayMatchesFullRun(const Make& make, size_t entries) {
  TrajectoryStore store;
  RunWith(make("1Gbps"), &store);
  ASSERT_EQ(store.recorded(), entries);
  EXPECT_EQ(store.replayed(), 0u);
  const Outputs replayed = RunWith(make("30Mbps"), &store);
  EXPECT_EQ(store.replayed(), entries);
  const Outputs full = RunWith(make("30Mbps"), nullptr);
  EXPECT_EQ(replayed.metrics, full.metrics);
  EXPECT_EQ(replayed.summary, full.summary);
  // The networks differ, so the test compares timings that really changed.
  EXPECT_NE(full.metrics, RunWith(make("1Gbps"), nullptr).metrics);
}

TEST(TrajectoryReuseTest, ReplayOnAnotherNetworkMatchesTheFullRunByteForByte) {
  ExpectReplayMatchesFullRun([](const std::string& bandwidth) { return Small(bandwidth); }, 3);
}

// The collective family: ring all-reduce with gradient buckets (layer-wise overlap), all-gathers
// of compressed gradients whose sizes vary per worker and round (qsgd's Elias coding, top-k with
// error feedback), PowerSGD's two all-reduces, an all-reduce of compressed values (rand-k with a
// shared seed: encoded before, decoded after) and a top-k all-gather under Horovod over MPI.
Scenario Collectives(const std::string& bandwidth) {
  return OnStar(bandwidth, R"([
      {"name": "allreduce_sgd", "collective": "ring"},
      {"name": "allgather_compressed", "compressor": {"name": "qsgd", "coding": "elias"}},
      {"name": "allgather_compressed", "label": "topk_ef",
       "compressor": {"name": "top_k", "fraction": 0.05}, "error_feedback": true},
      {"name": "powersgd", "rank": 2},
      {"name": "allreduce_compressed", "compressor": {"name": "rand_k", "fraction": 0.05}},
      {"name": "allgather_compressed", "label": "topk_horovod", "framework": "horovod",
       "compressor": {"name": "top_k", "fraction": 0.05}}])");
}

TEST(TrajectoryReuseTest, CollectiveReplayOnAnotherNetworkMatchesTheFullRunByteForByte) {
  ExpectReplayMatchesFullRun(Collectives, 6);
}

// The decentralized family on a ring: D-PSGD (sends before it computes), CHOCO with qsgd's
// Elias coding (sizes vary per node and round) and MALCOM, with codec time, jitter and TCP.
Scenario Gossip(const std::string& bandwidth) {
  nlohmann::json doc = nlohmann::json::parse(R"({
    "name": "reuse", "seed": 5, "workers": 6, "iterations": 6, "metrics_every": 2,
    "model": {"name": "logistic_regression", "l1": 1e-3, "l2": 1e-3},
    "data": {"name": "synthetic_classification", "samples": 240, "features": 30},
    "batch": 8, "step": {"size": 0.5},
    "network": {"model": "flow", "protocol": "tcp",
                "topology": {"name": "ring", "latency": "20us"}},
    "compute": {"mode": "flops", "device": "cpu_core", "jitter": 0.2},
    "codec": {"mode": "model", "device": "cpu_core"},
    "algorithms": [
      "dpsgd",
      {"name": "choco", "compressor": {"name": "qsgd", "coding": "elias"}, "gamma_c": 0.3},
      {"name": "malcom", "gamma_c": 1.0}]
  })");
  doc["network"]["topology"]["bandwidth"] = bandwidth;
  return ParseScenario(doc, "reuse.json", ".");
}

TEST(TrajectoryReuseTest, DecentralizedReplayOnAnotherNetworkMatchesTheFullRunByteForByte) {
  ExpectReplayMatchesFullRun(Gossip, 3);
}

// Rounds of several exchanges with per-neighbour messages: PowerGossip (2 half-iterations, its
// message sizes alternating), Q-SGADMM (heads then tails, nothing on the ring's closing edge) and
// SDM-DSGD, on the same problem and network.
Scenario GossipExchanges(const std::string& bandwidth) {
  nlohmann::json doc = nlohmann::json::parse(R"({
    "name": "reuse", "seed": 5, "workers": 6, "iterations": 6, "metrics_every": 2,
    "model": {"name": "logistic_regression", "l2": 1e-3},
    "data": {"name": "synthetic_classification", "samples": 240, "features": 30},
    "batch": 8, "step": {"size": 0.05},
    "network": {"model": "flow", "protocol": "tcp",
                "topology": {"name": "ring", "latency": "20us"}},
    "compute": {"mode": "flops", "device": "cpu_core", "jitter": 0.2},
    "codec": {"mode": "model", "device": "cpu_core"},
    "algorithms": [
      {"name": "powergossip", "iterations": 2},
      {"name": "qsgadmm", "local_steps": 2},
      "sdm_dsgd"]
  })");
  doc["network"]["topology"]["bandwidth"] = bandwidth;
  return ParseScenario(doc, "reuse.json", ".");
}

TEST(TrajectoryReuseTest, ExchangeRoundsReplayOnAnotherNetworkMatchTheFullRunByteForByte) {
  ExpectReplayMatchesFullRun(GossipExchanges, 3);
}

TEST(TrajectoryReuseTest, ReplayTakesTheLearningFromTheTrajectory) {
  TrajectoryStore recorded;
  RunWith(Small("1Gbps"), &recorded);
  const std::shared_ptr<const Trajectory> t = recorded.Find(0);
  ASSERT_NE(t, nullptr);
  std::vector<IterationRecord> learning = t->learning();
  for (IterationRecord& r : learning) r.loss = 42.0 + static_cast<double>(r.iteration);
  TrajectoryStore doctored;
  doctored.Publish(0, std::make_shared<const Trajectory>(
                          Trajectory::FromParts(t->shapes(), t->runs(), learning)));
  RunOptions options;
  options.trajectories = &doctored;
  const RunResult r = RunScenario(Small("1Gbps"), options);
  EXPECT_EQ(r.summaries[0].final_loss, 48.0);  // iteration 6's doctored loss
  EXPECT_EQ(doctored.replayed(), 1u);
  EXPECT_NE(r.summaries[1].final_loss, 49.0);  // entry 1 had no trajectory: run in full
}

TEST(TrajectoryReuseTest, AReplayThatCannotFinishRunsInFull) {
  TrajectoryStore recorded;
  RunWith(Small("1Gbps"), &recorded);
  const std::shared_ptr<const Trajectory> t = recorded.Find(0);
  // The first 2 of 6 rounds: the replay stops with an error in round 3.
  std::vector<RoundRun> runs;
  for (int64_t kept = 0; const RoundRun& run : t->runs()) {
    if (kept == 2) break;
    runs.push_back(run);
    runs.back().count = std::min<int64_t>(run.count, 2 - kept);
    kept += runs.back().count;
  }
  TrajectoryStore short_store;
  short_store.Publish(0, std::make_shared<const Trajectory>(
                             Trajectory::FromParts(t->shapes(), runs, t->learning())));
  EXPECT_EQ(RunWith(Small("1Gbps"), &short_store).summary,
            RunWith(Small("1Gbps"), nullptr).summary);
  EXPECT_EQ(short_store.replayed(), 0u);
}

TEST(TrajectoryReuseTest, MeasuredCodecTimeIsNeverReplayedNorRecorded) {
  TrajectoryStore store;
  RunWith(Small("1Gbps", "measured"), &store);
  EXPECT_EQ(store.recorded(), 0u);
  RunWith(Small("1Gbps"), &store);
  RunWith(Small("1Gbps", "measured"), &store);
  EXPECT_EQ(store.replayed(), 0u);
}

TEST(TrajectoryReuseTest, AnAbandonedRecordingLetsTheNextCallerRecord) {
  TrajectoryStore store;
  EXPECT_EQ(store.Acquire(2), nullptr);  // the caller records
  store.Abandon(2);
  EXPECT_EQ(store.Acquire(2), nullptr);  // does not wait for ever: records again
  store.Publish(2, std::make_shared<const Trajectory>());
  EXPECT_NE(store.Acquire(2), nullptr);
  EXPECT_EQ(store.recorded(), 1u);
}

TEST(TrajectoryReuseTest, TheStoreBuildsTheObjectiveOnce) {
  TrajectoryStore store;
  int built = 0;
  const auto build = [&]() -> std::shared_ptr<const Objective> {
    ++built;
    return Small("1Gbps").algorithms.empty() ? nullptr : std::shared_ptr<const Objective>();
  };
  store.SharedObjective(build);
  EXPECT_EQ(built, 1);
  // A null result counts as not built (as a build that threw would): the next call builds.
  store.SharedObjective(build);
  EXPECT_EQ(built, 2);
  TrajectoryStore shared;
  RunOptions options;
  options.trajectories = &shared;
  RunScenario(Small("1Gbps"), options);
  const std::shared_ptr<const Objective> first = shared.SharedObjective(build);
  RunScenario(Small("30Mbps"), options);
  EXPECT_EQ(shared.SharedObjective(build), first);
  EXPECT_NE(first, nullptr);
  EXPECT_EQ(built, 2);  // never called: the runs built it
}

TEST(TrajectoryReuseTest, OnlyTimingKeysQualify) {
  for (const char* p : {"/header_bits",
                        "/network/model",
                        "/network/mtu",
                        "/network/protocol",
                        "/network/queue",
                        "/network/downlink",
                        "/network/topology/server_bandwidth",
                        "/network/topology/worker_latencies/3",
                        "/network/topology/bandwidth",
                        "/network/topology/bottleneck_bandwidth",
                        "/network/topology/oversubscription",
                        "/compute/device",
                        "/compute/efficiency",
                        "/compute/slowdown",
                        "/compute/slowdown/0",
                        "/compute/jitter",
                        "/compute/seconds",
                        "/codec/device",
                        "/codec/mode",
                        "/algorithms/2/topology/worker_bandwidth",
                        "/algorithms/0/codec/server_threads"}) {
    EXPECT_TRUE(IsTimingPointer(p)) << p;
  }
  for (const char* p : {"",
                        "/",
                        "/seed",
                        "/workers",
                        "/iterations",
                        "/batch",
                        "/step/size",
                        "/model/dim",
                        "/network",
                        "/network/topology",
                        "/network/topology/name",
                        "/network/topology/rows",
                        "/network/topology/edges",
                        "/network/topology/server",
                        "/network/broadcast",
                        "/compute/overlap",
                        "/compute/bucket",
                        "/compute/slowdown/x",
                        "/codec",
                        "/algorithms/0/uplink/levels",
                        "/algorithms/0/topology",
                        "/algorithms/x/codec/device",
                        "/header_bits/0",
                        "/network/topology/bandwidth/0/1",
                        "/network/topology/my_bandwidth"}) {
    EXPECT_FALSE(IsTimingPointer(p)) << p;
  }
}

TEST(TrajectoryReuseTest, ASweepReusesOnlyWhenEveryAxisIsATimingKey) {
  const nlohmann::json base = {{"workers", 2}, {"algorithms", {"sgd"}}};
  nlohmann::json doc = {
      {"base", base},
      {"axes",
       {{{"pointer", "/network/topology/worker_bandwidth"}, {"values", {1e6, 1e7}}},
        {{"pointer", "/header_bits"}, {"values", {0, 320}}}}}};
  EXPECT_EQ(SweepReuseBlocker(ParseSweep(doc, "s.json", ".")), "");
  doc["axes"].push_back({{"name", "s"}, {"pointer", "/seed"}, {"values", {1, 2}}});
  EXPECT_EQ(SweepReuseBlocker(ParseSweep(doc, "s.json", ".")),
            "axis s (/seed) is not a timing key");
}

}  // namespace
}  // namespace commsim
