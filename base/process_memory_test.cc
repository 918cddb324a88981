#include "base/process_memory.h"

#include <gtest/gtest.h>

namespace commsim {
namespace {

TEST(ProcessMemoryTest, HugePagesAreOnRequestOnlyInMadviseMode) {
  EXPECT_TRUE(HugePagesOnRequest("always [madvise] never\n"));
  EXPECT_FALSE(HugePagesOnRequest("[always] madvise never\n"));  // the heap has them already
  EXPECT_FALSE(HugePagesOnRequest("always madvise [never]\n"));
  EXPECT_FALSE(HugePagesOnRequest(""));  // no such file: no THP
}

TEST(ProcessMemoryTest, TheHugePageTunableIsAddedOnceAndAUsersOwnIsKept) {
  EXPECT_EQ(TunablesWithHugePages(nullptr), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(TunablesWithHugePages(""), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(TunablesWithHugePages("glibc.malloc.arena_max=2"),
            "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
  // Already there (after the re-execution, or the user's choice, whatever its value): unchanged.
  EXPECT_EQ(TunablesWithHugePages("glibc.malloc.hugetlb=1"), std::nullopt);
  EXPECT_EQ(TunablesWithHugePages("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=0"), std::nullopt);
  EXPECT_EQ(TunablesWithHugePages("glibc.malloc.hugetlb=2:glibc.malloc.arena_max=2"), std::nullopt);
  // A longer name that starts the same is another tunable.
  EXPECT_EQ(TunablesWithHugePages("glibc.malloc.hugetlbx=1"),
            "glibc.malloc.hugetlbx=1:glibc.malloc.hugetlb=1");
}

}  // namespace
}  // namespace commsim
