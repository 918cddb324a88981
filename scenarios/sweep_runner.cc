#include "scenarios/sweep_runner.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/csv.h"
#include "analysis/output_folder.h"
#include "analysis/writers.h"
#include "scenarios/sweep_point_file.h"
#include "scenarios/sweep_running.h"
#include "sim/error.h"
#include "sim/output_journal.h"
#include "sim/params_text.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

bool IsPointFileName(const std::string& name) {
  const size_t dot = name.find('.');
  return dot != std::string::npos && dot > 0 && name.substr(dot) == ".csv" &&
         name.substr(0, dot).find_first_not_of("0123456789") == std::string::npos;
}

bool IsRunFolderName(const std::string& name) {
  return !name.empty() && name.find_first_not_of("0123456789") == std::string::npos;
}

// Removes `path` when it is a regular file or a symbolic link (never what a link points to).
void RemoveFile(const fs::path& path) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(path, ec);
  if (fs::is_regular_file(status) || fs::is_symlink(status)) fs::remove(path, ec);
}

// --restart: removes what a sweep folder owns (sweep_runner.h), nothing else.
void RemoveSweepResults(const fs::path& root) {
  for (const char* name : {"sweep.csv", "report.md", "report.html", "axes.csv", "sweep.fingerprint",
                           "sweep.resolved.json"}) {
    RemoveFile(root / name);
  }
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(root / "points", ec)) {
    const std::string name = e.path().filename().string();
    if (IsPointFileName(name) || IsRunningFileName(name)) RemoveFile(e.path());
  }
  for (const fs::directory_entry& e : fs::directory_iterator(root / "runs", ec)) {
    OutputKind kind;
    if (IsRunFolderName(e.path().filename().string()) && !e.is_symlink(ec) &&
        ReadMarker(e.path().string(), &kind) && kind == OutputKind::kRun) {
      fs::remove_all(e.path(), ec);
    }
  }
  for (const fs::directory_entry& e : fs::directory_iterator(root / "plots", ec)) {
    const std::string ext = e.path().extension().string();
    if (ext == ".dat" || ext == ".gp" || ext == ".png" || ext == ".svg") RemoveFile(e.path());
  }
  for (const char* sub : {"points", "runs", "plots"}) fs::remove(root / sub, ec);  // when empty
}

std::string AxesCsv(const Sweep& sweep) {
  std::string out = CsvLine({"name", "pointer", "unit", "scale"});
  for (const SweepAxis& axis : sweep.axes) {
    out += CsvLine({axis.name, axis.pointer, std::string(UnitSymbol(axis.unit)), axis.scale});
  }
  return out;
}

// An exclusive advisory lock on DIR/.lock, released when the process ends however it ends.
class FolderLock {
 public:
  explicit FolderLock(const std::string& dir) {
    const std::string path = (fs::path(dir) / ".lock").string();
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw UserError(fmt::format("{}: cannot create lock file", path));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd_);
      throw UserError(fmt::format("{}: another commsim sweep is writing this folder", dir));
    }
  }
  ~FolderLock() { ::close(fd_); }
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_ = -1;
};

// The points without a trusted stored file. A file that fails its checks is noted on `notes` and
// counted in `*invalid`.
std::vector<size_t> PointsToRun(const Sweep& sweep, const std::string& dir, std::FILE* notes,
                                size_t* invalid) {
  std::vector<size_t> pending;
  for (size_t k = 0; k < sweep.size(); ++k) {
    std::string problem;
    if (ReadPointFile(sweep, dir, k, &problem)) continue;
    pending.push_back(k);
    if (const std::optional<std::string> who = ReadRunningEntry(dir, k); who && notes) {
      fmt::print(notes, "note: {}: an earlier run stopped while {} was running point {} ({}); "
                 "running it again\n", RunningFile(dir, k), *who, k, sweep.DescribePoint(k));
    }
    if (problem == "missing") continue;
    ++*invalid;
    if (notes) {
      fmt::print(notes, "note: {}: {}; running point {} again\n", PointFile(dir, k), problem, k);
    }
  }
  return pending;
}

