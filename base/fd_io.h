// Whole reads and writes on a file descriptor, retried on EINTR and short transfers.
#ifndef COMMSIM_BASE_FD_IO_H_
#define COMMSIM_BASE_FD_IO_H_

#include <string>

namespace commsim {

// Writes all of `text` to `fd`; false (errno set) when the system refuses part of it.
bool WriteAll(int fd, const std::string& text);
// Everything `fd` gives from its position to its end (what was read before an error, if any).
std::string ReadAll(int fd);

}  // namespace commsim

#endif  // COMMSIM_BASE_FD_IO_H_
