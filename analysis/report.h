// `commsim report DIR`: a summary of a run folder or a sweep folder, written to DIR/report.md
// (Markdown, with the plots of DIR/plots/*.png linked) and DIR/report.html (the same as one
// self-contained page with the plots embedded, the environment and the scenario; see
// html_report.h). Run `commsim plot DIR` first, or let `run`/`sweep` make the plots. Reads only
// the folder's own files.
//
// Run folder: communication per algorithm (total bits, uplink/downlink bits per iteration, bits and
// reduction vs SGD) and time and quality (mean time per iteration split into compute and
// communication, final loss, ||x-x*||^2, test accuracy, consensus distance, density).
// Sweep folder: mean time per iteration and speed-up over the baseline (SGD, or D-PSGD) at every
// point, the crossover values of the first axis where compression stops (or starts) paying off,
// bits per iteration and final loss/accuracy at the first point, time to target when recorded.
#ifndef COMMSIM_ANALYSIS_REPORT_H_
#define COMMSIM_ANALYSIS_REPORT_H_

#include <string>

namespace commsim {

// The Markdown text for a run folder / a sweep folder. Throws UserError on missing files.
std::string RunReport(const std::string& dir);
std::string SweepReport(const std::string& dir);
// The sweep report's table of mean time per iteration (Markdown): every point, every entry.
std::string SweepTimeTable(const std::string& dir);

// Writes report.md and report.html (run or sweep, chosen by DIR's content) into `into` (a
// commsim folder; "" = DIR itself) and returns the path of report.md. The folder written must carry
// commsim's marker (CheckMarkedFolder), and the reports are written through OwnedFolder: never over
// a report.md or report.html commsim did not write. From another folder, report.md links DIR's
// plots by a relative path. `generator` (e.g. "commsim 0.1.0") is named in the HTML.
std::string WriteReport(const std::string& dir, const std::string& generator = "",
                        const std::string& into = "");

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_REPORT_H_
