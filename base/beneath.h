// Opening entries inside a folder without ever following a symbolic link.
//
// commsim's output folders may be touched by users (or by anything that writes there). A path
// inside them is therefore never resolved by the kernel from a string: each component is opened
// relative to the folder's descriptor with O_NOFOLLOW, so a component that is a symbolic link (or
// a file where a folder is expected) fails instead of leading outside the folder. Paths given here
// are relative, made of plain names: no empty component, no `.` or `..`, no leading `/`.
#ifndef COMMSIM_BASE_BENEATH_H_
#define COMMSIM_BASE_BENEATH_H_

#include <sys/types.h>

#include <string>
#include <vector>

namespace commsim {

// A file descriptor closed on destruction (-1: none).
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd();
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const { return fd_; }
  bool ok() const { return fd_ >= 0; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_ = -1;
};

// The components of `rel`, or an empty vector when `rel` is not a plain relative path (see above).
std::vector<std::string> PlainComponents(const std::string& rel);

// Opens the folder `rel` below `dir_fd` ("" is `dir_fd` itself, duplicated), one component at a
// time with O_NOFOLLOW. With `create`, missing components are made (mode 0755) and `*made`
// (when given) receives the relative paths of the folders this call created, outermost first.
// Returns the descriptor, or an invalid one with errno set: ELOOP when a component is a symbolic
// link, ENOTDIR when it is not a folder, EINVAL when `rel` is not a plain relative path.
UniqueFd OpenFolderBeneath(int dir_fd, const std::string& rel, bool create = false,
                           std::vector<std::string>* made = nullptr);

// Splits `rel` into its folder part ("" when none) and its last name.
void SplitLast(const std::string& rel, std::string* folder, std::string* name);

// Opens the file `rel` below `dir_fd` with `flags` | O_NOFOLLOW | O_CLOEXEC (no component may be
// a link). Returns an invalid descriptor with errno set on failure.
UniqueFd OpenFileBeneath(int dir_fd, const std::string& rel, int flags, mode_t mode = 0);

}  // namespace commsim

#endif  // COMMSIM_BASE_BENEATH_H_
