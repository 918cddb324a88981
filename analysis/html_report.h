// report.html: the report of a run or sweep folder as one self-contained HTML page.
//
// Contents: the report's Markdown rendered to HTML (tables and headings), every plot the Markdown
// names embedded as an SVG data URI (PNG when there is no SVG), the environment the outputs record
// (top-level fields of summary.json other than the per-entry list: commsim version, dimension,
// data set sizes, wall time... whichever are present; "not recorded" otherwise), and the scenario
// (scenario.resolved.json, or sweep.resolved.json for a sweep).
//
// Self-contained and inert: no script, no external file, no network access. A Content-Security-
// Policy meta tag (kReportCsp) makes the browser refuse anything else. Every string that comes from
// the folder is HTML-escaped; SVGs shown through <img> cannot run scripts or load resources.
// Plot images are taken only from DIR/plots/<name>.svg|png with <name> made of [A-Za-z0-9_-].
#ifndef COMMSIM_ANALYSIS_HTML_REPORT_H_
#define COMMSIM_ANALYSIS_HTML_REPORT_H_

#include <string>

namespace commsim {

inline constexpr const char* kReportCsp =
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

// The page for folder `dir` from its Markdown report. `generator` (e.g. "commsim 0.1.0") is
// named in the footer; it may be empty.
// The name a report is titled with: the `name` of DIR's scenario.resolved.json or
// sweep.resolved.json (sanitized), else DIR's folder name.
std::string ReportName(const std::string& dir);
// The `time_model` line of DIR's summary.json (sanitized; scenarios/time_model_line.h), or "".
std::string ReportTimeModel(const std::string& dir);

std::string HtmlReport(const std::string& dir, const std::string& markdown,
                       const std::string& generator);

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_HTML_REPORT_H_
