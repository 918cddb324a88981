#include "sim/traffic.h"

#include <fmt/format.h>

#include <array>
#include <functional>
#include <utility>

#include "base/check.h"

namespace commsim {
namespace {

// The state of one pattern run; lives on RunTraffic's stack while the engine runs.
class TrafficRun {
 public:
  TrafficRun(Engine& engine, Network& network, int64_t bits)
      : engine_(engine), net_(network), bits_(bits) {
    workers_ = network.topology().WorkerHosts();
  }

  // Makes the pattern's first sends (defined after kPatterns below).
  void Start(TrafficPattern pattern);
  std::vector<MessageRecord> TakeRecords() { return std::move(records_); }

  // The steps a pattern is made of (kPatterns below).
  using Step = void (TrafficRun::*)();
  // Every worker sends to the server; the last arrival starts then_ (when set).
  void Incast() {
    remaining_up_ = static_cast<int>(workers_.size());
    for (int w : workers_) {
      Send(w, Server(), bits_, "up", [this] {
        if (--remaining_up_ == 0 && then_ != nullptr) (this->*then_)();
      });
    }
  }

  void Downlink() {
    for (int w : workers_) Send(Server(), w, bits_, "down", nullptr);
  }

  void Broadcast() {
    const size_t first = records_.size();
    for (int w : workers_) {
      records_.push_back({0, Server(), w, bits_, "down", engine_.Now(), SimTime()});
    }
    const uint64_t id = net_.Multicast(Server(), workers_, bits_, [this, first](int dst) {
      for (size_t r = first; r < first + workers_.size(); ++r) {
        if (records_[r].dst == dst) records_[r].delivered = engine_.Now();
      }
    });
    for (size_t r = first; r < records_.size(); ++r) records_[r].message = id;
  }

  void Neighbours() {
    const Topology& t = net_.topology();
    for (int h = 0; h < t.num_hosts(); ++h) {
      for (int n : t.neighbours(h)) Send(h, n, bits_, "neighbour", nullptr);
    }
  }

  void RingStart() {
    const int hosts = net_.topology().num_hosts();
    if (hosts < 2) return;
    for (int h = 0; h < hosts; ++h) RingSend(h, 0);
  }

 private:
  int Server() const { return *net_.topology().server(); }

  // Sends one unicast message and records it; `then` runs after its delivery is recorded.
  void Send(int src, int dst, int64_t bits, std::string phase, std::function<void()> then) {
    const size_t r = records_.size();
    records_.push_back({0, src, dst, bits, std::move(phase), engine_.Now(), SimTime()});
    records_[r].message = net_.Send(src, dst, bits, [this, r, then = std::move(then)] {
      records_[r].delivered = engine_.Now();
      if (then) then();
    });
  }

  // Host `host` sends its step-`step` chunk; its arrival triggers the next host's next step.
  void RingSend(int host, int step) {
    const int hosts = net_.topology().num_hosts();
    const int next = (host + 1) % hosts;
    Send(host, next, bits_ / hosts, fmt::format("step {}", step), [this, next, step, hosts] {
      if (step + 1 < 2 * (hosts - 1)) RingSend(next, step + 1);
    });
  }

  Engine& engine_;
  Network& net_;
  int64_t bits_;
  std::vector<int> workers_;
  std::vector<MessageRecord> records_;
  int remaining_up_ = 0;
  Step then_ = nullptr;
};

// One row per TrafficPattern, in enum order (see traffic.h).
struct PatternRow {
  std::string_view name;
  TrafficRun::Step start;
  TrafficRun::Step after_incast;  // starts when the last uplink has arrived; nullptr: none
  bool needs_server;
};

constexpr std::array<PatternRow, 7> kPatterns = {{
    {"incast", &TrafficRun::Incast, nullptr, true},
    {"downlink", &TrafficRun::Downlink, nullptr, true},
    {"broadcast", &TrafficRun::Broadcast, nullptr, true},
    {"ps_round", &TrafficRun::Incast, &TrafficRun::Downlink, true},
    {"ps_round_multicast", &TrafficRun::Incast, &TrafficRun::Broadcast, true},
    {"neighbours", &TrafficRun::Neighbours, nullptr, false},
    {"ring_allreduce", &TrafficRun::RingStart, nullptr, false},
}};
static_assert(kPatterns.size() == static_cast<size_t>(TrafficPattern::kRingAllReduce) + 1,
              "one kPatterns row per TrafficPattern");

const PatternRow& RowOf(TrafficPattern pattern) { return kPatterns[static_cast<size_t>(pattern)]; }

void TrafficRun::Start(TrafficPattern pattern) {
  const PatternRow& row = RowOf(pattern);
  then_ = row.after_incast;
  (this->*row.start)();
}

constexpr std::array<std::string_view, kPatterns.size()> kNames = [] {
  std::array<std::string_view, kPatterns.size()> names;
  for (size_t i = 0; i < names.size(); ++i) names[i] = kPatterns[i].name;
  return names;
}();

}  // namespace

std::span<const std::string_view> TrafficPatternNames() { return kNames; }

std::optional<TrafficPattern> ParseTrafficPattern(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<TrafficPattern>(i);
  }
  return std::nullopt;
}

bool NeedsServer(TrafficPattern pattern) { return RowOf(pattern).needs_server; }

std::vector<MessageRecord> RunTraffic(Engine& engine, Network& network, TrafficPattern pattern,
                                      int64_t message_bits) {
  COMMSIM_CHECK(!NeedsServer(pattern) || network.topology().server().has_value(),
                "pattern {} needs a server", RowOf(pattern).name);
  COMMSIM_CHECK(message_bits >= 0, "negative message size");
  TrafficRun run(engine, network, message_bits);
  run.Start(pattern);
  engine.Run();
  return run.TakeRecords();
}

}  // namespace commsim