// Runs point `point` and stores points/<point>.csv (RunSweepPoint without the running entry).
void StorePoint(const Sweep& sweep, size_t point, const std::string& dir, bool keep_runs,
                const PointRunner& runner) {
  const nlohmann::json doc = sweep.PointScenario(point);
  const std::string run_dir =
      keep_runs ? (fs::path(dir) / "runs" / std::to_string(point)).string() : "";
  std::string summary;
  try {
    summary = runner(doc, run_dir);
  } catch (const UserError& e) {
    throw UserError(fmt::format("{}: point {} ({}): {}", sweep.file, point,
                                sweep.DescribePoint(point), e.what()));
  }
  const CsvTable table = ParseCsv(summary, fmt::format("point {} summary", point));
  if (table.size() == 0) {
    throw UserError(
        fmt::format("{}: point {}: the run produced no summary rows", sweep.file, point));
  }
  std::vector<std::string> header = {"point"};
  for (const SweepAxis& axis : sweep.axes) header.push_back(axis.name);
  header.insert(header.end(), table.header().begin(), table.header().end());
  std::string out = CsvLine(header);
  const std::vector<std::string> cells = sweep.PointCells(point);
  for (const std::vector<std::string>& row : table.rows()) {
    std::vector<std::string> line = {std::to_string(point)};
    line.insert(line.end(), cells.begin(), cells.end());
    line.insert(line.end(), row.begin(), row.end());
    out += CsvLine(line);
  }
  WriteFileAtomic(PointFile(dir, point), PointFileText(point, sweep.fingerprint, out, table.size()),
                  dir);
}

}  // namespace

std::string PointFile(const std::string& dir, size_t point) {
  return (fs::path(dir) / "points" / fmt::format("{}.csv", point)).string();
}

void PrepareSweepFolder(const Sweep& sweep, const std::string& dir, bool restart) {
  EnsureOutputFolder(dir, OutputKind::kSweep, dir);
  const fs::path root(dir);
  const fs::path fingerprint_file = root / "sweep.fingerprint";
  std::error_code ec;
  bool has_points = false;
  if (fs::is_directory(root / "points", ec)) {
    for (const fs::directory_entry& e : fs::directory_iterator(root / "points", ec)) {
      has_points = has_points || IsPointFileName(e.path().filename().string());
    }
  }
  const bool has_fingerprint = fs::exists(fingerprint_file, ec);
  const std::string old = has_fingerprint ? Trim(ReadText(fingerprint_file)) : "";
  if (!restart && (has_fingerprint ? old != sweep.fingerprint : has_points)) {
    throw UserError(fmt::format(
        "{}: holds results of a different sweep (fingerprint {}; {} now has {}); re-run with "
        "--restart to discard them, or choose another --out folder",
        dir, has_fingerprint ? old : "unknown", sweep.file, sweep.fingerprint));
  }
  CleanJournal(dir);
  if (restart) RemoveSweepResults(root);
  fs::create_directories(root / "points", ec);
  if (ec) throw UserError(fmt::format("{}: cannot create folder: {}", dir, ec.message()));
  CheckFolderWritable((root / "points").string(), dir);
  if (!has_fingerprint || restart) {
    WriteFileAtomic(fingerprint_file.string(), sweep.fingerprint + "\n", dir);
  }
  WriteFileAtomic((root / "sweep.resolved.json").string(), sweep.canonical.dump(2) + "\n", dir);
  WriteFileAtomic((root / "axes.csv").string(), AxesCsv(sweep), dir);
}

void RunSweepPoint(const Sweep& sweep, size_t point, const std::string& dir, bool keep_runs,
                   const PointRunner& runner, const std::string& who) {
  if (point >= sweep.size()) {
    throw UserError(fmt::format("{}: point {} does not exist (the sweep has points 0..{})",
                                sweep.file, point, sweep.size() - 1));
  }
  WriteRunningEntry(dir, point, who.empty() ? ThisProcess() : who);
  try {
    StorePoint(sweep, point, dir, keep_runs, runner);
  } catch (...) {
    RemoveRunningEntry(dir, point);
    throw;
  }
  RemoveRunningEntry(dir, point);
}


