// Input files a user names or a command reads from a folder (scenarios, sweeps, codec profiles,
// traces, data files, the CSVs `plot` and `report` read, `compress --input`) are opened and read
// through here, so a missing file, a folder, a device, a FIFO or a huge file is a clear UserError
// instead of a hang, a bad_alloc or the kernel's out-of-memory killer.
//
// Contract: the file is opened once (O_RDONLY | O_NONBLOCK | O_CLOEXEC: opening a FIFO never
// blocks) and every check is made on the opened descriptor (fstat), so nothing can be swapped in
// between the check and the read. Only regular files are accepted (symlinks are followed to
// their target, which must be a regular file). A read never takes more than max_bytes + 1 bytes:
// a file that grows past the cap while it is read is refused, not read without bound.
//
// The caps, per kind of file (each caller states its own; docs/scenarios.md lists them):
//   JSON file (scenario, sweep, codec profile)      64 MiB   (kMaxJsonFileBytes)
//   trace file                                       1 GiB
//   CSV output read back by plot/report/sweep        1 GiB    (kMaxCsvOutputBytes)
//   vector file (`compress --input`)                 1 GiB    (kMaxVectorFileBytes)
//   data file (LIBSVM, CSV, raw data sets, caches)   4 GiB    (kMaxDataFileBytes)
#ifndef COMMSIM_BASE_INPUT_FILE_H_
#define COMMSIM_BASE_INPUT_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace commsim {

inline constexpr uintmax_t kMaxCsvOutputBytes = uintmax_t{1} << 30;
inline constexpr uintmax_t kMaxVectorFileBytes = uintmax_t{1} << 30;

// What kind of file is expected, and how large it may be.
struct InputFileRule {
  std::string_view noun;       // e.g. "JSON file": "(a JSON file is expected)"
  uintmax_t max_bytes = 0;     // the size limit
  std::string_view max_shown;  // the limit as the user reads it, e.g. "64 MiB"
};

// An opened input file: a descriptor owned by this object (closed by its destructor unless
// released) and the size fstat gave when it was opened.
class InputFd {
 public:
  InputFd(int fd, uintmax_t size_bytes) : fd_(fd), size_bytes_(size_bytes) {}
  InputFd(const InputFd&) = delete;
  InputFd& operator=(const InputFd&) = delete;
  ~InputFd();
  int fd() const { return fd_; }
  uintmax_t size_bytes() const { return size_bytes_; }
  // Gives up ownership (e.g. to gzdopen) and returns the descriptor.
  int Release();

 private:
  int fd_;
  uintmax_t size_bytes_;
};

// Opens `path` for reading when it is a regular file of at most rule.max_bytes. Otherwise throws
// UserError: "<path>: cannot open <noun>", "<path>: not a regular file (a <noun> is
// expected)" or "<path>: <size> bytes is more than the <max_shown> a <noun> may have".
InputFd OpenInputFile(const std::string& path, const InputFileRule& rule);

// OpenInputFile's checks only; returns the file's size in bytes.
uintmax_t CheckInputFile(const std::string& path, const InputFileRule& rule);

// The whole content of `path`, after OpenInputFile's checks, reading at most max_bytes + 1 bytes;
// a file that grew past the cap while it was read throws the same "more than" UserError, and a
// read error throws "<path>: cannot read <noun> (<reason>)".
std::string ReadInputFile(const std::string& path, const InputFileRule& rule);

}  // namespace commsim

#endif  // COMMSIM_BASE_INPUT_FILE_H_
