#include "scenarios/trajectory_reuse.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>
#include <utility>

#include "algorithms/codec_time.h"

namespace commsim {
namespace {

std::vector<std::string> Segments(const std::string& pointer) {
  std::vector<std::string> out;
  if (pointer.empty() || pointer[0] != '/') return out;
  size_t start = 1;
  while (true) {
    const size_t slash = pointer.find('/', start);
    out.push_back(pointer.substr(start, slash == std::string::npos ? slash : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return out;
}

bool IsIndex(const std::string& s) {
  return !s.empty() && s.size() < 10 &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

template <size_t N>
bool OneOf(const std::string& s, const std::array<std::string_view, N>& keys) {
  return std::find(keys.begin(), keys.end(), s) != keys.end();
}

// A topology link key: [prefix_]bandwidth(s) / latency / latencies, or oversubscription.
bool IsLinkKey(const std::string& key) {
  static constexpr std::array<std::string_view, 8> kPrefixes = {
      "", "worker_", "server_", "host_", "core_", "aggregation_", "access_", "bottleneck_"};
  static constexpr std::array<std::string_view, 4> kNames = {"bandwidth", "bandwidths", "latency",
                                                             "latencies"};
  if (key == "oversubscription") return true;
  for (std::string_view prefix : kPrefixes) {
    if (key.size() <= prefix.size() || key.compare(0, prefix.size(), prefix) != 0) continue;
    if (OneOf(key.substr(prefix.size()), kNames)) return true;
  }
  return false;
}

// `rest` (after an object) is one key of `keys`, optionally followed by one array index.
template <size_t N>
bool KeyWithIndex(const std::vector<std::string>& rest,
                  const std::array<std::string_view, N>& keys) {
  return (rest.size() == 1 || (rest.size() == 2 && IsIndex(rest[1]))) && OneOf(rest[0], keys);
}

bool IsTopologyTiming(const std::vector<std::string>& rest) {
  return (rest.size() == 1 || (rest.size() == 2 && IsIndex(rest[1]))) && IsLinkKey(rest[0]);
}

constexpr std::array<std::string_view, 4> kCodecKeys = {"mode", "device", "profile",
                                                        "server_threads"};

}  // namespace

bool IsTimingPointer(const std::string& pointer) {
  static constexpr std::array<std::string_view, 9> kNetworkKeys = {
      "model",         "queue",          "mtu",     "protocol", "framing", "tcp_timestamps",
      "tcp_handshake", "tcp_slow_start", "downlink"};
  static constexpr std::array<std::string_view, 7> kComputeKeys = {
      "mode", "seconds", "device", "flops_per_s", "efficiency", "slowdown", "jitter"};
  const std::vector<std::string> s = Segments(pointer);
  if (s.empty()) return false;
  const std::vector<std::string> rest(s.begin() + 1, s.end());
  if (s[0] == "header_bits") return s.size() == 1;
  if (s[0] == "compute") return KeyWithIndex(rest, kComputeKeys);
  if (s[0] == "codec") return rest.size() == 1 && OneOf(rest[0], kCodecKeys);
  if (s[0] == "network") {
    if (s.size() >= 2 && s[1] == "topology") {
      return IsTopologyTiming(std::vector<std::string>(s.begin() + 2, s.end()));
    }
    return rest.size() == 1 && OneOf(rest[0], kNetworkKeys);
  }
  if (s[0] == "algorithms" && s.size() >= 4 && IsIndex(s[1])) {
    const std::vector<std::string> tail(s.begin() + 3, s.end());
    if (s[2] == "topology") return IsTopologyTiming(tail);
    if (s[2] == "codec") return tail.size() == 1 && OneOf(tail[0], kCodecKeys);
  }
  return false;
}

std::shared_ptr<const Trajectory> TrajectoryStore::Acquire(size_t entry) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !recording_[entry]; });
  const auto it = trajectories_.find(entry);
  if (it != trajectories_.end()) return it->second;
  recording_[entry] = true;
  return nullptr;
}

void TrajectoryStore::Publish(size_t entry, std::shared_ptr<const Trajectory> trajectory) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    trajectories_[entry] = std::move(trajectory);
    recording_[entry] = false;
    ++recorded_;
  }
  changed_.notify_all();
}

void TrajectoryStore::Abandon(size_t entry) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    recording_[entry] = false;
  }
  changed_.notify_all();
}

std::shared_ptr<const Trajectory> TrajectoryStore::Find(size_t entry) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = trajectories_.find(entry);
  return it == trajectories_.end() ? nullptr : it->second;
}

std::shared_ptr<const Objective> TrajectoryStore::SharedObjective(
    const std::function<std::shared_ptr<const Objective>()>& build) {
  std::lock_guard<std::mutex> lock(objective_mutex_);
  if (objective_ == nullptr) objective_ = build();
  return objective_;
}

void TrajectoryStore::CountReplay() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++replayed_;
}

size_t TrajectoryStore::replayed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return replayed_;
}

void TrajectoryStore::NoteRelearned(size_t entry, std::string why) {
  std::lock_guard<std::mutex> lock(mutex_);
  relearned_.push_back({entry, std::move(why)});
}

std::vector<TrajectoryStore::Relearned> TrajectoryStore::relearned() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return relearned_;
}

size_t TrajectoryStore::recorded() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return recorded_;
}

void RunAlgorithmEntry(const Algorithm& algorithm, const RunSetup& setup, size_t entry,
                       TrajectoryStore* store, std::vector<IterationRecord>* records,
                       RunSummary* summary) {
  if (store == nullptr || !algorithm.info().learning_ignores_time || !algorithm.can_replay() ||
      setup.codec.mode == CodecMode::kMeasured) {
    return algorithm.Run(setup, records, summary);
  }
  const std::shared_ptr<const Trajectory> known = store->Acquire(entry);
  if (known != nullptr) {
    RunSetup replay = setup;
    replay.replay = known.get();
    algorithm.Run(replay, records, summary);
    if (summary->status == kStatusOk) return store->CountReplay();
    // E.g. a simulation limit on this network: run it in full.
    store->NoteRelearned(entry, summary->message.empty()
                                    ? summary->status
                                    : summary->status + ": " + summary->message);
    records->clear();
    *summary = RunSummary{};
    return algorithm.Run(setup, records, summary);
  }
  auto recorded = std::make_shared<Trajectory>();
  RunSetup record = setup;
  record.record = recorded.get();
  try {
    algorithm.Run(record, records, summary);
  } catch (...) {
    store->Abandon(entry);
    throw;
  }
  if (summary->status != kStatusOk) return store->Abandon(entry);
  recorded->SetLearning(*records);
  store->Publish(entry, std::move(recorded));
}

}  // namespace commsim
