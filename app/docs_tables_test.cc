// The component tables of docs/scenarios.md are generated from the registries and the typed
// configs' Describe() (the same source as `commsim list`), so they cannot drift from the code: this
// test regenerates them and fails on any difference. After changing a component, a parameter, a
// default or a help text, rewrite the tables with
//   COMMSIM_UPDATE_DOCS=1 build/app/app_tests --gtest_filter='DocsTablesTest.*'
// It also checks that every key of a resolved scenario and of a resolved `commsim net` spec has a
// row in the hand-written tables of docs/scenarios.md and docs/network.md.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "algorithms/step_schedule.h"
#include "app/repo_text_test_util.h"
#include "base/params_text.h"
#include "models/compute_time.h"
#include "models/registry.h"
#include "scenarios/framework_keys.h"
#include "scenarios/json_config.h"
#include "scenarios/net_spec.h"
#include "scenarios/scenario.h"
#include "sim/topology_registry.h"

namespace commsim {
namespace {

const std::filesystem::path kRoot = COMMSIM_SOURCE_DIR;

std::string Escape(std::string_view text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string Code(std::string_view text) { return fmt::format("`{}`", text); }

// A component default, with the fields that differ from that component's own defaults, e.g.
// `qsgd` (coding: fixed).
std::string ComponentDefault(const ComponentSpec& spec) {
  if (spec.name.empty() || spec.config == nullptr) return "none";
  const ComponentKind* kind = AllComponentKinds().Find(spec.kind);
  std::unique_ptr<Config> plain = kind != nullptr ? kind->make_config(spec.name) : nullptr;
  const nlohmann::json own = WriteComponent(spec);
  const nlohmann::json base = plain ? WriteConfig(*plain) : nlohmann::json::object();
  std::vector<std::string> changed;
  for (const auto& [key, value] : own.items()) {
    if (key != "name" && (!base.contains(key) || base[key] != value)) {
      changed.push_back(
          fmt::format("{}: {}", key, value.is_string() ? value.get<std::string>() : value.dump()));
    }
  }
  if (changed.empty()) return Code(spec.name);
  return fmt::format("{} ({})", Code(spec.name), fmt::join(changed, ", "));
}

// One Markdown table row per field of `config`: | | `key` | type | default | range | help |.
std::string MarkdownRows(Config& config) {
  std::string rows;
  for (const ParamRow& row : ParamRows(config)) {
    std::string value = row.value, range = row.range;
    if (row.component != nullptr) {  // no range cell
      rows += fmt::format("| | {} | {} | {} | | {} |\n", Code(row.key), row.type,
                          ComponentDefault(*row.component), Escape(row.help));
      continue;
    }
    if (row.type == "text") {
      std::vector<std::string> quoted;
      for (const std::string& c : row.choices) quoted.push_back(Code(c));
      value = value.empty() ? "\"\"" : Code(value);
      range = fmt::format("{}", fmt::join(quoted, ", "));
    }
    rows += fmt::format("| | {} | {} | {} | {} | {} |\n", Code(row.key), row.type, value,
                        Escape(range), Escape(row.help));
  }
  return rows;
}

constexpr std::string_view kHeader =
    "| component | parameter | type | default | range | meaning |\n"
    "|---|---|---|---|---|---|\n";

template <class R>
std::string RegistryTable(const R& registry) {
  std::string out(kHeader);
  for (const auto& entry : registry.entries()) {
    out += fmt::format("| {} | | | | | {} |\n", Code(entry.name), Escape(entry.help));
    out += MarkdownRows(*entry.make_config());
  }
  return out;
}

std::string ConfigTable(std::string_view name, Config& config) {
  return std::string(kHeader) + fmt::format("| {} | | | | | |\n", Code(name)) +
         MarkdownRows(config);
}

// Which topologies each family runs on: the same phrases the errors give.
std::string TopologyFamilies() {
  return fmt::format(
      "Parameter-server algorithms need a topology with a server: {}. Decentralized ones gossip "
      "over a graph topology's links ({}), or over a logical `graph` routed through any "
      "topology. Collective ones run on any topology.\n",
      ServerTopologyList(), GraphTopologyList());
}

// The generated blocks of docs/scenarios.md, by name.
std::vector<std::pair<std::string, std::string>> GeneratedBlocks() {
  ComputeTimeConfig compute;
  StepConfig step;
  CodecKeys codec;
  FrameworkKeys framework;
  return {{"algorithms", RegistryTable(AlgorithmRegistry())},
          {"compressors", RegistryTable(CompressorRegistry())},
          {"topologies", RegistryTable(TopologyRegistry())},
          {"models", RegistryTable(ModelRegistry())},
          {"datasets", RegistryTable(DatasetRegistry())},
          {"partitions", RegistryTable(PartitionRegistry())},
          {"compute", ConfigTable("compute", compute)},
          {"step", ConfigTable("step", step)},
          {"codec", ConfigTable("codec", codec)},
          {"framework", ConfigTable("framework", framework)},
          {"topology families", TopologyFamilies()}};
}

std::string BeginMarker(const std::string& name) {
  return fmt::format("<!-- generated: {} (app/docs_tables_test.cc) -->\n", name);
}
std::string EndMarker(const std::string& name) {
  return fmt::format("<!-- end generated: {} -->\n", name);
}

TEST(DocsTablesTest, ComponentTablesMatchTheRegistries) {
  const std::filesystem::path path = kRoot / "docs/scenarios.md";
  std::string doc = testing::ReadWholeFile(path);
  const bool update = std::getenv("COMMSIM_UPDATE_DOCS") != nullptr;
  bool stale = false;
  for (const auto& [name, table] : GeneratedBlocks()) {
    const std::string begin = BeginMarker(name), end = EndMarker(name);
    const size_t b = doc.find(begin);
    const size_t e = doc.find(end);
    ASSERT_TRUE(b != std::string::npos && e != std::string::npos && b < e)
        << "docs/scenarios.md lacks the markers of the generated block '" << name << "':\n"
        << begin << end;
    const size_t from = b + begin.size();
    if (doc.compare(from, e - from, table) == 0) continue;
    stale = true;
    if (update) {
      doc.replace(from, e - from, table);
    } else {
      ADD_FAILURE() << "the '" << name << "' table of docs/scenarios.md is out of date; expected:\n"
                    << table;
    }
  }
  if (stale && update) std::ofstream(path, std::ios::binary) << doc;
  if (stale && !update) {
    ADD_FAILURE() << "regenerate with: COMMSIM_UPDATE_DOCS=1 build/app/app_tests "
                     "--gtest_filter='DocsTablesTest.*'";
  }
}

// Every top-level key of `resolved` has a row "| `key` |" in `doc`.
void ExpectRows(const nlohmann::json& resolved, const std::string& doc, const std::string& what) {
  for (const auto& [key, value] : resolved.items()) {
    EXPECT_NE(doc.find("| `" + key + "` |"), std::string::npos)
        << what << ": key \"" << key << "\" has no table row";
  }
}

TEST(DocsTablesTest, EveryScenarioKeyHasARow) {
  const std::string doc = testing::ReadWholeFile(kRoot / "docs/scenarios.md");
  const Scenario s = ParseScenario(nlohmann::json::parse(R"({"algorithms": ["sgd"]})"), "t", ".");
  ASSERT_TRUE(s.resolved.contains("network"));
  ExpectRows(s.resolved, doc, "docs/scenarios.md");
  ExpectRows(s.resolved["network"], doc, "docs/scenarios.md (network)");
  for (const char* key : {"label", "step", "codec", "topology"}) {  // per-entry keys
    EXPECT_NE(doc.find(fmt::format("| `{}` |", key)), std::string::npos) << key;
  }
}

TEST(DocsTablesTest, EveryNetSpecKeyHasARow) {
  const std::string doc = testing::ReadWholeFile(kRoot / "docs/network.md");
  const NetSpec spec = ParseNetSpec(nlohmann::json::object(), "t");
  const nlohmann::json resolved = ResolvedNetSpec(spec);
  ASSERT_GE(resolved.size(), 5u);
  ExpectRows(resolved, doc, "docs/network.md");
}

}  // namespace
}  // namespace commsim
