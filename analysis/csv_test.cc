#include "analysis/csv.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/error_test_util.h"

namespace commsim {
namespace {

TEST(CsvTest, ParsesHeaderRowsQuotesAndEmptyCells) {
  const CsvTable t = ParseCsv("a,b,c\r\n1,\"x,y\",\n\"say \"\"hi\"\"\",2.5,nan\n", "t.csv");
  ASSERT_EQ(t.header(), (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.Cell(0, "b"), "x,y");
  EXPECT_EQ(t.Cell(0, "c"), "");
  EXPECT_EQ(t.Cell(1, "a"), "say \"hi\"");
  EXPECT_EQ(t.Number(0, "a"), 1.0);
  EXPECT_FALSE(t.Number(0, "c").has_value());
  EXPECT_FALSE(t.Number(0, "b").has_value());  // not a number
  EXPECT_TRUE(std::isnan(*t.Number(1, "c")));
  EXPECT_FALSE(t.Number(0, "missing").has_value());
  EXPECT_EQ(t.Column("c"), 2);
  EXPECT_EQ(t.Column("d"), -1);
  EXPECT_TRUE(t.HasNumbers("b"));
  EXPECT_FALSE(t.HasNumbers("c"));  // only nan
}

TEST(CsvTest, HeaderOnlyAndNoTrailingNewline) {
  EXPECT_EQ(ParseCsv("a,b\n", "t").size(), 0u);
  const CsvTable t = ParseCsv("a\n7", "t");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t.Number(0, "a"), 7.0);
}

TEST(CsvTest, ErrorsNameFileAndLine) {
  EXPECT_EQ(test_errors::ErrorOf([] { ParseCsv("a,b\n1,2\n3\n", "s.csv"); }),
            "s.csv:3: expected 2 cells as in the header, got 1");
  EXPECT_THROW(ParseCsv("", "e.csv"), UserError);
  EXPECT_THROW(ParseCsv("a\n\"open\n", "q.csv"), UserError);
  EXPECT_THROW(ReadCsvFile("/nonexistent/x.csv"), UserError);
}

// A quoted cell spanning two lines counts both: the short record after it starts on line 4, and
// a quote in an unquoted cell after it is on line 5.
TEST(CsvTest, ErrorLinesCountNewlinesInsideQuotedCells) {
  EXPECT_EQ(test_errors::ErrorOf([] { ParseCsv("a,b\n\"two\nlines\",1\n3\n", "s.csv"); }),
            "s.csv:4: expected 2 cells as in the header, got 1");
  EXPECT_EQ(test_errors::ErrorOf([] { ParseCsv("a,b\n\"two\nlines\",1\n3,4\n5,x\"\n", "s.csv"); }),
            "s.csv:5: quote inside an unquoted cell");
}

TEST(CsvTest, LinesRoundTripThroughTheReader) {
  const std::vector<std::string> cells = {"plain", "with,comma", "with \"quote\"", "",
                                          "two\nlines"};
  const CsvTable t = ParseCsv(CsvLine({"a", "b", "c", "d", "e"}) + CsvLine(cells), "t");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t.rows()[0], cells);
  EXPECT_EQ(FormatNumber(0.1), "0.1");
  EXPECT_EQ(FormatNumber(1e7), "10000000");
  EXPECT_EQ(FormatNumber(-INFINITY), "-inf");
}

TEST(CsvTest, FormulaLikeTextCellsAreEscapedAndNumbersAreNot) {
  // OWASP's rule: a text cell starting with = + - @ tab or CR gets a single quote and is quoted.
  EXPECT_EQ(CsvCell("=1+2"), "\"'=1+2\"");
  EXPECT_EQ(CsvCell("+x"), "\"'+x\"");
  EXPECT_EQ(CsvCell("-x"), "\"'-x\"");
  EXPECT_EQ(CsvCell("@SUM(A1)"), "\"'@SUM(A1)\"");
  EXPECT_EQ(CsvCell("\t=1"), "\"'\t=1\"");
  EXPECT_EQ(CsvCell("\r1"), "\"'\r1\"");
  EXPECT_EQ(CsvCell("=a,\"b\""), "\"'=a,\"\"b\"\"\"");
  // A text that is such a cell after leading quotes gets one more, so the reader can tell.
  EXPECT_EQ(CsvCell("'=x"), "\"''=x\"");
  // Numbers and other text stay as they are.
  for (const char* kept : {"-1.5", "1e-3", "-inf", "+2", "-0", "nan", "x=1", "'x", "a-b", ""}) {
    EXPECT_EQ(CsvCell(kept), kept);
  }
}

TEST(CsvTest, EscapedCellsReadBackAsGiven) {
  const std::vector<std::string> cells = {"=1+2", "-x", "'=x", "''-y", "-1.5", "'x", "@", "+"};
  const CsvTable t = ParseCsv(CsvLine(cells) + CsvLine(cells), "t.csv");
  EXPECT_EQ(t.header(), cells);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t.rows()[0], cells);
  EXPECT_EQ(t.Number(0, "-1.5"), -1.5);
}

}  // namespace
}  // namespace commsim
