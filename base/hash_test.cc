#include "base/hash.h"

#include <gtest/gtest.h>

namespace commsim {
namespace {

// Reference values of 64-bit FNV-1a from the algorithm's published test vectors
// (offset basis 14695981039346656037, prime 1099511628211).
TEST(HashTest, Fnv1a64MatchesPublishedVectors) {
  EXPECT_EQ(Fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(Fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(Fnv1a64("foobar"), 0x85944171f73967e8ULL);
}

// Bytes >= 0x80 must be hashed as unsigned: a signed char would XOR in sign-extended bits.
TEST(HashTest, HighBytesAreHashedUnsigned) {
  const uint64_t expected = (kFnv1a64Offset ^ 0xffULL) * kFnv1a64Prime;
  EXPECT_EQ(Fnv1a64("\xff"), expected);
}

TEST(HashTest, ContinuingFromAPreviousHashEqualsHashingTheConcatenation) {
  EXPECT_EQ(Fnv1a64("bar", Fnv1a64("foo")), Fnv1a64("foobar"));
}

}  // namespace
}  // namespace commsim
