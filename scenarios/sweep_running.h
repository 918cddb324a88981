// Running entries of a sweep folder: points/<K>.running says that point K was started and by whom
// ("rank 1 of 3 (host node12, pid 4242)", or "host node12, pid 4242"). It is written before the
// point runs and removed once points/<K>.csv is stored or the point failed, so an entry that
// outlives its process names a point whose run was killed (kill -9, out of memory, a rank that
// died, a cancelled job). The next sweep over the folder reports it and runs the point again;
// gathering a sweep with such a point missing names who was running it.
#ifndef COMMSIM_SCENARIOS_SWEEP_RUNNING_H_
#define COMMSIM_SCENARIOS_SWEEP_RUNNING_H_

#include <cstddef>
#include <optional>
#include <string>

namespace commsim {

// "host <host>, pid <pid>" of this process.
std::string ThisProcess();

std::string RunningFile(const std::string& dir, size_t point);
// The same, relative to the sweep folder: "points/<point>.running".
std::string RunningEntryName(size_t point);

// Writes points/<point>.running (atomically) holding `who`. Throws UserError when it cannot.
void WriteRunningEntry(const std::string& dir, size_t point, const std::string& who);

// Removes points/<point>.running when commsim wrote it and it is unchanged; never throws.
void RemoveRunningEntry(const std::string& dir, size_t point);

// Who was running point `point` when its entry exists (first line, at most 200 characters).
std::optional<std::string> ReadRunningEntry(const std::string& dir, size_t point);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_SWEEP_RUNNING_H_
