// The integrity of a sweep's point files (points/<K>.csv): a stored point is trusted only when its
// file proves it is complete, is point K's, and belongs to this very sweep.
//
// Format: one integrity line, then the CSV the sweep gathers into sweep.csv (header + rows):
//   # commsim sweep point <K> of sweep <fingerprint>: <rows> rows, crc32 <8 hex digits>
//   point,<axis columns>,<summary columns>
//   <K>,...
// The crc32 (zlib) covers every byte after the integrity line. A file cut anywhere, with a row
// removed, duplicated or edited, with another point's number or another sweep's fingerprint fails
// the check and the point is run again; sweep.csv itself keeps its plain CSV format.
#ifndef COMMSIM_SCENARIOS_SWEEP_POINT_FILE_H_
#define COMMSIM_SCENARIOS_SWEEP_POINT_FILE_H_

#include <cstddef>
#include <optional>
#include <string>

#include "analysis/csv.h"

namespace commsim {

// The file text for point `point` of the sweep `fingerprint`; `csv` is header + `rows` rows.
std::string PointFileText(size_t point, const std::string& fingerprint, const std::string& csv,
                          size_t rows);

// Checks `text` (the content of file `origin`) against point `point` of sweep `fingerprint` and
// parses its CSV. Returns nullopt with `*problem` set (e.g. "cut short or edited: its crc32 ...")
// when the file cannot be trusted.
std::optional<CsvTable> ParsePointFile(const std::string& text, size_t point,
                                       const std::string& fingerprint, const std::string& origin,
                                       std::string* problem);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_SWEEP_POINT_FILE_H_
