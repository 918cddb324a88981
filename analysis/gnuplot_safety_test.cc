// Untrusted text (entry labels, sweep axis names and values) must reach gnuplot as literal text:
// never as a command, a shell command, a macro, a format or enhanced-text markup.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/csv.h"
#include "analysis/gnuplot.h"
#include "analysis/output_folder.h"
#include "analysis/plot.h"
#include "analysis/subprocess.h"
#include "analysis/writers.h"
#include "base/file_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;
using test_files::Read;

TEST(GnuplotTextTest, StringsAreSingleQuotedWithoutQuotesOnOneLine) {
  EXPECT_EQ(GnuplotString("it's"), "'it’s'");
  EXPECT_EQ(GnuplotString("''x''"), "'’’x’’'");
  EXPECT_EQ(GnuplotString("a\nb\tc\rd\x1b"), "'a b c d '");
  // Inside single quotes gnuplot substitutes nothing: these stay as they are.
  EXPECT_EQ(GnuplotString("`x` $(y) @z \\ \"q\""), "'`x` $(y) @z \\ \"q\"'");
  EXPECT_EQ(GnuplotString("γ ‖x − x*‖² x̄"), "'γ ‖x − x*‖² x̄'");
  EXPECT_EQ(GnuplotTicLabel("50% of '%s'"), "'50%% of ’%%s’'");
}

TEST(GnuplotTextTest, InvalidUtf8AndSeparatorsAreReplaced) {
  const std::string fffd = "\xef\xbf\xbd";
  EXPECT_EQ(SanitizeText("a\xff"
                         "b"),
            "a" + fffd + "b");
  EXPECT_EQ(SanitizeText("\xc0\xaf"), fffd + fffd);             // overlong '/'
  EXPECT_EQ(SanitizeText("\xed\xa0\x80"), fffd + fffd + fffd);  // UTF-16 surrogate
  EXPECT_EQ(SanitizeText("\xe2\x82"), fffd + fffd);             // truncated sequence
  EXPECT_EQ(SanitizeText("x\xe2\x80\xa8y\xc2\x85z"), "x y z");  // U+2028, U+0085 (NEL)
  EXPECT_EQ(SanitizeText("😀 é"), "😀 é");
}

class GnuplotSafetyTest : public test_files::TempDirTest {
 protected:
  void SetUp() override {
    if (FindProgram("gnuplot").empty()) GTEST_SKIP() << "gnuplot not installed";
    TempDirTest::SetUp();
  }

  // Labels that would each create dir_/pwned<k> if gnuplot (or a shell) ran any part of them.
  std::vector<std::string> Payloads() const {
    const std::string m = (dir_ / "pwned").string();
    return {
        fmt::format("`touch {}1`", m),
        fmt::format("$(touch {}2)", m),
        fmt::format("'; system('touch {}3'); print '", m),
        fmt::format("\"; system(\"touch {}4\"); print \"", m),
        fmt::format("x\nsystem('touch {}5')\n", m),
        fmt::format("x' . system('touch {}6') . '", m),
        fmt::format("\\'; system('touch {}7') #", m),
        fmt::format("\r\x1b[31m\xe2\x80\xa8system('touch {}8')", m),
        fmt::format(";touch {}9;", m),
        fmt::format("< touch {}10", m),
        fmt::format("| touch {}11", m),
        "%s %n %1$s %99999999999d {/Symbol a}^{2}_{x} &{xx} ~a{.8-} @x \\\\ \xff γ‖x‖² 😀",
    };
  }

  void ExpectNothingRan() const {
    for (const auto& e : fs::recursive_directory_iterator(dir_)) {
      EXPECT_EQ(e.path().filename().string().find("pwned"), std::string::npos) << e.path();
    }
  }

  void ExpectRendered(const fs::path& plots, const std::string& name) const {
    EXPECT_EQ(Read(plots / (name + ".png")).rfind("\x89PNG\r\n\x1a\n", 0), 0u) << name;
    EXPECT_EQ(Read(plots / (name + ".pdf")).rfind("%PDF", 0), 0u) << name;
    const std::string svg = Read(plots / (name + ".svg"));
    EXPECT_NE(svg.find("</svg>"), std::string::npos) << name;
  }
};

