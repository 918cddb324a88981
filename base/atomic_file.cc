#include "base/atomic_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/random.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <system_error>

#include "base/error.h"
#include "base/output_journal.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

// The test-only fault (see the header). Guarded by FaultMutex(); read once per writer.
std::mutex& FaultMutex() {
  static std::mutex mu;
  return mu;
}
WriteFault& ArmedFault() {
  static WriteFault fault;
  return fault;
}

WriteFault FaultFor(const std::string& path) {
  std::lock_guard<std::mutex> lock(FaultMutex());
  const WriteFault& f = ArmedFault();
  if (f.stage == WriteFaultStage::kNone || path.find(f.path_contains) == std::string::npos) {
    return {};
  }
  return f;
}

// Fires the fault `f` when it is armed at `stage`.
void MaybeFault(const WriteFault& f, WriteFaultStage stage) {
  if (f.stage != stage) return;
  if (f.action == WriteFaultAction::kCrash) ::kill(::getpid(), SIGKILL);
  throw std::system_error(EIO, std::generic_category(), "injected fault");
}

std::string ErrorText(int error) { return std::generic_category().message(error); }

}  // namespace

std::string RandomToken() {
  uint64_t bits = 0;
  if (::getrandom(&bits, sizeof bits, 0) != static_cast<ssize_t>(sizeof bits)) {
    // No entropy source: fall back on time and address, still unique enough with O_EXCL retries.
    bits = static_cast<uint64_t>(::getpid()) * 0x9e3779b97f4a7c15ULL ^
           static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&bits)) ^
           static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  }
  return fmt::format("{:016x}", bits);
}

void SyncDirectory(const std::string& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // e.g. a folder we may write but not read: the rename stands unsynced
  const int rc = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  // Some file systems cannot sync a folder (EINVAL); the rename is then as durable as they allow.
  if (rc != 0 && error != EINVAL && error != EROFS) {
    throw UserError(fmt::format("{}: cannot sync folder: {}", dir, ErrorText(error)));
  }
}

AtomicFileWriter::AtomicFileWriter(std::string path, std::string journal_dir)
    : dir_fd_(AT_FDCWD), name_(path), path_(std::move(path)) {
  Open(journal_dir);
}

AtomicFileWriter::AtomicFileWriter(int dir_fd, std::string name, std::string shown,
                                   std::string journal_dir)
    : dir_fd_(::fcntl(dir_fd, F_DUPFD_CLOEXEC, 0)),
      name_(std::move(name)),
      path_(std::move(shown)) {
  if (dir_fd_ < 0) {
    throw UserError(fmt::format("{}: cannot write: {}", path_, ErrorText(errno)));
  }
  try {
    Open(journal_dir);
  } catch (...) {
    ::close(dir_fd_);
    throw;
  }
}

void AtomicFileWriter::Open(const std::string& journal_dir) {
  for (int attempt = 0; attempt < 8 && fd_ < 0; ++attempt) {
    const std::string token = RandomToken();
    temp_name_ = fmt::format("{}.tmp.{}", name_, token);
    temp_ = fmt::format("{}.tmp.{}", path_, token);
    if (!journal_dir.empty()) JournalTemporary(journal_dir, temp_);
    fd_ = ::openat(dir_fd_, temp_name_.c_str(),
                   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd_ < 0 && errno != EEXIST) break;
  }
  if (fd_ < 0) {
    throw UserError(fmt::format("{}: cannot write (creating {}): {}", path_,
                                fs::path(temp_).filename().string(), ErrorText(errno)));
  }
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlinkat(dir_fd_, temp_name_.c_str(), 0);
  if (dir_fd_ != AT_FDCWD) ::close(dir_fd_);
}

void AtomicFileWriter::Fail(const std::string& what, int error) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  ::unlinkat(dir_fd_, temp_name_.c_str(), 0);
  committed_ = true;  // nothing left to remove
  throw UserError(fmt::format("{}: {}: {}", path_, what, ErrorText(error)));
}

void AtomicFileWriter::Write(const void* data, size_t size) {
  if (fd_ < 0) throw UserError(fmt::format("{}: write after the file was closed", path_));
  const WriteFault fault = FaultFor(path_);
  const char* bytes = static_cast<const char*>(data);
  if (fault.stage == WriteFaultStage::kAfterBytes && written_bytes_ + size > fault.after_bytes) {
    const size_t allowed =
        fault.after_bytes > written_bytes_ ? fault.after_bytes - written_bytes_ : 0;
    Write(bytes, allowed);  // the part before the fault really reaches the temporary
    try {
      MaybeFault(fault, WriteFaultStage::kAfterBytes);
    } catch (const std::system_error& e) {
      Fail("write failed", e.code().value());
    }
  }
  while (size > 0) {
    const ssize_t n = ::write(fd_, bytes, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) Fail("write failed", n < 0 ? errno : ENOSPC);
    bytes += n;
    size -= static_cast<size_t>(n);
    written_bytes_ += static_cast<uint64_t>(n);
  }
}

void AtomicFileWriter::Commit(const std::function<void()>& before_rename) {
  if (fd_ < 0 || committed_) throw UserError(fmt::format("{}: committed twice", path_));
  const WriteFault fault = FaultFor(path_);
  if (::fsync(fd_) != 0) Fail("cannot flush to disk", errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) Fail("cannot close", errno);
  if (before_rename) {
    try {
      before_rename();
    } catch (...) {
      ::unlinkat(dir_fd_, temp_name_.c_str(), 0);
      committed_ = true;  // nothing left to remove
      throw;
    }
  }
  try {
    MaybeFault(fault, WriteFaultStage::kBeforeRename);
  } catch (const std::system_error& e) {
    Fail("cannot rename into place", e.code().value());
  }
  if (::renameat(dir_fd_, temp_name_.c_str(), dir_fd_, name_.c_str()) != 0) {
    Fail("cannot rename into place", errno);
  }
  committed_ = true;
  try {
    MaybeFault(fault, WriteFaultStage::kAfterRename);
  } catch (const std::system_error& e) {
    throw UserError(
        fmt::format("{}: cannot sync its folder: {}", path_, ErrorText(e.code().value())));
  }
  if (dir_fd_ == AT_FDCWD) {
    SyncDirectory(fs::path(path_).parent_path().string());
  } else if (::fsync(dir_fd_) != 0 && errno != EINVAL && errno != EROFS) {
    throw UserError(fmt::format("{}: cannot sync its folder: {}", path_, ErrorText(errno)));
  }
}

void WriteFileAtomic(const std::string& path, std::string_view content,
                     const std::string& journal_dir) {
  AtomicFileWriter writer(path, journal_dir);
  writer.Write(content);
  writer.Commit();
}

void SetWriteFaultForTesting(const WriteFault& fault) {
  std::lock_guard<std::mutex> lock(FaultMutex());
  ArmedFault() = fault;
}

}  // namespace commsim
