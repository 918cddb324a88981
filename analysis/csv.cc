#include "analysis/csv.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "base/csv_reader.h"
#include "base/error.h"
#include "base/input_file.h"

namespace commsim {

CsvTable::CsvTable(std::vector<std::string> header, std::vector<std::vector<std::string>> rows)
    : header_(std::move(header)), rows_(std::move(rows)) {}

int CsvTable::Column(std::string_view name) const {
  for (size_t i = 0; i < header_.size(); ++i) {
    if (header_[i] == name) return static_cast<int>(i);
  }
  return -1;
}

const std::string& CsvTable::Cell(size_t row, std::string_view name) const {
  static const std::string kEmpty;
  const int c = Column(name);
  if (c < 0 || row >= rows_.size()) return kEmpty;
  return rows_[row][static_cast<size_t>(c)];
}

std::optional<double> CsvTable::Number(size_t row, std::string_view name) const {
  const std::string& cell = Cell(row, name);
  if (cell.empty()) return std::nullopt;
  char* end = nullptr;
  const double x = std::strtod(cell.c_str(), &end);
  if (end != cell.c_str() + cell.size()) return std::nullopt;
  return x;
}

bool CsvTable::HasNumbers(std::string_view name) const {
  for (size_t r = 0; r < rows_.size(); ++r) {
    const std::optional<double> x = Number(r, name);
    if (x && std::isfinite(*x)) return true;
  }
  return false;
}

namespace {

// A whole number as strtod reads it (no leading blank): "-1.5", "1e-3", "-inf", "nan".
bool IsNumber(std::string_view text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  const std::string cell(text);
  char* end = nullptr;
  std::strtod(cell.c_str(), &end);
  return end == cell.c_str() + cell.size();
}

// A cell a spreadsheet would run as a formula (OWASP's CSV injection rule): text, not a number,
// starting with = + - @ tab or CR.
bool LooksLikeFormula(std::string_view text) {
  return !text.empty() && std::string_view("=+-@\t\r").find(text[0]) != std::string_view::npos &&
         !IsNumber(text);
}

// True when CsvCell writes `text` with one more leading quote: it is a formula look-alike after
// its leading quotes (if any), so that ParseCsv can remove exactly the quote CsvCell added.
bool GetsQuotePrefix(std::string_view text) {
  const size_t first = text.find_first_not_of('\'');
  return first != std::string_view::npos && LooksLikeFormula(text.substr(first));
}

// The cell as written before CsvCell's formula escape.
void Unescape(std::string& cell) {
  if (!cell.empty() && cell[0] == '\'' && GetsQuotePrefix(std::string_view(cell).substr(1))) {
    cell.erase(0, 1);
  }
}

}  // namespace

CsvTable ParseCsv(std::string_view text, const std::string& origin) {
  std::istringstream in{std::string(text)};
  CsvReader reader(in, origin, CsvDialect{});
  std::vector<std::string> header;
  if (!reader.Next(header)) {
    throw UserError(fmt::format("{}: empty file (expected a header line)", origin));
  }
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> cells;
  while (reader.Next(cells)) {
    if (cells.size() != header.size()) {
      throw UserError(fmt::format("{}:{}: expected {} cells as in the header, got {}", origin,
                                  reader.line(), header.size(), cells.size()));
    }
    for (std::string& cell : cells) Unescape(cell);
    rows.push_back(cells);
  }
  for (std::string& cell : header) Unescape(cell);
  return CsvTable(std::move(header), std::move(rows));
}

CsvTable ReadCsvFile(const std::string& path) {
  static_assert(kMaxCsvOutputBytes == uintmax_t{1} << 30, "the limit shown below");
  return ParseCsv(
      ReadInputFile(path,
                    {.noun = "CSV file", .max_bytes = kMaxCsvOutputBytes, .max_shown = "1 GiB"}),
      path);
}

std::string CsvCell(std::string_view text) {
  const bool escape = GetsQuotePrefix(text);
  if (!escape && text.find_first_of(",\"\n\r") == std::string_view::npos) {
    return std::string(text);
  }
  std::string out = escape ? "\"'" : "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string CsvLine(const std::vector<std::string>& cells) {
  std::string out;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out += ',';
    out += CsvCell(cells[i]);
  }
  out += '\n';
  return out;
}

std::string FormatNumber(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return fmt::format("{}", x);
}

}  // namespace commsim
