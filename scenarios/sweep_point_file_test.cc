// Point files: the integrity line's exact format, and every tampering it must catch.
#include "scenarios/sweep_point_file.h"

#include <gtest/gtest.h>

namespace commsim {
namespace {

constexpr const char* kFingerprint = "0123456789abcdef";
constexpr const char* kCsv = "point,bw,name\n3,1e9,sgd\n3,1e9,dore\n";

std::string Problem(const std::string& text, size_t point = 3) {
  std::string problem;
  const auto table = ParsePointFile(text, point, kFingerprint, "points/3.csv", &problem);
  return table ? "" : problem;
}

TEST(SweepPointFileTest, IntegrityLineCarriesPointFingerprintRowsAndTheStandardCrc32) {
  // crc32("123456789") = cbf43926, the check value of the CRC-32 used by zlib, gzip and PNG.
  EXPECT_EQ(PointFileText(3, kFingerprint, "123456789", 0),
            "# commsim sweep point 3 of sweep 0123456789abcdef: 0 rows, crc32 cbf43926\n"
            "123456789");
}

TEST(SweepPointFileTest, IntactFileParsesToItsRows) {
  std::string problem;
  const auto table =
      ParsePointFile(PointFileText(3, kFingerprint, kCsv, 2), 3, kFingerprint, "f", &problem);
  ASSERT_TRUE(table) << problem;
  EXPECT_EQ(table->size(), 2u);
  EXPECT_EQ(table->Cell(1, "name"), "dore");
}

TEST(SweepPointFileTest, EveryTamperingIsCaught) {
  const std::string good = PointFileText(3, kFingerprint, kCsv, 2);
  const std::string line = good.substr(0, good.find('\n') + 1);
  const std::string header = "point,bw,name\n";
  EXPECT_EQ(Problem(line + header), "cut short or edited (its crc32 does not match its content)");
  EXPECT_NE(Problem(good.substr(0, good.size() - 5)), "");            // cut mid-row
  EXPECT_NE(Problem(line + header + "3,1e9,sgd\n"), "");              // row removed
  EXPECT_NE(Problem(good + "3,1e9,dore\n"), "");                      // row duplicated
  EXPECT_NE(Problem(line + header + "3,1e9,sgd\n3,1e8,dore\n"), "");  // a value edited
  EXPECT_EQ(Problem(PointFileText(3, "fedcba9876543210", kCsv, 2)),
            "belongs to another sweep (fingerprint fedcba9876543210, this sweep's is "
            "0123456789abcdef)");
  EXPECT_EQ(Problem(PointFileText(4, kFingerprint, kCsv, 2)), "holds point 4, not point 3");
  // A consistent crc32 but a row count that disagrees (a file re-stamped by hand).
  EXPECT_EQ(Problem(PointFileText(3, kFingerprint, kCsv, 3)),
            "has 2 rows, its integrity line says 3");
  EXPECT_EQ(Problem(PointFileText(3, kFingerprint, header, 0)),
            "has 0 rows, its integrity line says 0");
  // Files of the earlier format (plain CSV) or with a damaged integrity line.
  const std::string no_line =
      "no valid integrity line (written by another commsim version, or damaged)";
  EXPECT_EQ(Problem(kCsv), no_line);
  EXPECT_EQ(Problem(""), no_line);
  EXPECT_EQ(Problem("# commsim sweep point 03 of sweep 0123456789abcdef: 2 rows, crc32 " +
                    line.substr(line.size() - 9)),
            no_line);
  EXPECT_EQ(Problem(" " + good), no_line);
}

}  // namespace
}  // namespace commsim
