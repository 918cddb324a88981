#include "scenarios/sweep_runner.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>

#include "analysis/csv.h"
#include "analysis/output_folder.h"
#include "analysis/writers.h"
#include "base/error.h"
#include "base/output_journal.h"
#include "base/owned_folder.h"
#include "base/params_text.h"
#include "scenarios/sweep_point_file.h"
#include "scenarios/sweep_running.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

constexpr size_t kFingerprintMaxBytes = 4096;
constexpr size_t kPointFileMaxBytes = size_t{256} << 20;

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string PointEntryName(size_t point) { return fmt::format("points/{}.csv", point); }

// A sweep folder without a record of what commsim wrote in it (commsim made the folder, but the
// files in it were written by something else, or by a commsim that kept no records) is refused
// whole: nothing in it can be told apart from the user's files.
void CheckRecorded(const OwnedFolder& folder) {
  if (folder.HasRecord()) return;
  size_t more = 0;
  const std::vector<std::string> foreign = folder.ForeignEntries("", 10, &more);
  if (foreign.empty()) return;
  throw UserError(fmt::format(
      "{}: holds {} but no record of what commsim wrote there (.commsim-owned), so commsim "
      "cannot tell its files from anyone else's; choose another --out folder (or move the "
      "folder's content away yourself)",
      folder.root(), ListForMessage(foreign, more)));
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
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      throw UserError(fmt::format("{}: cannot create lock file: {}", path,
                                  errno == ELOOP ? "it is a symbolic link" : std::strerror(errno)));
    }
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
  const OwnedFolder folder(dir);
  std::vector<size_t> pending;
  std::vector<std::string> blocked;  // invalid point files commsim may not replace
  for (size_t k = 0; k < sweep.size(); ++k) {
    std::string problem;
    if (ReadPointFile(sweep, dir, k, &problem)) continue;
    pending.push_back(k);
    if (const std::optional<std::string> who = ReadRunningEntry(dir, k); who && notes) {
      fmt::print(notes,
                 "note: {}: an earlier run stopped while {} was running point {} ({}); "
                 "running it again\n",
                 RunningFile(dir, k), *who, k, sweep.DescribePoint(k));
    }
    if (problem == "missing") continue;
    ++*invalid;
    try {
      folder.CheckReplaceable(PointEntryName(k));
    } catch (const UserError&) {
      blocked.push_back(fmt::format("{} ({})", PointEntryName(k), problem));
      continue;
    }
    if (notes) {
      fmt::print(notes, "note: {}: {}; running point {} again\n", PointFile(dir, k), problem, k);
    }
  }
  if (!blocked.empty()) {
    throw UserError(fmt::format(
        "{}: point files that cannot be used, and that commsim will not replace since it did not "
        "write them as they are now: {}; move them away and run again",
        dir, ListForMessage(blocked, 0)));
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
  OwnedFolder folder(dir);
  if (keep_runs) folder.Record(fmt::format("runs/{}", point));
  folder.WriteFile(PointEntryName(point),
                   PointFileText(point, sweep.fingerprint, out, table.size()));
}

}  // namespace

std::string PointFile(const std::string& dir, size_t point) {
  return (fs::path(dir) / "points" / fmt::format("{}.csv", point)).string();
}

void PrepareSweepFolder(const Sweep& sweep, const std::string& dir, bool restart) {
  EnsureOutputFolder(dir, OutputKind::kSweep, dir);
  OwnedFolder folder(dir);
  CheckRecorded(folder);
  for (const char* sub : {"points", "plots", "runs"}) folder.CheckFolderIfPresent(sub);
  const std::optional<std::string> stored =
      folder.ReadFile("sweep.fingerprint", kFingerprintMaxBytes);
  bool has_points = false;
  for (const std::string& rel : folder.OwnedEntries("points")) {
    has_points = has_points || (rel.size() > 4 && rel.compare(rel.size() - 4, 4, ".csv") == 0);
  }
  const std::string old = stored ? Trim(*stored) : "";
  if (!restart && (stored ? old != sweep.fingerprint : has_points)) {
    throw UserError(fmt::format(
        "{}: holds results of a different sweep (fingerprint {}; {} now has {}); re-run with "
        "--restart to discard them, or choose another --out folder",
        dir, stored ? old : "unknown", sweep.file, sweep.fingerprint));
  }
  CleanJournal(dir);
  if (restart) folder.RemoveOwned("");
  folder.MakeFolder("points");
  CheckFolderWritable((fs::path(dir) / "points").string(), dir);
  if (!stored || restart) folder.WriteFile("sweep.fingerprint", sweep.fingerprint + "\n");
  // The canonical sweep (what the fingerprint covers) and its name, which reports are titled with.
  nlohmann::json shown = sweep.canonical;
  shown["name"] = sweep.name;
  folder.WriteFile("sweep.resolved.json", shown.dump(2) + "\n");
  folder.WriteFile("axes.csv", AxesCsv(sweep));
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
  std::optional<std::string> text;
  try {
    text = OwnedFolder(dir).ReadFile(PointEntryName(point), kPointFileMaxBytes);
  } catch (const UserError& e) {
    const std::string what = e.what();
    *problem = what.rfind(file + ": ", 0) == 0 ? what.substr(file.size() + 2) : what;
    return std::nullopt;
  }
  if (!text) {
    *problem = "missing";
    return std::nullopt;
  }
  std::optional<CsvTable> table = ParsePointFile(*text, point, sweep.fingerprint, file, problem);
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
    OwnedFolder(dir).MakeFolder("runs");
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
  OwnedFolder(dir).WriteFile("sweep.csv", AssembleSweepCsv(sweep, dir));
  return stats;
}

}  // namespace commsim
