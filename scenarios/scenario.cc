#include "scenarios/scenario.h"

#include <fmt/format.h>

#include <array>
#include <filesystem>
#include <set>
#include <utility>
#include <vector>

#include "base/error.h"
#include "scenarios/json_config.h"
#include "scenarios/network_keys.h"
#include "scenarios/output_name.h"
#include "scenarios/scenario_checks.h"

namespace commsim {
namespace {

using nlohmann::json;

ComponentSpec DefaultSpec(std::string_view kind, std::string_view name) {
  const ComponentKind* k = AllComponentKinds().Find(kind);
  ComponentSpec spec(std::string(kind), std::string(name), nullptr);
  if (k != nullptr) spec.config = k->make_config(name);
  return spec;
}

// The scalar top-level keys and the problem components.
struct TopLevel final : ConfigBase<TopLevel> {
  Scenario* s;
  int64_t seed = 1;
  double target_loss = 0;      // read only when the key is present (optional)
  double target_accuracy = 0;  // idem
  explicit TopLevel(Scenario* scenario) : s(scenario) {}
  void Describe(ParamVisitor& v) override {
    v.Text("name", s->name, {}, "scenario name; results go to results/<name>/ by default");
    v.Int("seed", seed, Range::Closed(0, 9.0e15), "seed of every random stream");
    v.Int("workers", s->workers, Range::Closed(1, 100000), "workers (PS) or nodes (decentralized)");
    v.Int("iterations", s->iterations, Range::Closed(0, 1e12), "iterations per algorithm");
    v.Int("batch", s->batch, Range::AtLeast(0), "samples per worker per iteration; 0 = full shard");
    v.Int("metrics_every", s->metrics_every, Range::AtLeast(1), "record every k-th iteration");
    v.Real("divergence_loss", s->divergence_loss, Range::Positive(),
           "a loss above this (or NaN/Inf) marks the run diverged");
    v.Real("divergence_factor", s->divergence_factor, Range::Open(1, 1e300),
           "a loss above this factor times the initial loss marks the run diverged");
    v.Real("target_loss", target_loss, Range::Open(-1e300, 1e300),
           "time to target: the loss to reach (default: the largest final loss of the entries "
           "that did not diverge)");
    v.Real("target_accuracy", target_accuracy, Range::Closed(0, 1),
           "time to target: the test accuracy to reach instead of a loss");
    v.Int("header_bits", s->header_bits, Range::AtLeast(0), "bits added to every message",
          Unit::kBits);
    v.Text("baseline", s->baseline, {},
           "the label of the entry every entry's bits and speed are compared with (default: the "
           "entry's family's full-precision entry)");
    v.Component("model", s->model, "objective (see `commsim list`)");
    v.Component("data", s->data, "data set");
    v.Component("partition", s->partition, "how samples are split over workers");
  }
};

struct NetworkSection final : ConfigBase<NetworkSection> {
  Scenario* s;
  std::string downlink = "unicast";
  NetworkKeys keys;
  explicit NetworkSection(Scenario* scenario) : s(scenario) {}
  void Describe(ParamVisitor& v) override {
    static constexpr std::array<std::string_view, 2> kDownlink = {"unicast", "multicast"};
    v.Component("topology", s->topology, "network topology (see `commsim list`)");
    DescribeNetworkKeys(v, keys);
    v.Text("downlink", downlink, kDownlink, "server -> workers: n unicast copies or one multicast");
    v.Bool("broadcast", s->broadcast,
           "decentralized: one transmission per node reaches all neighbours (shared medium)");
  }
};

bool SafeName(const std::string& name) {
  if (!OutputNameProblem(name).empty()) return false;
  for (char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) {
      return false;
    }
  }
  return true;
}

// The entry's topology JSON with the scenario topology's link parameters filled in.
json EntryTopology(const json& given, const ComponentSpec& scenario_topology) {
  json out = given.is_string() ? json{{"name", given}} : given;
  if (!out.is_object() || !out.contains("name") || !out["name"].is_string()) return given;
  const json inherited =
      InheritedLinks(WriteComponent(scenario_topology), out["name"].get<std::string>());
  for (const auto& [key, value] : inherited.items()) {
    if (!out.contains(key)) out[key] = value;
  }
  return out;
}

// The entry's own keys beside its algorithm's: codec, framework, label, step, topology (removed
// from entry).
void ReadEntryKeys(json& entry, const std::string& pointer, const std::string& base_dir,
                   const Scenario& s, AlgorithmEntry& e, ErrorList& errors) {
  if (auto codec = entry.find("codec"); codec != entry.end()) {
    ReadCodecKeys(*codec, pointer + "/codec", base_dir, e.codec_keys, errors);
    e.own_codec = true;
    entry.erase("codec");
  }
  if (auto framework = entry.find("framework"); framework != entry.end()) {
    ReadFrameworkKeys(*framework, pointer + "/framework", e.framework_keys, errors);
    e.own_framework = true;
    entry.erase("framework");
  }
  if (auto label = entry.find("label"); label != entry.end()) {
    if (!label->is_string() || !SafeName(label->get<std::string>())) {
      errors.Add(
          pointer + "/label",
          fmt::format("expected a name of letters, digits, '_', '-', '.', got {}", label->dump()));
    } else {
      e.label = label->get<std::string>();
    }
    entry.erase("label");
  }
  if (auto step = entry.find("step"); step != entry.end()) {
    ReadConfig(*step, pointer + "/step", e.step, errors);
    entry.erase("step");
  }
  if (auto topology = entry.find("topology"); topology != entry.end()) {
    e.topology = ComponentSpec("topology", "", nullptr);
    ReadComponent(EntryTopology(*topology, s.topology), pointer + "/topology", e.topology, errors);
    entry.erase("topology");
  }
}

void ReadAlgorithms(const json& doc, const std::string& base_dir, bool codec_given, Scenario& s,
                    ErrorList& errors) {
  auto it = doc.find("algorithms");
  if (it == doc.end()) {
    errors.Add("/algorithms", "missing: a list of algorithm entries {\"name\": ...} is required");
    return;
  }
  if (!it->is_array() || it->empty()) {
    errors.Add("/algorithms", fmt::format("expected a non-empty array of algorithm entries, got {}",
                                          it->dump().substr(0, 60)));
    return;
  }
  std::set<std::string> labels;
  for (size_t i = 0; i < it->size(); ++i) {
    const std::string pointer = fmt::format("/algorithms/{}", i);
    json entry = (*it)[i];
    AlgorithmEntry e;
    e.algorithm = ComponentSpec("algorithm", "", nullptr);
    e.step = s.step;
    e.codec_keys = codec_given ? s.codec : CodecKeys{};
    e.framework_keys = s.framework;
    if (entry.is_object()) ReadEntryKeys(entry, pointer, base_dir, s, e, errors);
    ReadComponent(entry, pointer, e.algorithm, errors, AllComponentKinds(),
                  {"label", "step", "codec", "framework", "topology"});
    if (!e.own_codec && !codec_given) e.codec_keys.mode = "none";
    e.codec = ResolveCodec(e.codec_keys, e.algorithm, e.own_codec ? pointer + "/codec" : "/codec",
                           pointer, errors);
    e.framework = ResolveFramework(e.framework_keys);
    if (e.label.empty()) e.label = e.algorithm.name;
    if (!e.label.empty() && !labels.insert(e.label).second) {
      errors.Add(pointer, fmt::format("label \"{}\" is used by another entry; give each a unique "
                                      "\"label\"",
                                      e.label));
    }
    s.algorithms.push_back(std::move(e));
  }
}

// A `baseline` must name an entry.
void CheckBaselineLabel(const Scenario& s, ErrorList& errors) {
  if (s.baseline.empty()) return;
  std::vector<std::string> labels;
  for (const AlgorithmEntry& e : s.algorithms) {
    if (e.label == s.baseline) return;
    labels.push_back(fmt::format("\"{}\"", e.label));
  }
  errors.Add("/baseline", fmt::format("expected the label of an entry ({}), got \"{}\"",
                                      fmt::join(labels, ", "), s.baseline));
}

json Resolved(Scenario& s, const NetworkKeys& keys) {
  json out = json::object();
  TopLevel top(&s);
  top.seed = static_cast<int64_t>(s.seed);
  out = WriteConfig(top);
  out.erase("target_loss");
  out.erase("target_accuracy");
  if (s.target_loss) out["target_loss"] = *s.target_loss;
  if (s.target_accuracy) out["target_accuracy"] = *s.target_accuracy;
  if (s.baseline.empty()) out.erase("baseline");
  NetworkSection net(&s);
  net.downlink = s.multicast_downlink ? "multicast" : "unicast";
  net.keys = keys;
  out["network"] = WriteConfig(net);
  out["compute"] = WriteConfig(s.compute);
  out["codec"] = WriteConfig(s.codec);
  out["framework"] = WriteConfig(s.framework);
  out["step"] = WriteConfig(s.step);
  out["limits"] = WriteConfig(s.limits);
  json algorithms = json::array();
  for (AlgorithmEntry& e : s.algorithms) {
    json a = WriteComponent(e.algorithm);
    a["label"] = e.label;
    a["step"] = WriteConfig(e.step);
    if (e.own_codec) a["codec"] = WriteConfig(e.codec_keys);
    if (e.own_framework) a["framework"] = WriteConfig(e.framework_keys);
    if (e.topology.config) a["topology"] = WriteComponent(e.topology);
    algorithms.push_back(std::move(a));
  }
  out["algorithms"] = std::move(algorithms);
  return out;
}

}  // namespace

