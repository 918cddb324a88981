#include "base/owned_folder_errors.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

namespace commsim {

UserError BeneathError(const std::string& shown, int error) {
  if (error == ELOOP) {
    return UserError(fmt::format(
        "{}: is a symbolic link, or a folder on the way to it is; commsim never follows links "
        "inside its folders (replace the link by a real folder, or remove it)",
        shown));
  }
  if (error == ENOTDIR) {
    return UserError(fmt::format("{}: a component of this path is not a folder", shown));
  }
  return UserError(fmt::format("{}: {}", shown, std::strerror(error)));
}

UserError NotOwnedError(const std::string& shown, bool is_link, bool was_recorded) {
  const char* what = is_link        ? "is a symbolic link commsim did not make"
                     : was_recorded ? "was changed since commsim wrote it"
                                    : "was not written by commsim";
  return UserError(fmt::format(
      "{}: {}; commsim never replaces what it does not own (move it away, or write to another "
      "folder)",
      shown, what));
}

}  // namespace commsim
