#include "base/beneath.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace commsim {

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) ::close(fd_);
}

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

std::vector<std::string> PlainComponents(const std::string& rel) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= rel.size()) {
    const size_t end = std::min(rel.find('/', start), rel.size());
    const std::string part = rel.substr(start, end - start);
    if (part.empty() || part == "." || part == ".." || part.find('\0') != std::string::npos) {
      return {};
    }
    parts.push_back(part);
    start = end + 1;
  }
  return parts;
}

void SplitLast(const std::string& rel, std::string* folder, std::string* name) {
  const size_t slash = rel.rfind('/');
  *folder = slash == std::string::npos ? "" : rel.substr(0, slash);
  *name = slash == std::string::npos ? rel : rel.substr(slash + 1);
}

UniqueFd OpenFolderBeneath(int dir_fd, const std::string& rel, bool create,
                           std::vector<std::string>* made) {
  constexpr int kFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
  if (rel.empty()) return UniqueFd(::openat(dir_fd, ".", kFlags));  // its own read position
  const std::vector<std::string> parts = PlainComponents(rel);
  if (parts.empty()) {
    errno = EINVAL;
    return UniqueFd();
  }
  UniqueFd current(::openat(dir_fd, ".", kFlags));
  std::string so_far;
  for (const std::string& part : parts) {
    if (!current.ok()) return UniqueFd();
    so_far += (so_far.empty() ? "" : "/") + part;
    int fd = ::openat(current.get(), part.c_str(), kFlags);
    if (fd < 0 && errno == ENOENT && create) {
      if (::mkdirat(current.get(), part.c_str(), 0755) == 0) {
        if (made) made->push_back(so_far);
      } else if (errno != EEXIST) {
        return UniqueFd();
      }
      fd = ::openat(current.get(), part.c_str(), kFlags);
    }
    struct stat st {};
    if (fd < 0 && (errno == ENOTDIR || errno == ELOOP) &&
        ::fstatat(current.get(), part.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
      errno = S_ISLNK(st.st_mode) ? ELOOP : ENOTDIR;  // say which, whatever the kernel chose
    }
    current = UniqueFd(fd);
  }
  return current;
}

UniqueFd OpenFileBeneath(int dir_fd, const std::string& rel, int flags, mode_t mode) {
  std::string folder, name;
  SplitLast(rel, &folder, &name);
  if (PlainComponents(rel).empty()) {
    errno = EINVAL;
    return UniqueFd();
  }
  const UniqueFd parent = OpenFolderBeneath(dir_fd, folder);
  if (!parent.ok()) return UniqueFd();
  return UniqueFd(::openat(parent.get(), name.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode));
}

}  // namespace commsim
