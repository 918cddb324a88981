#include "scenarios/compress_report.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "base/error.h"
#include "base/error_test_util.h"
#include "compression/compressors/block_ternary.h"
#include "compression/compressors/qsgd.h"

namespace commsim {
namespace {

using test_errors::ErrorOf;

TEST(CompressReportTest, ParsesJsonObjectsAndBareNames) {
  const ComponentSpec spec =
      ParseCompressorArg(R"({"name": "block_ternary", "p": 2, "block": 64, "coding": "sparse"})");
  EXPECT_EQ(spec.name, "block_ternary");
  const auto& cfg = static_cast<const BlockTernaryConfig&>(*spec.config);
  EXPECT_EQ(cfg.p, "2");
  EXPECT_EQ(cfg.block, 64);
  EXPECT_EQ(cfg.coding, "sparse");
  EXPECT_EQ(ParseCompressorArg("qsgd").name, "qsgd");
  EXPECT_EQ(static_cast<const QsgdConfig&>(*ParseCompressorArg("qsgd").config).levels, 15);
}

TEST(CompressReportTest, BadCompressorArgumentsNameThePointer) {
  EXPECT_NE(ErrorOf([] {
              ParseCompressorArg(R"({"name": "top_kk"})");
            }).find(R"(--compressor: /name: unknown compressor "top_kk"; did you mean "top_k"?)"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] {
              ParseCompressorArg(R"({"name": "qsgd", "levels": 0})");
            }).find("--compressor: /levels:"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] {
              ParseCompressorArg(R"({"name": "identity", "precision": 48})");
            }).find("--compressor: /precision: must be 32 or 64, got 48"),
            std::string::npos);
}

TEST(CompressReportTest, MeasuredBitsMatchTheExactClosedForm) {
  CompressOptions options;
  options.compressor = ParseCompressorArg(R"({"name": "block_ternary", "block": 100})");
  options.dim = 1000;
  for (const char* dist : {"gaussian", "laplace", "sparse"}) {
    options.dist = dist;
    const CompressReport r = RunCompress(options);
    EXPECT_EQ(r.payload_bits, 32 * 10 + 2 * 1000) << dist;
    EXPECT_EQ(r.expected.payload_bits, 32 * 10 + 2 * 1000);
    EXPECT_GT(r.relative_error, 0.0);
    EXPECT_TRUE(r.unbiased);
    const std::string text = FormatCompressReport(r);
    EXPECT_NE(text.find("payload bits"), std::string::npos);
    EXPECT_NE(text.find("2320"), std::string::npos);
  }
  options.dist = "sparse";
  const Eigen::VectorXd x = MakeCompressInput(options);
  EXPECT_NEAR(static_cast<double>((x.array() != 0).count()), 100.0, 40.0);
  options.dist = "uniform";
  EXPECT_NE(ErrorOf([&] { MakeCompressInput(options); }).find("--dist: expected gaussian"),
            std::string::npos);
}

TEST(CompressReportTest, ReadsVectorFilesAndReportsBadLines) {
  const std::string path = ::testing::TempDir() + "/compress_input.txt";
  {
    std::ofstream out(path);
    out << "# a comment\n1.5, -2\n3e-2  4\n";
  }
  const Eigen::VectorXd x = ReadVectorFile(path);
  ASSERT_EQ(x.size(), 4);
  EXPECT_EQ(x[0], 1.5);
  EXPECT_EQ(x[1], -2.0);
  EXPECT_EQ(x[2], 3e-2);
  CompressOptions options;
  options.input_path = path;
  options.dim = 5;
  EXPECT_EQ(ErrorOf([&] { MakeCompressInput(options); }),
            "--dim: expected 4 (the length of " + path + "), got 5");
  {
    std::ofstream out(path);
    out << "1 2\n3 abc 4\n";
  }
  EXPECT_EQ(ErrorOf([&] { ReadVectorFile(path); }), path + ":2: expected a number, got \"abc\"");
  {
    std::ofstream out(path);
    out << "1 nan\n";
  }
  EXPECT_EQ(ErrorOf([&] { ReadVectorFile(path); }), path + ":1: expected a finite number, got nan");
  std::remove(path.c_str());
  EXPECT_NE(ErrorOf([&] { ReadVectorFile(path); }).find("cannot open vector file"),
            std::string::npos);
}

}  // namespace
}  // namespace commsim
