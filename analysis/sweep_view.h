// A sweep folder read back for plots and reports: sweep.csv + axes.csv (never JSON).
//
// The first axis is the x axis (e.g. bandwidth); rows are grouped into curves by entry label and
// the values of the other axes. Each row's baseline is the entry its `baseline` cell names (the
// runner's full-precision baseline of the row's family; baseline() is the first, for titles);
// speed-up of a row is its baseline's mean_iter_time_s at the same point divided by the row's.
#ifndef COMMSIM_ANALYSIS_SWEEP_VIEW_H_
#define COMMSIM_ANALYSIS_SWEEP_VIEW_H_

#include <optional>
#include <string>
#include <vector>

#include "analysis/csv.h"

namespace commsim {

struct SweepCurve {
  std::string label;      // legend text: the entry label, plus ", <axis>=<value>..." for other axes
  std::string name;       // the entry label
  std::string algorithm;  // registry name (colours)
  int group = 0;          // index of the other-axes combination (dash type)
  std::vector<size_t> rows;  // into table(), in increasing x
};

// Where a curve's speed-up over the baseline crosses 1, interpolated between neighbouring points
// (in log x and log speed-up when the axis is log-scaled).
struct Crossing {
  double x = 0;
  bool stops_paying = true;  // speed-up falls below 1 as x grows (else it rises above 1)
};

class SweepView {
 public:
  // Throws UserError when sweep.csv or axes.csv is missing or lacks needed columns.
  static SweepView Load(const std::string& dir);

  const CsvTable& table() const { return table_; }
  const std::string& x_name() const { return x_name_; }
  const std::string& x_unit() const { return x_unit_; }
  bool x_log() const { return x_log_; }
  // The x value of a row: the first axis cell as a number, or its ordinal when not numeric.
  double X(size_t row) const;
  // Text for an x value, with SI prefixes when it has a unit ("1.78 Gbit/s").
  std::string XText(double x) const;
  // Axis label, e.g. "server_bandwidth (bit/s)"; a unitless step size or algorithm parameter
  // gets its usual letter, e.g. "step (γ)" for /step/size, "alpha (α)" for .../alpha.
  std::string XLabel() const;
  // Ordinal axes: the distinct first-axis cells in order; empty when numeric.
  const std::vector<std::string>& x_categories() const { return x_categories_; }

  const std::vector<SweepCurve>& curves() const { return curves_; }
  const std::string& baseline() const { return baseline_; }  // "" when absent
  // The baseline's label, or "a or b (by family)" when the families have different baselines.
  std::string BaselineTitle() const;
  // True when entry `name` is some row's baseline.
  bool IsBaseline(const std::string& name) const;
  // The label of a row's baseline ("" when the row has none).
  std::string BaselineOf(size_t row) const;
  std::optional<double> Speedup(size_t row) const;
  std::vector<Crossing> Crossings(const SweepCurve& curve) const;

 private:
  // The steps of Load after the axes: x values (categories or numbers, log scale when the axis
  // says so or the values span two decades), curves (one per name and other-axes group, rows in x
  // order), the baselines.
  void ReadX(bool log_axis);
  void GroupCurves();
  void ReadBaselines();

  CsvTable table_;
  std::string x_name_;
  std::string x_unit_;
  std::string x_pointer_;
  bool x_log_ = false;
  std::vector<std::string> x_categories_;
  std::vector<std::string> other_axes_;
  std::vector<SweepCurve> curves_;
  std::vector<std::string> baselines_;  // distinct `baseline` cells in row order
  std::string baseline_;
};

// 1.78e9, "bit/s" -> "1.78 Gbit/s"; unit "" -> "1.78e+09" style shortest text.
std::string FormatSi(double x, const std::string& unit);

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_SWEEP_VIEW_H_
