// Layer profiles through the binary: `commsim list profiles` and the scenario errors of a
// synthetic_quadratic that names one.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "app/binary_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using testing::RunCommsim;

TEST(ProfilesCommandTest, ListProfilesShowsEachWithItsParameterCountAndFlops) {
  const auto r = RunCommsim("list profiles");
  ASSERT_EQ(r.status, 0) << r.out;
  // name, parameters, layers, GFLOP/sample forward, forward + backward (3 x forward).
  EXPECT_NE(r.out.find("resnet18          11173962      41            1.112                3.336"),
            std::string::npos)
      << r.out;
  for (const char* row :
       {"resnet50          25557032", "vgg16            138357544", "gpt2_small       124439808",
        "bert_base        109482240", "lenet5               61706", "mlp                  50890"}) {
    EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
  }
  EXPECT_EQ(r.out.find("algorithms"), std::string::npos);  // only the profiles
  const auto all = RunCommsim("list");
  EXPECT_NE(all.out.find("layer profiles"), std::string::npos);
  EXPECT_NE(RunCommsim("list profile").status, 0);
}

class ProfileScenarioTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("commsim_profiles_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // `commsim validate` of a one-entry scenario with this model object.
  testing::CommandResult Validate(const std::string& model) {
    const fs::path file = dir_ / "s.json";
    std::ofstream(file) << R"({"workers": 2, "iterations": 1, "model": )" << model
                        << R"(, "algorithms": [{"name": "sgd"}]})";
    return RunCommsim("validate " + file.string());
  }
  fs::path dir_;
};

TEST_F(ProfileScenarioTest, MismatchedDimensionAndFlopsNameTheirKeys) {
  const auto r = Validate(
      R"({"name": "synthetic_quadratic", "profile": "resnet18", "dim": 1000,
          "flops_per_sample": 5})");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("s.json: /model/dim: is 1000 but profile \"resnet18\" has 11173962 "
                       "parameters; leave dim out or set it to 11173962"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("/model/flops_per_sample: comes from profile \"resnet18\""),
            std::string::npos)
      << r.out;
  const auto unknown = Validate(R"({"name": "synthetic_quadratic", "profile": "resnet-18"})");
  EXPECT_EQ(unknown.status, 1) << unknown.out;
  EXPECT_NE(unknown.out.find("/model/profile: unknown profile \"resnet-18\", expected one of: "
                             "bert_base, gpt2_small"),
            std::string::npos)
      << unknown.out;
  EXPECT_EQ(Validate(R"({"name": "synthetic_quadratic", "profile": "lenet5"})").status, 0);
}

}  // namespace
}  // namespace commsim
