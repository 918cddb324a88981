// Sweeps: one base scenario, run at every point of a grid of JSON-pointer overrides.
//
// Sweep file, read with the scenario config machinery (scenarios/json_config.h): the scalar keys
// and each axis's keys are typed configs with Describe(), so unknown keys are errors with a
// did-you-mean and wrong types or choices name the pointer and what was expected:
//   {
//     "name": "bandwidth_sweep",                  // optional, default: the file's stem
//     "base": "dore_resnet18_bandwidth.json",     // a scenario file (relative to this file) or an
//                                                 // inline scenario object
//     "set": {"/iterations": 20},                 // optional overrides applied to the base first
//     "combine": "cartesian",                     // or "zip" (axes advance together)
//     "target_loss": 0.5,                         // optional (time to target, sweep_point.h)
//     "axes": [
//       {"pointer": "/network/topology/server_bandwidth", "name": "bandwidth",
//        "logspace": ["10Mbps", "10Gbps", 13]},     // or "linspace": [from, to, n]
//       {"pointer": "/workers", "values": [4, 8, 16]}
//     ]
//   }
// At most kMaxSweepPoints points (axes multiply under "cartesian"); more is an error at /axes.
// Range endpoints may be unit strings ("10Mbps", "2ms", "1MB"); the point values are then numbers
// in SI base units (bit/s, s, bit). Cartesian points enumerate the last axis fastest.
//
// A sweep's fingerprint is a hash of its canonical content (base scenario after `set`, axes and
// their values, combine, target_loss), so editing comments or whitespace does not change it but any
// change to what would be run does.
#ifndef COMMSIM_SCENARIOS_SWEEP_H_
#define COMMSIM_SCENARIOS_SWEEP_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/params.h"

namespace commsim {

inline constexpr size_t kMaxSweepPoints = 100000;

struct SweepAxis {
  std::string name;                    // column name in sweep.csv
  std::string pointer;                 // JSON pointer into the scenario document
  Unit unit = Unit::kNone;             // when the values were given as quantities
  std::string scale = "list";          // "list", "linear" or "log": how the values were generated
  std::vector<nlohmann::json> values;  // written into the scenario at `pointer`
  std::vector<std::string> cells;      // each value as a sweep.csv cell (SI number or text)
};

struct Sweep {
  std::string file;      // origin, for messages
  std::string base_dir;  // directory relative data paths of the base scenario resolve against
  std::string name;
  nlohmann::json base;  // the base scenario with `set` applied
  std::vector<SweepAxis> axes;
  bool zip = false;
  std::optional<double> target_loss;
  std::string fingerprint;   // 16 hex digits
  nlohmann::json canonical;  // what the fingerprint hashes; sweep.resolved.json is it + `name`

  size_t size() const;  // number of points
  // The value index on each axis of point `point` (< size()).
  std::vector<size_t> ValueIndices(size_t point) const;
  // The base scenario with every axis value of point `point` applied.
  nlohmann::json PointScenario(size_t point) const;
  // The axis cells of point `point`, in axis order.
  std::vector<std::string> PointCells(size_t point) const;
  // "bandwidth=1e+07, workers=8", for messages.
  std::string DescribePoint(size_t point) const;
};

// Parses a sweep document; `origin` names it in messages, relative base paths resolve against
// `dir`. Throws UserError listing every problem.
Sweep ParseSweep(const nlohmann::json& doc, const std::string& origin, const std::string& dir);
// Loads and parses a sweep file.
Sweep LoadSweep(const std::string& file);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_SWEEP_H_