std::optional<CsvTable> ReadPointFile(const Sweep& sweep, const std::string& dir, size_t point,
                                      std::string* problem) {
  const std::string file = PointFile(dir, point);
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    *problem = fs::exists(fs::symlink_status(file, ec)) ? "not a regular file" : "missing";
    return std::nullopt;
  }
  std::optional<CsvTable> table =
      ParsePointFile(ReadText(file), point, sweep.fingerprint, file, problem);
  if (!table) return std::nullopt;
  const std::vector<std::string> cells = sweep.PointCells(point);
  for (size_t r = 0; r < table->size(); ++r) {
    bool match = table->Cell(r, "point") == std::to_string(point);
    for (size_t a = 0; a < sweep.axes.size(); ++a) {
      match = match && table->Cell(r, sweep.axes[a].name) == cells[a];
    }
    if (!match) {
      *problem = fmt::format("its axis values are not those of point {} ({})", point,
                             sweep.DescribePoint(point));
      return std::nullopt;
    }
  }
  return table;
}

std::string AssembleSweepCsv(const Sweep& sweep, const std::string& dir) {
  std::vector<std::string> header;
  std::vector<CsvTable> tables;
  for (size_t k = 0; k < sweep.size(); ++k) {
    std::string problem;
    std::optional<CsvTable> table = ReadPointFile(sweep, dir, k, &problem);
    if (!table) {
      const std::optional<std::string> who = ReadRunningEntry(dir, k);
      const std::string started =
          who ? fmt::format("; {} started it and did not finish", *who) : "";
      throw UserError(fmt::format("{}: {} (point {}{}); run the sweep again to (re)run it",
                                  PointFile(dir, k), problem, k, started));
    }
    for (const std::string& column : table->header()) {
      if (std::find(header.begin(), header.end(), column) == header.end()) header.push_back(column);
    }
    tables.push_back(std::move(*table));
  }
  std::string out = CsvLine(header);
  for (const CsvTable& table : tables) {
    for (size_t r = 0; r < table.size(); ++r) {
      std::vector<std::string> line;
      for (const std::string& column : header) line.push_back(table.Cell(r, column));
      out += CsvLine(line);
    }
  }
  return out;
}

SweepStats RunSweep(const Sweep& sweep, const std::string& dir, const SweepOptions& options,
                    const PointRunner& runner) {
  EnsureOutputFolder(dir, OutputKind::kSweep, dir);  // before the lock file is created in it
  FolderLock lock(dir);
  PrepareSweepFolder(sweep, dir, options.restart);
  if (options.keep_runs) {
    std::error_code ec;
    fs::create_directories(fs::path(dir) / "runs", ec);
    CheckFolderWritable((fs::path(dir) / "runs").string(), dir);
  }
  SweepStats stats;
  stats.points = sweep.size();
  const std::vector<size_t> pending = PointsToRun(sweep, dir, options.notes, &stats.rerun_invalid);
  stats.skipped = stats.points - pending.size();
  if (options.progress) options.progress->Start(stats.points, stats.skipped);

  const std::function<void(size_t)> run_point = [&](size_t point) {
    RunSweepPoint(sweep, point, dir, options.keep_runs, runner, options.who);
    if (options.progress) options.progress->Advance();
  };
  try {
    if (options.schedule) {
      options.schedule(pending, run_point);
    } else {
      RunPointsOnThreads(pending, options.jobs, run_point);
    }
  } catch (...) {
    if (options.progress) options.progress->Finish();
    throw;
  }
  if (options.progress) options.progress->Finish();
  stats.ran = pending.size();
  WriteFileAtomic((fs::path(dir) / "sweep.csv").string(), AssembleSweepCsv(sweep, dir), dir);
  return stats;
}

}  // namespace commsim
