#include "base/input_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/error.h"

namespace commsim {
namespace {

[[noreturn]] void ThrowTooLarge(const std::string& path, const InputFileRule& rule,
                                std::string_view size) {
  throw UserError(fmt::format("{}: {} bytes is more than the {} a {} may have", path, size,
                              rule.max_shown, rule.noun));
}

}  // namespace

InputFd::~InputFd() {
  if (fd_ >= 0) ::close(fd_);
}

int InputFd::Release() {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

InputFd OpenInputFile(const std::string& path, const InputFileRule& rule) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    throw UserError(fmt::format("{}: cannot open {}", path, rule.noun));
  }
  InputFd file(fd, 0);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    throw UserError(fmt::format("{}: cannot open {} ({})", path, rule.noun, std::strerror(errno)));
  }
  if (!S_ISREG(st.st_mode)) {
    throw UserError(fmt::format("{}: not a regular file (a {} is expected)", path, rule.noun));
  }
  const auto size = static_cast<uintmax_t>(st.st_size);
  if (size > rule.max_bytes) ThrowTooLarge(path, rule, fmt::format("{}", size));
  return InputFd(file.Release(), size);
}

uintmax_t CheckInputFile(const std::string& path, const InputFileRule& rule) {
  return OpenInputFile(path, rule).size_bytes();
}

std::string ReadInputFile(const std::string& path, const InputFileRule& rule) {
  const InputFd file = OpenInputFile(path, rule);
  std::string text;
  text.reserve(static_cast<size_t>(file.size_bytes()));
  char buffer[1 << 16];
  while (true) {
    const uintmax_t room = rule.max_bytes + 1 - text.size();
    const ssize_t got =
        ::read(file.fd(), buffer, static_cast<size_t>(std::min<uintmax_t>(sizeof(buffer), room)));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      throw UserError(
          fmt::format("{}: cannot read {} ({})", path, rule.noun, std::strerror(errno)));
    }
    if (got == 0) break;
    text.append(buffer, static_cast<size_t>(got));
    if (text.size() > rule.max_bytes)
      ThrowTooLarge(path, rule, fmt::format("over {}", rule.max_bytes));
  }
  return text;
}

}  // namespace commsim