json InheritedLinks(const json& scenario_topology, std::string_view entry_kind) {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> kSources = {
      {"bandwidth", {"bandwidth", "worker_bandwidth"}},
      {"latency", {"latency", "worker_latency"}},
      {"worker_bandwidth", {"worker_bandwidth", "bandwidth"}},
      {"worker_latency", {"worker_latency", "latency"}},
      {"server_bandwidth", {"server_bandwidth", "bandwidth", "worker_bandwidth"}},
      {"server_latency", {"server_latency", "latency", "worker_latency"}},
      {"worker_bandwidths", {"worker_bandwidths"}},
      {"worker_latencies", {"worker_latencies"}},
  };
  json out = json::object();
  const ComponentSpec entry = DefaultSpec("topology", entry_kind);
  if (entry.config == nullptr || !scenario_topology.is_object()) return out;
  const json entry_keys = WriteComponent(entry);
  for (const auto& [key, sources] : kSources) {
    if (!entry_keys.contains(key)) continue;
    for (const std::string& source : sources) {
      if (scenario_topology.contains(source)) {
        out[key] = scenario_topology[source];
        break;
      }
    }
  }
  return out;
}

namespace {

// The document with a relative data `path` made absolute against `base_dir`.
json WithDataPathResolved(const json& doc, const std::string& base_dir) {
  const auto data = doc.find("data");
  if (data == doc.end() || !data->is_object()) return doc;
  const auto path = data->find("path");
  if (path == data->end() || !path->is_string()) return doc;
  const std::filesystem::path p(path->get<std::string>());
  if (p.empty() || p.is_absolute()) return doc;
  json out = doc;
  std::error_code ec;
  std::filesystem::path full = std::filesystem::absolute(std::filesystem::path(base_dir) / p, ec);
  if (ec) full = std::filesystem::path(base_dir) / p;
  out["data"]["path"] = full.lexically_normal().string();
  return out;
}

}  // namespace

