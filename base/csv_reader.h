// The one CSV tokenizer: splits delimited text into records of cells. Two users with different
// dialects share it: analysis/csv.h reads the tables commsim writes (strict RFC 4180 subset), and
// models/data/text_formats.h reads users' data files (loose: comments, blank lines, blank-run
// delimiters). Tokenizing only: what a cell means (number, label, header name) is the caller's.
//
// Records are lines ending in LF or CR-LF (a final line needs no terminator). With `quotes`, a cell
// may be quoted ("a,b", "say ""hi""", line breaks inside); a quote inside an unquoted cell and an
// unterminated quoted cell are errors. Errors are UserError "<origin>:<line>: <what>".
#ifndef COMMSIM_BASE_CSV_READER_H_
#define COMMSIM_BASE_CSV_READER_H_

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace commsim {

struct CsvDialect {
  char delimiter = ',';  // ' ' means any run of blanks or tabs (never an empty cell)
  bool quotes = true;    // RFC 4180 quoting; false: '"' is an ordinary character
  // true: blanks, tabs and CRs around a line are dropped, and lines then empty or starting with
  // '#' are skipped; false: a line is taken as is and an empty line is an error.
  bool loose_lines = false;
};

// Reads records one at a time from a stream (never the whole input at once).
class CsvReader {
 public:
  // `origin` names the input in errors (usually the file name).
  CsvReader(std::istream& in, std::string_view origin, CsvDialect dialect);
  CsvReader(const CsvReader&) = delete;
  CsvReader& operator=(const CsvReader&) = delete;

  // Reads the next record into `cells` (its strings are reused); false at the end of the input.
  // Throws UserError on malformed input.
  bool Next(std::vector<std::string>& cells);
  // The line (1-based) where the record last returned by Next starts.
  int64_t line() const { return record_line_; }

 private:
  void SplitQuoted(std::string_view text, std::vector<std::string>& cells);

  std::istream& in_;
  std::string origin_;
  CsvDialect dialect_;
  std::string buffer_;
  int64_t line_no_ = 0;
  int64_t record_line_ = 0;
};

// Splits one line without quotes at `delimiter` (' ' = runs of blanks or tabs, no empty fields).
// The views point into `line`.
std::vector<std::string_view> SplitFields(std::string_view line, char delimiter);

// `text` without the blanks, tabs and CRs around it.
std::string_view TrimBlanks(std::string_view text);

}  // namespace commsim

#endif  // COMMSIM_BASE_CSV_READER_H_