TEST_F(GnuplotSafetyTest, HostileTitlesLabelsLegendsAndTicsRenderLiterally) {
  const std::vector<std::string> payloads = Payloads();
  LinePlot plot;
  plot.name = "hostile";
  plot.title = payloads[0] + payloads[3];
  plot.x_label = payloads[1] + payloads[6];
  plot.y_label = payloads[2] + payloads[11];
  plot.log_y = true;
  std::string tics;
  for (size_t i = 0; i < payloads.size(); ++i) {
    Series s{payloads[i], {AlgorithmColor("x"), 1, 7}, true, {{0.0, 1.0 + i}, {1.0, 100.0 + i}}};
    plot.series.push_back(s);
    tics += fmt::format("{}{} {}", i ? ", " : "", GnuplotTicLabel(payloads[i]), i % 2);
  }
  plot.extra.push_back(fmt::format("set xtics ({}) noenhanced", tics));
  for (const FigureSize size : {FigureSize::kPage, FigureSize::kColumn}) {
    PlotSet set(dir_.string(), size);
    set.Add(plot);
    ASSERT_TRUE(set.Render({}));
    ExpectRendered(dir_ / "plots", "hostile");
  }
  ExpectNothingRan();
  // The text arrives literally (gnuplot escapes '<' and '&' in SVG itself).
  const std::string svg = Read(dir_ / "plots" / "hostile.svg");
  EXPECT_NE(svg.find(fmt::format("`touch {}1`", (dir_ / "pwned").string())), std::string::npos);
  EXPECT_NE(svg.find("{/Symbol a}^{2}_{x}"), std::string::npos);  // not enhanced markup
}

TEST_F(GnuplotSafetyTest, HostileSweepAxisNamesValuesAndEntryLabelsRunNothing) {
  const std::vector<std::string> payloads = Payloads();
  // A categorical first axis whose name and values are hostile, and hostile entry labels.
  const std::string axis = payloads[0] + payloads[4];
  std::string csv = CsvLine({"point", axis, "name", "algorithm", "mean_iter_time_s",
                             "mean_compute_time_s", "time_to_target_s", "target_loss", "baseline"});
  for (size_t p = 0; p < 3; ++p) {
    for (size_t e = 0; e < payloads.size(); ++e) {
      csv += CsvLine({std::to_string(p), payloads[(p + 5) % payloads.size()], payloads[e],
                      e == 0 ? "sgd" : "dore", FormatNumber(1.0 + e + 10.0 * p), "0.5",
                      FormatNumber(3.0 + p), payloads[2], payloads[0]});
    }
  }
  WriteFileAtomic((dir_ / "sweep.csv").string(), csv);
  WriteFileAtomic((dir_ / "axes.csv").string(),
                  "name,pointer,unit,scale\n" + CsvLine({axis, "/x", payloads[1], "linear"}));
  WriteMarker(dir_.string(), OutputKind::kRun);  // plot and report write only there
  ASSERT_TRUE(PlotFolder(dir_.string()));
  for (const char* name : {"time_per_iteration", "speedup", "time_to_target"}) {
    ExpectRendered(dir_ / "plots", name);
  }
  ExpectNothingRan();
}

TEST_F(GnuplotSafetyTest, HostileRunEntryLabelsRunNothing) {
  const std::vector<std::string> payloads = Payloads();
  std::string metrics = "algorithm,iteration,sim_time_s,loss,cum_bits\n";
  std::string summary =
      "name,algorithm,family,iterations,bits_up,bits_down,optimal_loss,mean_iter_time_s,"
      "mean_compute_time_s,mean_comm_time_s\n";
  for (size_t e = 0; e < payloads.size(); ++e) {
    for (int k = 0; k <= 3; ++k) {
      metrics += CsvLine({payloads[e], std::to_string(k), FormatNumber(0.1 * k),
                          FormatNumber(1.0 / (1 + k + e)), std::to_string(100 * k)});
    }
    summary += CsvLine({payloads[e], e % 2 ? "qsgd" : "sgd", "parameter_server", "3", "300", "0",
                        "0", "0.3", "0.1", "0.2"});
  }
  WriteFileAtomic((dir_ / "metrics.csv").string(), metrics);
  WriteFileAtomic((dir_ / "summary.csv").string(), summary);
  WriteMarker(dir_.string(), OutputKind::kRun);  // plot and report write only there
  ASSERT_TRUE(PlotFolder(dir_.string()));
  for (const char* name :
       {"loss_vs_iteration", "loss_vs_bits", "bits_per_iteration", "time_breakdown"}) {
    ExpectRendered(dir_ / "plots", name);
  }
  ExpectNothingRan();
}

TEST(SubprocessTest, RunsWithoutAShellInTheGivenFolderAndCapturesBothStreams) {
  const fs::path dir = fs::temp_directory_path() / fmt::format("subprocess_{}", ::getpid());
  fs::create_directories(dir);
  const std::string sh = FindProgram("sh");
  ASSERT_FALSE(sh.empty());
  // The argument reaches the program as one argv entry: `$(...)` is not expanded by us.
  const ProgramResult r = RunProgram(
      sh, {"-c", "pwd; echo \"$1\"; echo err >&2; exit 3", "sh", "$(echo no)"}, dir.string());
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.output, fs::canonical(dir).string() + "\n$(echo no)\nerr\n");
  EXPECT_THROW(RunProgram("/nonexistent/program", {}, dir.string()), std::exception);
  EXPECT_THROW(RunProgram(sh, {"-c", "true"}, (dir / "missing").string()), std::exception);
  EXPECT_EQ(FindProgram("commsim-surely-not-a-program"), "");
  EXPECT_TRUE(fs::path(FindProgram("sh")).is_absolute());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace commsim