Scenario ParseScenario(const json& original, const std::string& origin,
                       const std::string& base_dir) {
  const json doc = WithDataPathResolved(original, base_dir);
  Scenario s;
  s.file = origin;
  s.model = DefaultSpec("model", "linear_regression");
  s.data = DefaultSpec("dataset", "synthetic_regression");
  s.partition = DefaultSpec("partition", "iid");
  s.topology = DefaultSpec("topology", "star");
  ErrorList errors;
  if (!doc.is_object()) {
    errors.Add("", "expected a JSON object with the scenario's keys");
    errors.ThrowIfAny(origin);
  }
  TopLevel top(&s);
  ReadConfig(doc, "", top, errors,
             {"network", "compute", "codec", "framework", "step", "limits", "algorithms"});
  s.seed = static_cast<uint64_t>(top.seed);
  if (doc.contains("target_loss")) s.target_loss = top.target_loss;
  if (doc.contains("target_accuracy")) s.target_accuracy = top.target_accuracy;
  if (s.target_loss && s.target_accuracy) {
    errors.Add("/target_accuracy", "give target_loss or target_accuracy, not both");
  }
  if (!SafeName(s.name)) {
    errors.Add("/name", fmt::format("expected letters, digits, '_', '-' or '.' (not first, no "
                                    "'..'), at most {} of them, got \"{}\"",
                                    kMaxOutputNameBytes, s.name));
  }
  NetworkSection net(&s);
  const auto network_it = doc.find("network");
  if (network_it != doc.end()) ReadConfig(*network_it, "/network", net, errors);
  s.network = ResolveNetworkKeys(net.keys, network_it != doc.end() ? &*network_it : nullptr,
                                 "/network", errors);
  s.multicast_downlink = net.downlink == "multicast";
  if (auto it = doc.find("compute"); it != doc.end())
    ReadConfig(*it, "/compute", s.compute, errors);
  if (auto it = doc.find("step"); it != doc.end()) ReadConfig(*it, "/step", s.step, errors);
  if (auto it = doc.find("limits"); it != doc.end()) ReadConfig(*it, "/limits", s.limits, errors);
  const auto codec_it = doc.find("codec");
  if (codec_it != doc.end()) {
    ReadCodecKeys(*codec_it, "/codec", base_dir, s.codec, errors);
  } else {
    s.codec.mode = "none";
  }
  if (auto it = doc.find("framework"); it != doc.end()) {
    ReadFrameworkKeys(*it, "/framework", s.framework, errors);
  }
  ReadAlgorithms(doc, base_dir, codec_it != doc.end(), s, errors);
  CheckBaselineLabel(s, errors);
  if (s.metrics_every >= 1 && s.iterations / s.metrics_every > kMaxRecordedIterations) {
    errors.Add("/metrics_every",
               fmt::format("{} iterations recorded every {} is more than the {} records an entry "
                           "may keep; raise metrics_every",
                           s.iterations, s.metrics_every, kMaxRecordedIterations));
  }
  errors.ThrowIfAny(origin);
  s.resolved = Resolved(s, net.keys);
  s.notes = UnusedKeyNotes(doc, s);
  return s;
}

}  // namespace commsim
