// The topology lists that errors and docs give are read from the registry: every kind appears,
// each where its default (or its `server` key) puts it.
#include <gtest/gtest.h>

#include <string>

#include "sim/topology_registry.h"

namespace commsim {
namespace {

TEST(TopologyListsTest, ServerAndGraphKindsAsTheBuildersPlaceThem) {
  EXPECT_EQ(ServerTopologyList(),
            "star, star_direct, tree, fat_tree, dumbbell, or explicit with \"server\"");
  EXPECT_EQ(GraphTopologyList(),
            "ring, torus, complete, erdos_renyi, explicit, or tree, fat_tree, dumbbell with "
            "\"server\": \"none\"");
}

TEST(TopologyListsTest, EveryRegisteredKindIsInOneOfTheLists) {
  const std::string both = ServerTopologyList() + ", " + GraphTopologyList();
  for (const std::string& name : TopologyRegistry().names()) {
    EXPECT_NE(both.find(name + ","), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace commsim
