// `commsim reproduce` through the binary: a manifest of the test's own on a small scenario, its
// reproduction.md with every "holds" computed from the run, errors in the manifest with their
// JSON pointers, an unknown name, and the shipped manifest's list.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "app/binary_test_util.h"
#include "base/file_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using testing::ExpectCommsim;
using testing::RunCommsim;

class ReproduceCommandTest : public test_files::TempDirTest {
 protected:
  // A manifest beside a copy of the quickstart cut to 20 iterations, with `claims`.
  std::string Manifest(const std::string& claims) {
    std::ifstream in(std::string(COMMSIM_SOURCE_DIR) + "/scenarios/quickstart.json");
    nlohmann::json s = nlohmann::json::parse(in);
    s["iterations"] = 20;
    std::ofstream(P("small.json")) << s.dump();
    std::ofstream(P("claims.json")) << R"({"reproductions": [{"name": "small", "paper": "P",
        "figure": "F", "differs": "D", "scenario": "small.json", "claims": )"
                                    << claims << "}]}";
    return P("claims.json");
  }
};

// DORE's bits are below 10% of SGD's in the quickstart (a holds), its loss after 20 iterations
// is not below 1e-6 (a does not hold): both decided by the run.
TEST_F(ReproduceCommandTest, WritesEachClaimWithTheValuesItComparedAndWhetherItHolds) {
  const std::string manifest = Manifest(R"([
      {"claim": "few bits", "paper": "< 10%", "kind": "ratio_below", "field": "total_bits",
       "entries": "dore", "of": "sgd", "value": 0.1},
      {"claim": "converged", "paper": "1e-6", "kind": "below", "field": "final_loss",
       "entries": "dore", "value": 1e-6, "note": "20 iterations only"}])");
  ExpectCommsim(fmt::format("reproduce --manifest {} --out {} --no-plots -q", manifest, P("out")),
                0, {"reproduce: 1 of 2 claims hold"});
  std::ifstream in(P("out/reproduction.md"));
  const std::string md((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(md.find("## P — F"), std::string::npos) << md;
  EXPECT_NE(md.find("| few bits | < 10% | sgd "), std::string::npos) << md;
  EXPECT_NE(md.find("| yes |"), std::string::npos) << md;
  EXPECT_NE(md.find("20 iterations only | **no** |"), std::string::npos) << md;
  EXPECT_TRUE(fs::exists(P("out/small/summary.csv")));
  EXPECT_TRUE(fs::exists(P("out/.commsim")));
  // A second run replaces what it wrote.
  ExpectCommsim(
      fmt::format("reproduce small --manifest {} --out {} --no-plots -q", manifest, P("out")), 0,
      {"1 of 2 claims hold"});
}

TEST_F(ReproduceCommandTest, ManifestProblemsAreListedWithTheirPointers) {
  const std::string manifest = Manifest(R"([{"claim": "x", "kind": "sideways", "entries": "a"},
      {"kind": "ratio_below", "field": "total_bits", "entries": "dore"}, 3])");
  const std::string out = ExpectCommsim(
      fmt::format("reproduce --manifest {} --out {}", manifest, P("out")), 1,
      {"/reproductions/0/claims/0/kind", "/reproductions/0/claims/1/claim",
       "/reproductions/0/claims/1/of", "/reproductions/0/claims/2: expected a claim object"});
  EXPECT_FALSE(fs::exists(P("out")));
}

TEST_F(ReproduceCommandTest, AnUnknownNameListsTheKnownOnes) {
  const std::string manifest = Manifest(R"([{"claim": "c", "kind": "below",
      "field": "final_loss", "entries": "sgd", "value": 1}])");
  ExpectCommsim(fmt::format("reproduce nope --manifest {}", manifest), 1,
                {"no reproduction named \"nope\"", "known: small, all"});
}

TEST_F(ReproduceCommandTest, TheShippedManifestListsThePapersReproductions) {
  const auto r = RunCommsim("reproduce --list");
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* name : {"dore_convex", "dore_lenet5_mnist", "dore_compression_levels",
                           "dore_resnet18_time", "malcom_mnist"}) {
    EXPECT_NE(r.out.find(name), std::string::npos) << name << "\n" << r.out;
  }
}

}  // namespace
}  // namespace commsim
