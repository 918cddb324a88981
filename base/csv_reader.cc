#include "base/csv_reader.h"

#include <fmt/format.h>

#include "base/error.h"

namespace commsim {

std::string_view TrimBlanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

std::vector<std::string_view> SplitFields(std::string_view line, char delimiter) {
  std::vector<std::string_view> fields;
  if (delimiter == ' ') {
    size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i >= line.size()) break;
      size_t j = i;
      while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
      fields.push_back(line.substr(i, j - i));
      i = j;
    }
    return fields;
  }
  size_t start = 0;
  while (true) {
    const size_t pos = line.find(delimiter, start);
    fields.push_back(line.substr(start, pos == std::string_view::npos ? pos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return fields;
}

CsvReader::CsvReader(std::istream& in, std::string_view origin, CsvDialect dialect)
    : in_(in), origin_(origin), dialect_(dialect) {}

bool CsvReader::Next(std::vector<std::string>& cells) {
  while (std::getline(in_, buffer_)) {
    ++line_no_;
    std::string_view text = buffer_;
    if (dialect_.loose_lines) {
      text = TrimBlanks(text);
      if (text.empty() || text.front() == '#') continue;
    } else if (text.empty() || text == "\r") {
      throw UserError(fmt::format("{}:{}: empty line", origin_, line_no_));
    }
    record_line_ = line_no_;
    if (dialect_.quotes) {
      SplitQuoted(text, cells);  // drops the CR of a CR-LF itself: a quoted cell may hold one
    } else {
      if (text.back() == '\r') text.remove_suffix(1);
      const std::vector<std::string_view> fields = SplitFields(text, dialect_.delimiter);
      cells.resize(fields.size());
      for (size_t i = 0; i < fields.size(); ++i) cells[i].assign(fields[i]);
    }
    return true;
  }
  return false;
}

// RFC 4180 cells; a quoted cell may continue on the next lines, read from the stream here.
void CsvReader::SplitQuoted(std::string_view text, std::vector<std::string>& cells) {
  size_t count = 0;
  auto cell = [&]() -> std::string& {
    if (cells.size() <= count) cells.resize(count + 1);
    return cells[count];
  };
  cell().clear();
  bool in_quotes = false;
  std::string continued;  // the current physical line, once a quoted cell spans lines
  for (size_t i = 0;; ++i) {
    if (i == text.size()) {
      if (!in_quotes) break;
      if (!std::getline(in_, continued)) {
        throw UserError(fmt::format("{}:{}: unterminated quoted cell", origin_, line_no_));
      }
      ++line_no_;
      cell() += '\n';
      text = continued;
      i = static_cast<size_t>(-1);
      continue;
    }
    const char c = text[i];
    if (in_quotes) {
      if (c != '"') {
        cell() += c;
      } else if (i + 1 < text.size() && text[i + 1] == '"') {
        cell() += '"';
        ++i;
      } else {
        in_quotes = false;
      }
    } else if (c == '"') {
      if (!cell().empty()) {
        throw UserError(fmt::format("{}:{}: quote inside an unquoted cell", origin_, line_no_));
      }
      in_quotes = true;
    } else if (c == dialect_.delimiter) {
      ++count;
      cell().clear();
    } else if (!(c == '\r' && i + 1 == text.size())) {  // CR of a CR-LF after a quoted cell
      cell() += c;
    }
  }
  cells.resize(count + 1);
}

}  // namespace commsim
