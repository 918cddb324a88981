// Every reference in the repository's docs and comments resolves to something in the repository:
// file references (rules in app/repo_text_test_util.h), function names cited in comments, and no
// citation of design notes that live outside the repository.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "app/repo_text_test_util.h"

namespace commsim::testing {
namespace {

const std::filesystem::path kRoot = COMMSIM_SOURCE_DIR;

struct Scanned {
  std::string file;
  std::vector<TextChunk> chunks;
};

const std::vector<std::string>& Files() {
  static const std::vector<std::string> files = RepoFiles(kRoot);
  return files;
}

const std::vector<Scanned>& ScannedFiles() {
  static const std::vector<Scanned> scanned = [] {
    std::vector<Scanned> out;
    for (const std::string& f : Files()) {
      if (IsScanned(kRoot, f)) out.push_back({f, ScannableText(f, ReadWholeFile(kRoot / f))});
    }
    return out;
  }();
  return scanned;
}

// "file:line: text" for every unresolved reference in `chunks` of `file`.
std::vector<std::string> Unresolved(const std::string& file, const std::vector<TextChunk>& chunks) {
  std::vector<std::string> out;
  for (const TextChunk& chunk : chunks) {
    for (const std::string& ref : FileReferences(chunk.text)) {
      if (IsNotAReference(ref) || Resolves(kRoot, Files(), file, ref)) continue;
      out.push_back(file + ":" + std::to_string(chunk.line) + ": " + ref);
    }
  }
  return out;
}

TEST(ReferencesTest, TheScanCoversDocsCodeScriptsAndScenarios) {
  std::set<std::string> scanned;
  for (const Scanned& s : ScannedFiles()) scanned.insert(s.file);
  for (const char* f : {"README.md", "CONTRIBUTING.md", "docs/algorithms.md", "docs/scenarios.md",
                        "docs/network.md", "sim/engine.h", "algorithms/ps/dore.cc",
                        "scripts/build.sh", "scenarios/quickstart.json", "test.sh", "commsim"}) {
    EXPECT_TRUE(scanned.contains(f)) << f;
  }
  EXPECT_FALSE(scanned.contains("docs/loss_vs_bits.png"));
}

TEST(ReferencesTest, EveryFileNamedInDocsAndCommentsExists) {
  std::vector<std::string> missing;
  for (const Scanned& s : ScannedFiles()) {
    for (std::string& m : Unresolved(s.file, s.chunks)) missing.push_back(std::move(m));
  }
  std::string list;
  for (const std::string& m : missing) list += "\n  " + m;
  EXPECT_TRUE(missing.empty()) << missing.size()
                               << " references name no file in the repository:" << list;
}

// The checker itself: it flags what it must and accepts what it must.
TEST(ReferencesTest, CheckerFlagsMissingFilesAndAcceptsRealOnes) {
  const std::vector<TextChunk> comments = CppComments(
      "int x = 1'000;  // see sim/engine.h and ps_rules_test.cc\n"
      "const char* s = \"not_a_comment_test.cc\";\n"
      "/* the timing is in ps_timing_test.cc and docs/nowhere.md */\n");
  ASSERT_EQ(comments.size(), 2u);
  EXPECT_EQ(comments[1].line, 3);
  const std::vector<std::string> bad = Unresolved("algorithms/ps/x.cc", comments);
  EXPECT_EQ(bad, (std::vector<std::string>{"algorithms/ps/x.cc:3: ps_timing_test.cc",
                                           "algorithms/ps/x.cc:3: docs/nowhere.md"}));
  const std::vector<TextChunk> md = {
      {7,
       "See [the reference](docs/scenarios.md#network), [x](missing/page.md), "
       "`scenarios/net/*.json`, `scenarios/nothing/*.json`, `results/<name>/metrics.csv`, "
       "`SPEC.json`, `net/incast.json`, [web](https://example.org/a.md)."}};
  EXPECT_EQ(Unresolved("README.md", md),
            (std::vector<std::string>{"README.md:7: missing/page.md",
                                      "README.md:7: scenarios/nothing/*.json"}));
}

// Links to a section (`FILE.md#anchor` or `#anchor`) name a heading of that file.
TEST(ReferencesTest, MarkdownLinksToSectionsNameExistingHeadings) {
  static const std::regex kLink(R"(\]\(([^)\s#]*\.md|)#([^)\s]+)\))");
  int checked = 0;
  for (const Scanned& s : ScannedFiles()) {
    if (!s.file.ends_with(".md")) continue;
    for (const TextChunk& c : s.chunks) {
      for (auto it = std::sregex_iterator(c.text.begin(), c.text.end(), kLink);
           it != std::sregex_iterator(); ++it) {
        const std::string target = (*it)[1].str();
        const std::string dir = s.file.substr(0, s.file.rfind('/') + 1);  // "" at the root
        const std::filesystem::path file = kRoot / (target.empty() ? s.file : dir + target);
        ++checked;
        EXPECT_TRUE(MarkdownAnchors(ReadWholeFile(file)).contains((*it)[2].str()))
            << s.file << ":" << c.line << ": no heading for #" << (*it)[2].str() << " in "
            << (target.empty() ? s.file : target);
      }
    }
  }
  EXPECT_GT(checked, 10);
  EXPECT_TRUE(MarkdownAnchors("## The `commsim net SPEC.json` command, briefly\n")
                  .contains("the-commsim-net-specjson-command-briefly"));
}

TEST(ReferencesTest, NothingCitesDesignNotesOutsideTheRepository) {
  // Spelled in pieces so that this file does not match itself.
  const std::vector<std::string> names = {std::string("ALGORITHMS") + ".md",
                                          std::string("STYLE") + ".md"};
  for (const std::string& f : Files()) {
    if (!IsScanned(kRoot, f)) continue;
    const std::string text = ReadWholeFile(kRoot / f);
    for (const std::string& name : names) {
      EXPECT_EQ(text.find(name), std::string::npos) << f << " cites " << name;
    }
  }
}

// A function cited in a comment as `Name()` or `Class::Name(` must be declared or defined in code
// (outside comments) somewhere in the repository.
TEST(ReferencesTest, FunctionsCitedInCommentsExist) {
  static const std::regex kCited(R"(\b([A-Z][A-Za-z0-9_]*)\(\))");
  static const std::regex kQualified(R"(\b[A-Z][A-Za-z0-9_]*::([A-Z][A-Za-z0-9_]*)\()");
  std::map<std::string, int> in_code;  // identifier -> occurrences outside comments
  std::vector<std::pair<std::string, std::string>> cited;  // (file:line, name)
  for (const Scanned& s : ScannedFiles()) {
    if (!IsCpp(s.file)) continue;
    CountIdentifiers(ReadWholeFile(kRoot / s.file), in_code);
    for (const TextChunk& c : s.chunks) {
      CountIdentifiers(c.text, in_code, -1);
      for (const std::regex* re : {&kCited, &kQualified}) {
        for (auto it = std::sregex_iterator(c.text.begin(), c.text.end(), *re);
             it != std::sregex_iterator(); ++it) {
          cited.emplace_back(s.file + ":" + std::to_string(c.line), (*it)[1].str());
        }
      }
    }
  }
  ASSERT_GT(cited.size(), 20u);  // the scan sees the comments at all
  ASSERT_GT(in_code["RunParameterServer"], 0);
  for (const auto& [where, name] : cited) {
    EXPECT_GT(in_code[name], 0) << where << ": cites " << name << "(), which no code declares";
  }
}

// The README is the entry point; the reference lives in docs/.
TEST(ReferencesTest, ReadmeStaysWithin250LinesAndLinksTheDocs) {
  const std::string readme = ReadWholeFile(kRoot / "README.md");
  EXPECT_LE(std::count(readme.begin(), readme.end(), '\n'), 250);
  for (const char* doc : {"docs/scenarios.md", "docs/algorithms.md", "docs/network.md",
                          "docs/outputs.md", "CONTRIBUTING.md"}) {
    EXPECT_NE(readme.find(std::string("](") + doc), std::string::npos) << doc;
  }
}

}  // namespace
}  // namespace commsim::testing
