#include "base/csv_reader.h"

#include <gtest/gtest.h>

#include <sstream>

#include "base/error.h"
#include "base/error_test_util.h"

namespace commsim {
namespace {

using Records = std::vector<std::vector<std::string>>;

Records ReadAll(const std::string& text, CsvDialect dialect,
                std::vector<int64_t>* lines = nullptr) {
  std::istringstream in(text);
  CsvReader reader(in, "t.csv", dialect);
  Records out;
  std::vector<std::string> cells;
  while (reader.Next(cells)) {
    out.push_back(cells);
    if (lines) lines->push_back(reader.line());
  }
  return out;
}

std::string ErrorOf(const std::string& text, CsvDialect dialect) {
  return test_errors::ErrorOf([&] { ReadAll(text, dialect); }, "no error");
}

TEST(CsvReaderTest, StrictDialectSplitsQuotedCellsAcrossLinesAndKeepsRecordStartLines) {
  std::vector<int64_t> lines;
  const Records r = ReadAll("a,b\r\n\"x,\"\"y\"\"\",\"two\nlines\"\n,\n", CsvDialect{}, &lines);
  const Records expected = {{"a", "b"}, {"x,\"y\"", "two\nlines"}, {"", ""}};
  EXPECT_EQ(r, expected);
  EXPECT_EQ(lines, (std::vector<int64_t>{1, 2, 4}));  // the quoted cell spans lines 2 and 3
}

// A cell's string is reused between records: a shorter record must not keep stale cells.
TEST(CsvReaderTest, ShorterRecordAfterLongerOneHasOnlyItsOwnCells) {
  EXPECT_EQ(ReadAll("a,b,c\nd\n", CsvDialect{}), (Records{{"a", "b", "c"}, {"d"}}));
}

TEST(CsvReaderTest, StrictDialectErrorsNameTheLine) {
  EXPECT_EQ(ErrorOf("a\n\nb\n", CsvDialect{}), "t.csv:2: empty line");
  EXPECT_EQ(ErrorOf("a\nb\"c\n", CsvDialect{}), "t.csv:2: quote inside an unquoted cell");
  EXPECT_EQ(ErrorOf("a\n\"open\nstill\n", CsvDialect{}), "t.csv:3: unterminated quoted cell");
}

TEST(CsvReaderTest, LooseDialectSkipsCommentsAndBlankLinesAndSplitsBlankRuns) {
  const CsvDialect loose{.delimiter = ' ', .quotes = false, .loose_lines = true};
  std::vector<int64_t> lines;
  const Records r = ReadAll("# comment\n\n  1 \t2   3\r\n   \n\"4\" 5\n", loose, &lines);
  EXPECT_EQ(r, (Records{{"1", "2", "3"}, {"\"4\"", "5"}}));
  EXPECT_EQ(lines, (std::vector<int64_t>{3, 5}));
}

TEST(CsvReaderTest, SplitFieldsKeepsEmptyFieldsUnlessTheDelimiterIsBlank) {
  EXPECT_EQ(SplitFields("a,,b,", ','), (std::vector<std::string_view>{"a", "", "b", ""}));
  EXPECT_EQ(SplitFields(" a  b\t", ' '), (std::vector<std::string_view>{"a", "b"}));
  EXPECT_EQ(TrimBlanks(" \tx y\r "), "x y");
}

}  // namespace
}  // namespace commsim
