// A small strict CSV reader and cell formatter for the files commsim writes (metrics.csv,
// summary.csv, sweep.csv, axes.csv). Plots and reports read these, never JSON.
//
// Format: RFC 4180 subset, tokenized by base/csv_reader.h. The first line is the header; every row
// must have as many cells as the header. Cells may be quoted ("a,b", "say ""hi"""); a trailing
// newline is optional; CR-LF is accepted; an empty line is an error. Empty cells mean "no value".
// Numbers are read with strtod, so "nan" and "inf" parse. Cells escaped against formula injection
// (CsvCell) are read back without the quote CsvCell added.
#ifndef COMMSIM_ANALYSIS_CSV_H_
#define COMMSIM_ANALYSIS_CSV_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace commsim {

class CsvTable {
 public:
  CsvTable() = default;
  CsvTable(std::vector<std::string> header, std::vector<std::vector<std::string>> rows);

  const std::vector<std::string>& header() const { return header_; }
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }
  size_t size() const { return rows_.size(); }

  // Index of the named column, or -1 when absent.
  int Column(std::string_view name) const;
  bool Has(std::string_view name) const { return Column(name) >= 0; }
  // The cell of `row` in the named column; "" when the column is absent.
  const std::string& Cell(size_t row, std::string_view name) const;
  // The cell as a number; nullopt when the column is absent, the cell empty or not a number.
  std::optional<double> Number(size_t row, std::string_view name) const;
  // True when at least one row has a finite number in the named column.
  bool HasNumbers(std::string_view name) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// Parses CSV text; `origin` names it in errors ("file:line: ..."). Throws UserError.
CsvTable ParseCsv(std::string_view text, const std::string& origin);
// Reads and parses a file. Throws UserError when it cannot be read or parsed.
CsvTable ReadCsvFile(const std::string& path);

// Quotes a cell when it holds a comma, quote or line break. A text cell a spreadsheet would run
// as a formula (starting with = + - @ tab or CR, and not a number: -1.5, 1e-3 and -inf stay as
// they are) is escaped as OWASP advises: a single quote before it, and quoted; so is a cell that
// is such a text after leading single quotes, so that ParseCsv, which removes that one quote,
// reads back every cell as it was given.
std::string CsvCell(std::string_view text);
// One CSV line (with trailing '\n') from cells, quoting as needed.
std::string CsvLine(const std::vector<std::string>& cells);

// Shortest text that round-trips a double ("nan", "inf", "-inf" for non-finite values).
std::string FormatNumber(double x);

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_CSV_H_
