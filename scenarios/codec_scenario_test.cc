// The scenario's `codec` key and layer-wise overlap end to end: defaults and backward
// compatibility, error messages, profiles, determinism across threads, per-bucket convergence.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/error.h"
#include "scenarios/codec_profile_file.h"
#include "scenarios/runner.h"
#include "scenarios/scenario.h"

namespace commsim {
namespace {

using nlohmann::json;

Scenario ParseCodecScenario(const std::string& text) {
  return ParseScenario(json::parse(text), "t.json", ".");
}

std::string ErrorOf(const std::string& text) {
  try {
    ParseCodecScenario(text);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(CodecScenarioTest, NoCodecKeyMeansNoneAndAnObjectMeansModel) {
  const Scenario old = ParseCodecScenario(R"({"algorithms": ["sgd"]})");
  EXPECT_EQ(old.algorithms[0].codec.mode, CodecMode::kNone);
  EXPECT_EQ(old.resolved["codec"]["mode"], "none");
  // The resolved form parses back to the same thing.
  EXPECT_EQ(ParseScenario(old.resolved, "r", ".").resolved, old.resolved);

  const Scenario fresh = ParseCodecScenario(R"({"codec": {}, "algorithms": ["dore"]})");
  EXPECT_EQ(fresh.algorithms[0].codec.mode, CodecMode::kModel);
  ASSERT_NE(fresh.algorithms[0].codec.profile, nullptr);
  EXPECT_EQ(fresh.algorithms[0].codec.profile->device, "cpu_core");
  EXPECT_EQ(ParseScenario(fresh.resolved, "r", ".").resolved, fresh.resolved);
}

TEST(CodecScenarioTest, AnEntryOverridesTheScenarioCodec) {
  // No scenario codec: an entry's object starts from mode model; the other entry stays none.
  const Scenario a = ParseCodecScenario(
      R"({"algorithms": [{"name": "sgd", "codec": {"device": "v100", "server_threads": 4}},
                         {"name": "dore"}]})");
  EXPECT_EQ(a.algorithms[0].codec.mode, CodecMode::kModel);
  EXPECT_EQ(a.algorithms[0].codec.profile->device, "v100");
  EXPECT_EQ(a.algorithms[0].codec.server_threads, 4);
  EXPECT_EQ(a.algorithms[1].codec.mode, CodecMode::kNone);
  EXPECT_EQ(ParseScenario(a.resolved, "r", ".").resolved, a.resolved);
  // A scenario codec is inherited field by field.
  const Scenario b = ParseCodecScenario(
      R"({"codec": {"mode": "measured"},
          "algorithms": [{"name": "sgd", "codec": {"server_threads": 2}}]})");
  EXPECT_EQ(b.algorithms[0].codec.mode, CodecMode::kMeasured);
  EXPECT_EQ(b.algorithms[0].codec.server_threads, 2);
}

TEST(CodecScenarioTest, BadCodecValuesAreNamedByPointer) {
  EXPECT_NE(ErrorOf(R"({"codec": {"mode": "fast"}, "algorithms": ["sgd"]})").find("/codec/mode"),
            std::string::npos);
  const std::string device = ErrorOf(R"({"codec": {"device": "tpu"}, "algorithms": ["sgd"]})");
  EXPECT_NE(device.find("t.json: /codec/device: expected a shipped device profile (a100, "
                        "cpu_core, h100, v100)"),
            std::string::npos)
      << device;
  EXPECT_NE(ErrorOf(R"({"codec": {"server_threads": 0}, "algorithms": ["sgd"]})")
                .find("/codec/server_threads"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"algorithms": [{"name": "sgd", "codec": {"modes": "model"}}]})")
                .find("/algorithms/0/codec/modes"),
            std::string::npos);
}

