// Where the program finds its shipped files (scenarios/, data/), whatever the working directory:
//   1. $COMMSIM_HOME, when set (it must hold scenarios/quickstart.json);
//   2. else the nearest folder above the binary that holds scenarios/quickstart.json (for the
//      usual build/bin/commsim, the source tree it was built from).
// Data sets live in $COMMSIM_DATA_DIR when set, else in <home>/data.
#ifndef COMMSIM_APP_HOME_H_
#define COMMSIM_APP_HOME_H_

#include <optional>
#include <string>

namespace commsim::app {

// The home folder; nullopt when none is found. Throws UserError when $COMMSIM_HOME is set but
// does not hold scenarios/quickstart.json.
std::optional<std::string> CommsimHome();

// The home folder or a UserError explaining how to set it; `what` names what was needed
// ("the quickstart scenario").
std::string RequireHome(const std::string& what);

// Points the data loaders at <home>/data (through COMMSIM_DATA_DIR) unless COMMSIM_DATA_DIR is
// set; a no-op when no home is found. Called once at start-up, before any thread starts.
// Throws UserError for a bad $COMMSIM_HOME.
void UseHomeDataDir();

}  // namespace commsim::app

#endif  // COMMSIM_APP_HOME_H_
