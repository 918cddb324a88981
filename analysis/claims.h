// Claims of a paper checked against a run: each claim names a check on the run's summaries or
// metrics, and Evaluate computes from the run whether it holds, with the values it looked at.
// The checks (`kind`):
//   below / above   summary `field` of every entry in `entries` is < value (> value);
//   near_or_above   summary `field` of every entry is >= that of entry `of` minus `tolerance`
//                   (e.g. test accuracy within 2 points of SGD's, or better);
//   ratio_below     summary `field` of every entry divided by that of entry `of` is <= value;
// (near_or_above and ratio_below compare with entry `of`'s `of_field` when given, else its
// `field`: e.g. an entry's communication time against its own compute time);
//   decay           metrics `column` of every entry at iteration `to` is <= value times its
//                   value at iteration `from` (e.g. residual norms shrinking geometrically).
// A claim holds when every entry passes; an entry that is missing, not "ok", or has no value there
// makes it not hold, and the reason is in `measured`.
#ifndef COMMSIM_ANALYSIS_CLAIMS_H_
#define COMMSIM_ANALYSIS_CLAIMS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/params.h"
#include "records/records.h"

namespace commsim {

struct ClaimConfig final : ConfigBase<ClaimConfig> {
  std::string claim;  // what the paper says, in words
  std::string paper;  // the paper's number or shape
  std::string note;   // why a claim does not hold here, or how to read it (optional)
  std::string kind = "below";
  std::string field;     // summary field (below, above, near_or_above, ratio_below)
  std::string column;    // metrics column (decay)
  std::string entries;   // entry labels, comma-separated
  std::string of;        // the reference entry (near_or_above, ratio_below)
  std::string of_field;  // the reference entry's field, when not `field`
  double value = 0.0;
  double tolerance = 0.0;
  int64_t from = 0, to = 0;  // iterations (decay)
  void Describe(ParamVisitor& v) override;
  void Validate(ParamProblems& problems) const override;
  // The labels in `entries`, trimmed.
  std::vector<std::string> EntryList() const;
};

struct ClaimOutcome {
  std::string measured;  // the values the check used, e.g. "dore 1.4e-24, sgd 2.0e-13"
  bool holds = false;
};

// `labels[e]` is entry e's label in `result`.
ClaimOutcome EvaluateClaim(const ClaimConfig& claim, const RunResult& result,
                           const std::vector<std::string>& labels);

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_CLAIMS_H_
