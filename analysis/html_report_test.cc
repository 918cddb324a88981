#include "analysis/html_report.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/csv.h"
#include "analysis/markdown_html.h"
#include "analysis/output_folder.h"
#include "analysis/records_test_util.h"
#include "analysis/report.h"
#include "analysis/text_test_util.h"
#include "analysis/writers.h"
#include "base/file_test_util.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(MarkdownHtmlTest, Base64MatchesTheRfc4648Vectors) {
  // RFC 4648 section 10, then bytes that use the alphabet's last two characters and a zero byte.
  const std::pair<std::string, std::string> vectors[] = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
      {std::string("\xff\x00\xfe", 3), "/wD+"},
  };
  for (const auto& [bytes, base64] : vectors) EXPECT_EQ(Base64(bytes), base64) << bytes;
}

TEST(MarkdownHtmlTest, TablesHeadingsCodeAndImagesBecomeHtml) {
  const std::string md =
      "# Run <report>\n\nSome `code & more` text\ncontinued.\n\n"
      "| algorithm | bits |\n|---|---:|\n| a \\| b | 1 k |\n| <i>x</i> |\n\n"
      "![caption \"q\"](plots/x.png)\n- item & one\n";
  std::vector<std::pair<std::string, std::string>> images;
  const std::string html = MarkdownToHtml(md, [&](const std::string& path, const std::string& c) {
    images.emplace_back(path, c);
    return std::string("<IMG>\n");
  });
  EXPECT_EQ(
      html,
      "<h1>Run &lt;report&gt;</h1>\n"
      "<p>Some <code>code &amp; more</code> text continued.</p>\n"
      "<div class=\"table\"><table>\n"
      "<thead><tr><th>algorithm</th><th class=\"r\">bits</th></tr></thead>\n"
      "<tbody>\n<tr><td>a | b</td><td class=\"r\">1 k</td></tr>\n"
      "<tr><td>&lt;i&gt;x&lt;/i&gt;</td><td class=\"r\"></td></tr>\n</tbody>\n</table></div>\n"
      "<IMG>\n<ul>\n<li>item &amp; one</li>\n</ul>\n");
  ASSERT_EQ(images.size(), 1u);
  EXPECT_EQ(images[0].first, "plots/x.png");
  EXPECT_EQ(images[0].second, "caption \"q\"");
}

class HtmlReportTest : public test_files::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    fs::create_directories(dir_ / "plots");
  }
};

TEST_F(HtmlReportTest, PlotsAreEmbeddedAndNothingOutsidePlotsIsRead) {
  WriteFileAtomic((dir_ / "plots" / "loss_vs_bits.svg").string(), "<svg>A</svg>");
  WriteFileAtomic((dir_ / "plots" / "only_png.png").string(), "PNGDATA");
  WriteFileAtomic((dir_ / "secret.svg").string(), "<svg>secret</svg>");
  const std::string md =
      "# T\n\n![loss](plots/loss_vs_bits.png)\n\n![png](plots/only_png.png)\n\n"
      "![up](plots/../secret.png)\n\n![abs](/etc/passwd)\n\n![none](plots/absent.png)\n";
  const std::string html = HtmlReport(dir_.string(), md, "commsim 9.9");
  EXPECT_NE(html.find(fmt::format("src=\"data:image/svg+xml;base64,{}\"", Base64("<svg>A</svg>"))),
            std::string::npos);
  EXPECT_NE(html.find(fmt::format("src=\"data:image/png;base64,{}\"", Base64("PNGDATA"))),
            std::string::npos);
  EXPECT_EQ(html.find(Base64("<svg>secret</svg>")), std::string::npos);
  EXPECT_EQ(Count(html, "<img "), 2u);
  EXPECT_EQ(Count(html, "class=\"missing\""), 3u);
  EXPECT_NE(html.find(fmt::format("content=\"{}\"", kReportCsp)), std::string::npos);
  EXPECT_NE(html.find("Report written by commsim 9.9."), std::string::npos);
  EXPECT_NE(html.find("Not recorded"), std::string::npos);  // no summary.json
}

TEST_F(HtmlReportTest, UserStringsAreEscapedEverywhere) {
  const std::string evil = "<script>alert(1)</script><img src=x onerror=alert(2)>&amp;\"'";
  RunResult run;
  run.summaries.push_back(test_records::BitsSummary("a", "sgd", /*iterations=*/1, 0, 0));
  WriteFileAtomic((dir_ / "summary.csv").string(),
                  "name,algorithm,status,iterations,total_bits,final_loss\n" +
                      CsvLine({evil, "sgd", "ok", "1", "10", "0.5"}));
  WriteFileAtomic((dir_ / "metrics.csv").string(), MetricsCsv(run));
  WriteFileAtomic((dir_ / "scenario.resolved.json").string(),
                  "{\"name\": \"" + evil.substr(0, 30) + "\"}\n");
  WriteFileAtomic((dir_ / "summary.json").string(),
                  "{\"version\": \"" + evil.substr(0, 30) +
                      "\", \"d\": 500, "
                      "\"data\": {\"train_samples\": 1000}, \"algorithms\": []}\n");
  WriteMarker(dir_.string(), OutputKind::kRun);  // plot and report write only there
  WriteReport(dir_.string(), "commsim <b>");
  const std::string html = test_files::Read(dir_ / "report.html");
  test_text::ExpectLacks(html, {"<script", "<img src=x", "<b>"});
  // Shown escaped; the environment: top-level summary.json fields, objects flattened one level.
  test_text::ExpectHas(html,
                       {"&lt;script&gt;alert(1)&lt;/script&gt;", "<tr><th>d</th><td>500</td></tr>",
                        "<tr><th>data.train_samples</th><td>1000</td></tr>", "<h2>Scenario</h2>"});
  EXPECT_TRUE(fs::exists(dir_ / "report.md"));
}

}  // namespace
}  // namespace commsim
