#include "algorithms/codec_time.h"

#include <fmt/format.h>

#include "base/check.h"
#include "base/error.h"

namespace commsim {

double CodecCost::Seconds(const Message& m) const {
  return c0_s + elem_s * static_cast<double>(m.elements) +
         nnz_s * static_cast<double>(m.coded_values()) +
         bit_s * static_cast<double>(m.payload_bits);
}

std::string CodecSetup::Describe() const {
  switch (mode) {
    case CodecMode::kNone:
      return "none";
    case CodecMode::kModel:
      return fmt::format("model {}", profile ? profile->device : std::string("?"));
    case CodecMode::kMeasured:
      return "measured (wall time: not reproducible)";
  }
  return "";
}

CodecClock::CodecClock(const CodecSetup& setup) : setup_(setup) {
  COMMSIM_CHECK(setup_.mode != CodecMode::kModel || setup_.profile != nullptr,
                "codec model mode needs a profile");
}

SimTime CodecClock::Encode(const Message& part, double wall_s, int64_t whole_elements) const {
  return Time(part, wall_s, whole_elements, true);
}

SimTime CodecClock::Decode(const Message& part, double wall_s, int64_t whole_elements) const {
  return Time(part, wall_s, whole_elements, false);
}

SimTime CodecClock::WholeMessage(const Message& m, bool encode, SimTime per_part) const {
  SimTime total;
  for (size_t i = 0; i < PartCount(m); ++i) {
    total += Time(m.parts.empty() ? m : m.parts[i], 0, m.elements, encode) + per_part;
  }
  return total;
}

SimTime CodecClock::Time(const Message& part, double wall_s, int64_t whole_elements,
                         bool encode) const {
  switch (setup_.mode) {
    case CodecMode::kNone:
      return SimTime();
    case CodecMode::kMeasured: {
      const double share = whole_elements > 0 ? static_cast<double>(part.elements) /
                                                    static_cast<double>(whole_elements)
                                              : 1.0;
      return SimTime::FromSeconds(wall_s * share);
    }
    case CodecMode::kModel:
      break;
  }
  const auto it = setup_.profile->compressors.find(part.codec);
  if (it == setup_.profile->compressors.end()) {
    throw UserError(fmt::format("codec profile {} ({}) has no coefficients for compressor \"{}\"",
                                setup_.profile->device, setup_.profile->origin, part.codec));
  }
  const CodecCost& cost = encode ? it->second.encode : it->second.decode;
  return SimTime::FromSeconds(cost.Seconds(part));
}

CodecLanes::CodecLanes(int lanes) : free_(static_cast<size_t>(lanes)) {
  COMMSIM_CHECK(lanes >= 1, "codec lanes: {} lanes", lanes);
}

void CodecLanes::Reset(SimTime now) {
  for (Stamp& s : free_) s = Stamp{now, SimTime()};
}

Stamp CodecLanes::Run(const Stamp& ready, SimTime duration) {
  size_t best = 0;
  for (size_t i = 1; i < free_.size(); ++i) {
    if (free_[i].at < free_[best].at) best = i;
  }
  const Stamp start = free_[best].at > ready.at ? free_[best] : ready;
  free_[best] = Stamp{start.at + duration, start.codec + duration};
  return free_[best];
}

}  // namespace commsim
