// Codec time: how long encoding and decoding a message takes on the simulated timeline, and the
// timing pieces every driver shares (a party's codec lanes, critical-path stamps).
//
// Modes (the scenario's `codec` key):
//   none      encoding and decoding take no simulated time (the timeline of old scenarios);
//   model     deterministic: per compressor and direction,
//               seconds = c0 + elem x elements + nnz x nonzeros + bit x payload_bits
//             with the coefficients of a device profile (CodecProfile; nonzeros = the values the
//             format carries explicitly, compression/message.h). A message sent in parts (buckets)
//             costs the sum over its parts, each with its own c0;
//   measured  the real wall time the party's code took (the rule's call that encodes or decodes,
//             with its arithmetic), split over a message's parts in proportion to their elements.
//             Not reproducible: two runs give different times.
// Lanes: every party does its codec work on its own lanes, one job at a time per lane, in the
// order the jobs become known; a worker or node has one lane, the server `server_threads`.
// Critical path: a Stamp is a time plus the codec time on the chain of events that led to it
// (a job that waits for its lane inherits the lane's chain, else the chain of what made it
// ready). The round's last party's stamp gives the iteration's codec_time_s (records/records.h).
#ifndef COMMSIM_ALGORITHMS_CODEC_TIME_H_
#define COMMSIM_ALGORITHMS_CODEC_TIME_H_

#include <array>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "compression/message.h"
#include "sim/time.h"

namespace commsim {

enum class CodecMode { kNone, kModel, kMeasured };
inline constexpr std::array<std::string_view, 3> kCodecModeNames = {"none", "model", "measured"};

// seconds = c0_s + elem_s x elements + nnz_s x nonzeros + bit_s x payload_bits.
struct CodecCost {
  double c0_s = 0, elem_s = 0, nnz_s = 0, bit_s = 0;
  double Seconds(const Message& m) const;
};

struct CodecCoefficients {
  CodecCost encode, decode;
};

// A device profile: the coefficients of every compressor on one device.
struct CodecProfile {
  std::string device;  // e.g. "cpu_core"
  std::string origin;  // where it was read from (messages)
  std::string source;  // how the numbers were obtained, in words
  std::map<std::string, CodecCoefficients, std::less<>> compressors;  // by registry name
};

// A run's codec settings (RunSetup::codec).
struct CodecSetup {
  CodecMode mode = CodecMode::kNone;
  std::shared_ptr<const CodecProfile> profile;  // set in model mode
  int server_threads = 1;
  // The summary's `codec` column: "none", "model <device>", "measured (not reproducible)".
  std::string Describe() const;
};

// Turns messages into codec durations for one run.
class CodecClock {
 public:
  explicit CodecClock(const CodecSetup& setup);
  bool measured() const { return setup_.mode == CodecMode::kMeasured; }
  // The time to encode (decode) `part`, one network message; `wall_s` is the real time the
  // whole message's encode (decode) took, used in measured mode, and `whole_elements` the whole
  // message's elements. Throws UserError when the profile has no entry for part.codec.
  SimTime Encode(const Message& part, double wall_s, int64_t whole_elements) const;
  SimTime Decode(const Message& part, double wall_s, int64_t whole_elements) const;
  // Encoding (decoding) the whole message in model or none mode: the sum over its parts (the
  // message itself when it has none), plus `per_part` for each (a framework's call cost).
  SimTime WholeMessage(const Message& m, bool encode, SimTime per_part) const;

 private:
  SimTime Time(const Message& part, double wall_s, int64_t whole_elements, bool encode) const;
  CodecSetup setup_;
};

// Real seconds since construction (measured mode); reading it in other modes is harmless.
class WallTimer {
 public:
  WallTimer() : start_(std::chrono::steady_clock::now()) {}
  double Seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

// A simulated time and the codec time on the critical path that led to it.
struct Stamp {
  SimTime at;
  SimTime codec;
};
// The later of two stamps (the first on a tie).
inline Stamp Later(const Stamp& a, const Stamp& b) { return b.at > a.at ? b : a; }

// A party's codec lanes: each runs one job at a time.
class CodecLanes {
 public:
  // REQUIRES: lanes >= 1.
  explicit CodecLanes(int lanes);
  // Every lane free at `now`, with no codec time behind it.
  void Reset(SimTime now);
  // A job of `duration` that can start at `ready` runs on the lane that frees first (the lowest
  // index on a tie); returns its end: start = max(ready, lane free), end = start + duration.
  Stamp Run(const Stamp& ready, SimTime duration);

 private:
  std::vector<Stamp> free_;
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_CODEC_TIME_H_
