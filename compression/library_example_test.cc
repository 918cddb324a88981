// The compression library used alone, as docs/compression.md shows it: this binary links the
// compression library and the base layer only (compression_tests; the build's layering keeps it
// so). The code between the example markers is the documentation's example, word for word (the
// second test checks that), so the documented use compiles and does what the text says.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

// [example]
#include <Eigen/Core>
#include <cstdio>

#include "base/rng.h"
#include "compression/compressors/top_k.h"
#include "compression/registry.h"

// Top-1% of a vector: the message's exact bits, then the decoded vector.
double TopOnePercentError(const Eigen::VectorXd& x) {
  using namespace commsim;
  ComponentSpec spec = CompressorSpec("top_k");  // the registry's default config
  static_cast<TopKConfig&>(*spec.config).fraction = 0.01;
  const std::unique_ptr<Compressor> top_k = CompressorRegistry().Make(spec);
  Rng rng(/*seed=*/1);
  const Message m = top_k->Encode(x, rng);  // a real bitstream: m.words, m.payload_bits
  Eigen::VectorXd decoded(x.size());
  top_k->Decode(m, decoded);  // the receiver's side: bit for bit what the sender kept
  std::printf("%lld bits for %lld values\n", static_cast<long long>(m.payload_bits),
              static_cast<long long>(x.size()));
  return (decoded - x).squaredNorm() / x.squaredNorm();
}
// [example]

namespace commsim {
namespace {

TEST(CompressionLibraryExample, TopOnePercentKeepsTheLargestValuesOnly) {
  // 1000 values: ten of magnitude 10 (kept by top-1%), the rest 0.1 (dropped): the relative
  // error is the dropped energy, 990 * 0.01 / (990 * 0.01 + 10 * 100).
  Eigen::VectorXd x = Eigen::VectorXd::Constant(1000, 0.1);
  for (int i = 0; i < 10; ++i) x[97 * i] = (i % 2 == 0 ? 10.0 : -10.0);
  const double dropped = 990 * 0.01, kept = 10 * 100.0;
  EXPECT_NEAR(TopOnePercentError(x), dropped / (dropped + kept), 1e-12);
}

TEST(CompressionLibraryExample, IsTheDocumentationsExampleWordForWord) {
  const auto read = [](const std::filesystem::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  };
  const std::string self =
      read(std::filesystem::path(COMMSIM_SOURCE_DIR) / "compression" / "library_example_test.cc");
  const std::string doc =
      read(std::filesystem::path(COMMSIM_SOURCE_DIR) / "docs" / "compression.md");
  const std::string marker = "// [example]\n";
  const size_t begin = self.find(marker), end = self.rfind(marker);
  ASSERT_NE(begin, std::string::npos);
  ASSERT_LT(begin, end);
  const std::string example = self.substr(begin + marker.size(), end - begin - marker.size());
  EXPECT_NE(doc.find("```cpp\n" + example + "```\n"), std::string::npos)
      << "docs/compression.md does not show compression/library_example_test.cc's example";
}

}  // namespace
}  // namespace commsim
