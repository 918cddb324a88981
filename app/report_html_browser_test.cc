// report.html in a real browser: headless Chromium loads the report of a real run and checks that
// every plot decodes and that nothing is logged or blocked. Skips only when Chromium is absent
// (scripts/bootstrap.sh installs Debian's `chromium`, so CI runs it).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "analysis/html_report.h"
#include "analysis/subprocess.h"
#include "analysis/writers.h"
#include "base/file_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using test_files::Read;

std::string FindChromium() {
  for (const char* name : {"chromium", "chromium-browser"}) {
    if (std::string path = FindProgram(name); !path.empty()) return path;
  }
  return "";
}

// Registered in <head> (before any image loads): collects resource errors and CSP violations;
// on load, lists the images that did not decode and writes the verdict into <pre id=check>.
constexpr const char* kCheckScript = R"(<script>
const commsimErrors = [];
window.addEventListener('error', e => commsimErrors.push(
    'error: ' + (e.message || (e.target && e.target.alt) || '?')), true);
document.addEventListener('securitypolicyviolation',
    e => commsimErrors.push('csp: ' + e.effectiveDirective + ' ' + e.blockedURI));
window.addEventListener('load', () => {
  const images = Array.from(document.images);
  const broken = images.filter(i => !i.complete || i.naturalWidth === 0).map(i => i.alt);
  const out = document.createElement('pre');
  out.id = 'check';
  out.textContent = 'images=' + images.length + ' broken=' + JSON.stringify(broken) +
      ' errors=' + JSON.stringify(commsimErrors.sort()) +
      ' missing=' + document.querySelectorAll('.missing').length;
  document.body.appendChild(out);
});
</script>
)";

// Controls that prove the check can fail: an image that does not decode, and one the report's
// Content-Security-Policy must block (it names a host that is never contacted).
constexpr const char* kControls =
    "<img alt=\"control-broken\" src=\"data:image/svg+xml;base64,PHN2Zz4=\">"
    "<img alt=\"control-blocked\" src=\"https://commsim.invalid/x.png\">\n";

TEST(ReportHtmlBrowserTest, ChromiumShowsEveryPlotWithoutErrors) {
  const std::string chromium = FindChromium();
  if (chromium.empty()) {
    GTEST_SKIP() << "chromium not installed (scripts/bootstrap.sh installs Debian's chromium): "
                    "report.html not checked in a browser";
  }
  const fs::path dir = test_files::FreshDir("report_html");
  const std::string out = (dir / "run").string();
  const ProgramResult run = RunProgram(
      COMMSIM_BINARY,
      {"run", "scenarios/quickstart.json", "--set", "/iterations=20", "--out", out, "-q"},
      COMMSIM_SOURCE_DIR);
  ASSERT_TRUE(run.ok()) << run.output;
  const ProgramResult report = RunProgram(COMMSIM_BINARY, {"report", out}, COMMSIM_SOURCE_DIR);
  ASSERT_TRUE(report.ok()) << report.output;

  // The page under test, plus the check script (allowed by one extra CSP directive) and controls.
  std::string page = Read(fs::path(out) / "report.html");
  const std::string csp = fmt::format("content=\"{}\"", kReportCsp);
  ASSERT_NE(page.find(csp), std::string::npos);
  page.replace(page.find(csp), csp.size(),
               fmt::format("content=\"{}; script-src 'unsafe-inline'\"", kReportCsp));
  page.insert(page.find("</head>"), kCheckScript);
  page.insert(page.find("</main>"), kControls);
  WriteFileAtomic((fs::path(out) / "check.html").string(), page);

  size_t plots = 0;
  for (const auto& e : fs::directory_iterator(fs::path(out) / "plots")) {
    plots += e.path().extension() == ".svg";
  }
  ASSERT_GE(plots, 5u);

  const ProgramResult browser = RunProgram(
      "/usr/bin/timeout",
      {"120", chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
       "--no-first-run", "--disable-background-networking", "--disable-component-update",
       "--disable-sync", "--user-data-dir=" + (dir / "profile").string(), "--enable-logging=stderr",
       "--v=0", "--dump-dom", "file://" + (fs::path(out) / "check.html").string()},
      dir.string());
  ASSERT_TRUE(browser.ok()) << browser.output;
  std::smatch verdict;
  ASSERT_TRUE(
      std::regex_search(browser.output, verdict, std::regex("<pre id=\"check\">([^<]*)</pre>")))
      << browser.output;
  EXPECT_EQ(verdict[1].str(),
            fmt::format("images={} broken=[\"control-broken\",\"control-blocked\"] "
                        "errors=[\"csp: img-src https://commsim.invalid/x.png\","
                        "\"error: control-blocked\",\"error: control-broken\"] missing=0",
                        plots + 2));
  // Console messages: only the blocked control's.
  const std::string log = browser.output;
  size_t console = 0;
  for (size_t at = log.find(":CONSOLE"); at != std::string::npos;
       at = log.find(":CONSOLE", at + 1)) {
    ++console;
  }
  EXPECT_EQ(console, 1u) << log;
  EXPECT_NE(log.find("<h2>Scenario</h2>"), std::string::npos);
  EXPECT_NE(log.find("<h2>Environment</h2>"), std::string::npos);
  if (!std::getenv("COMMSIM_KEEP_TEST_DIRS")) fs::remove_all(dir);
}

}  // namespace
}  // namespace commsim
