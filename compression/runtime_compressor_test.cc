// Compressors added while the program runs (AddRuntimeCompressor, Registry::Put): the global
// registry is left unchanged here, since other tests of this binary iterate over it.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "base/error.h"
#include "compression/compressors/identity.h"
#include "compression/registry.h"

namespace commsim {
namespace {

Registry<Compressor>::Entry RuntimeIdentityEntry(const std::string& name, const std::string& help) {
  return {name, help, [] { return std::unique_ptr<Config>(std::make_unique<IdentityConfig>()); },
          [](const Config& c) -> std::unique_ptr<Compressor> {
            return std::make_unique<Identity>(static_cast<const IdentityConfig&>(c));
          }};
}

TEST(RuntimeCompressorTest, PutAddsANewNameAndReplacesAnExistingOne) {
  Registry<Compressor> r;
  r.Add<Identity, IdentityConfig>("identity", "built in");
  r.Put(RuntimeIdentityEntry("mine", "first"));
  ASSERT_EQ(r.names(), (std::vector<std::string>{"identity", "mine"}));
  r.Put(RuntimeIdentityEntry("mine", "second"));
  ASSERT_EQ(r.names(), (std::vector<std::string>{"identity", "mine"}));
  EXPECT_EQ(r.Find("mine")->help, "second");
  EXPECT_EQ(r.Find("identity")->help, "built in");
}

TEST(RuntimeCompressorTest, ABuiltInNameIsRefusedAndTheRegistryUnchanged) {
  const size_t before = CompressorRegistry().entries().size();
  const std::string help = CompressorRegistry().Find("top_k")->help;
  try {
    AddRuntimeCompressor(RuntimeIdentityEntry("top_k", "not top_k"));
    FAIL() << "no UserError";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("\"top_k\" is taken by a built-in compressor"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(CompressorRegistry().entries().size(), before);
  EXPECT_EQ(CompressorRegistry().Find("top_k")->help, help);
}

}  // namespace
}  // namespace commsim
