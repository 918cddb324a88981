// The program's version ("0.1.0"), from the CMake project version; written into every output.
#ifndef COMMSIM_ANALYSIS_VERSION_H_
#define COMMSIM_ANALYSIS_VERSION_H_

namespace commsim {

const char* CommsimVersion();

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_VERSION_H_
