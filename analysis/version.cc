#include "analysis/version.h"

namespace commsim {

const char* CommsimVersion() { return COMMSIM_VERSION; }

}  // namespace commsim
