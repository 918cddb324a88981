#include "algorithms/registry.h"

#include <gtest/gtest.h>

#include "compression/compressors/block_ternary.h"

namespace commsim {
namespace {

// Derived from the registry, so a new compressor needs no edit here: a registry line that builds
// another class than its name says (a copy-pasted line), or has no help text, fails.
TEST(CompressorRegistryTest, EveryEntryHasHelpAndBuildsTheCompressorItNames) {
  ASSERT_FALSE(CompressorRegistry().entries().empty());
  for (const auto& entry : CompressorRegistry().entries()) {
    EXPECT_FALSE(entry.help.empty()) << entry.name;
    const std::unique_ptr<Compressor> c = CompressorRegistry().Make(CompressorSpec(entry.name));
    EXPECT_EQ(c->Name(), entry.name);
  }
}

TEST(CompressorRegistryTest, SpecDefaultsCanBeTweakedBeforeMaking) {
  ComponentSpec spec = CompressorSpec("block_ternary");
  EXPECT_EQ(spec.kind, "compressor");
  EXPECT_EQ(spec.name, "block_ternary");
  auto& cfg = static_cast<BlockTernaryConfig&>(*spec.config);
  EXPECT_EQ(cfg.p, "inf");
  EXPECT_EQ(cfg.block, 256);
  EXPECT_EQ(cfg.coding, "fixed2");
  cfg.block = 8;
  const std::unique_ptr<Compressor> c = CompressorRegistry().Make(spec);
  Rng rng(1);
  // 2 blocks of 8: 2 * 32 + 2 * 16 bits.
  EXPECT_EQ(c->Encode(Eigen::VectorXd::Ones(16), rng).payload_bits, 2 * 32 + 32);
}

}  // namespace
}  // namespace commsim
