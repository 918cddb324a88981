#include "scenarios/sweep_point_file.h"

#include <fmt/format.h>

#include <cstdio>

#include "base/error.h"
#include "scenarios/checksum.h"

namespace commsim {
namespace {

struct IntegrityLine {
  size_t point = 0;
  std::string fingerprint;
  size_t rows = 0;
  uint32_t crc = 0;
};

std::string Format(const IntegrityLine& l) {
  return fmt::format("# commsim sweep point {} of sweep {}: {} rows, crc32 {:08x}", l.point,
                     l.fingerprint, l.rows, l.crc);
}

// Parses the integrity line strictly: it must be exactly what Format writes.
bool Parse(const std::string& line, IntegrityLine* out) {
  unsigned long long point = 0, rows = 0;
  unsigned int crc = 0;
  char fingerprint[17] = {};
  int consumed = 0;
  if (std::sscanf(line.c_str(),
                  "# commsim sweep point %llu of sweep %16[0-9a-f]: %llu rows, crc32 %8x%n", &point,
                  fingerprint, &rows, &crc, &consumed) != 4 ||
      static_cast<size_t>(consumed) != line.size()) {
    return false;
  }
  *out = {static_cast<size_t>(point), fingerprint, static_cast<size_t>(rows), crc};
  return Format(*out) == line;  // rejects leading zeros, upper case, extra spaces
}

}  // namespace

std::string PointFileText(size_t point, const std::string& fingerprint, const std::string& csv,
                          size_t rows) {
  return Format({point, fingerprint, rows, Crc32(csv)}) + "\n" + csv;
}

std::optional<CsvTable> ParsePointFile(const std::string& text, size_t point,
                                       const std::string& fingerprint, const std::string& origin,
                                       std::string* problem) {
  const size_t newline = text.find('\n');
  IntegrityLine head;
  if (newline == std::string::npos || !Parse(text.substr(0, newline), &head)) {
    *problem = "no valid integrity line (written by another commsim version, or damaged)";
    return std::nullopt;
  }
  const std::string_view csv = std::string_view(text).substr(newline + 1);
  if (head.fingerprint != fingerprint) {
    *problem = fmt::format("belongs to another sweep (fingerprint {}, this sweep's is {})",
                           head.fingerprint, fingerprint);
    return std::nullopt;
  }
  if (head.point != point) {
    *problem = fmt::format("holds point {}, not point {}", head.point, point);
    return std::nullopt;
  }
  if (Crc32(csv) != head.crc) {
    *problem = "cut short or edited (its crc32 does not match its content)";
    return std::nullopt;
  }
  CsvTable table;
  try {
    table = ParseCsv(csv, origin);
  } catch (const UserError& e) {
    *problem = e.what();
    return std::nullopt;
  }
  if (table.size() != head.rows || table.size() == 0) {
    *problem = fmt::format("has {} rows, its integrity line says {}", table.size(), head.rows);
    return std::nullopt;
  }
  return table;
}

}  // namespace commsim
