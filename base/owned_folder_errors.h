// The errors of owned_folder.h, worded once.
#ifndef COMMSIM_BASE_OWNED_FOLDER_ERRORS_H_
#define COMMSIM_BASE_OWNED_FOLDER_ERRORS_H_

#include <string>

#include "base/error.h"

namespace commsim {

// A path below a commsim folder that could not be opened (errno `error`): a link on the way
// (ELOOP), a file where a folder is expected (ENOTDIR), or the system's reason.
UserError BeneathError(const std::string& shown, int error);

// An entry commsim was about to replace but does not own.
UserError NotOwnedError(const std::string& shown, bool is_link, bool was_recorded);

}  // namespace commsim

#endif  // COMMSIM_BASE_OWNED_FOLDER_ERRORS_H_