// A profile of one's own: read relative to the scenario's folder; a compressor it lacks is an
// error at the entry's compressor, naming the profile file and the compressor.
TEST(CodecScenarioTest, AProfileFileMustCoverTheEntrysCompressors) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "codec_profile_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "mine.json") << R"({"device": "mine", "source": "test", "compressors": {
      "identity": {"encode": {"elem_s": 1e-9}, "decode": {"elem_s": 1e-9}}}})";
  const json doc = json::parse(
      R"({"codec": {"profile": "mine.json"},
          "algorithms": ["sgd", {"name": "dore"}]})");
  std::string error;
  try {
    ParseScenario(doc, "s.json", dir.string());
  } catch (const UserError& e) {
    error = e.what();
  }
  const std::string file = (dir / "mine.json").string();
  EXPECT_NE(error.find("/algorithms/1/uplink: codec profile mine (" + file +
                       ") has no coefficients for compressor \"block_ternary\""),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find("/algorithms/0"), std::string::npos) << error;  // sgd: identity, covered
  std::ofstream(dir / "bad.json") << R"({"device": "x", "compressors": {
      "identity": {"encode": {"elem_s": -1}, "decode": {}}}})";
  try {
    LoadCodecProfileFile((dir / "bad.json").string());
    ADD_FAILURE() << "a negative coefficient was accepted";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("/compressors/identity/encode/elem_s"), std::string::npos)
        << e.what();
  }
  std::filesystem::remove_all(dir);
}

// Every shipped profile covers every registered compressor.
TEST(CodecScenarioTest, ShippedProfilesCoverEveryCompressor) {
  ASSERT_EQ(ShippedCodecDevices(), (std::vector<std::string>{"a100", "cpu_core", "h100", "v100"}));
  for (const std::string& device : ShippedCodecDevices()) {
    const auto profile = ShippedCodecProfile(device);
    ASSERT_NE(profile, nullptr) << device;
    EXPECT_FALSE(profile->source.empty()) << device;
    for (const char* c :
         {"identity", "block_ternary", "qsgd", "top_k", "rand_k", "scaled_sign", "dithered"}) {
      EXPECT_TRUE(profile->compressors.contains(c)) << device << " " << c;
    }
  }
}

const char* kSmall = R"({
  "name": "codec_small", "workers": 4, "iterations": 30, "metrics_every": 1,
  "data": {"name": "synthetic_regression", "samples": 200, "features": 60},
  "network": {"model": "flow", "topology": {"name": "star", "worker_bandwidth": "100Mbps",
                                            "worker_latency": "20us"}},
  "compute": {"mode": "fixed", "seconds": "200us", "overlap": "layerwise", "bucket": "320B"},
  "codec": {"mode": "model", "device": "cpu_core", "server_threads": 2},
  "step": {"size": 0.05},
  "algorithms": ["sgd", "dore", "memsgd", "diana", {"name": "choco", "topology": "ring"}]
})";

// Model mode and overlap are deterministic: the same records whatever the thread count.
TEST(CodecScenarioTest, ModelModeWithOverlapIsTheSameWhateverTheJobs) {
  const Scenario s = ParseCodecScenario(kSmall);
  RunOptions one, two;
  one.jobs = 1;
  two.jobs = 3;
  const RunResult a = RunScenario(s, one), b = RunScenario(s, two);
  ASSERT_EQ(a.records.size(), b.records.size());
  for (size_t e = 0; e < a.records.size(); ++e) {
    EXPECT_EQ(a.summaries[e].status, "ok") << a.summaries[e].message;
    ASSERT_EQ(a.records[e].size(), b.records[e].size());
    for (size_t k = 0; k < a.records[e].size(); ++k) {
      EXPECT_EQ(a.records[e][k].sim_time_s, b.records[e][k].sim_time_s);
      EXPECT_EQ(a.records[e][k].codec_time_s, b.records[e][k].codec_time_s);
      EXPECT_EQ(a.records[e][k].loss, b.records[e][k].loss);
    }
    EXPECT_GT(a.summaries[e].mean_codec_time_s, 0.0) << a.summaries[e].name;
    EXPECT_EQ(a.summaries[e].codec, "model cpu_core");
  }
}

}  // namespace
}  // namespace commsim
