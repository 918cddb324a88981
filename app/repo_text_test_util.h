// Test helper: the repository's text files and the file references they contain, for the
// reference-resolution tests (app/references_test.cc). For app/*_test.cc only.
//
// What counts as a reference (the rules every doc and comment follows):
//   - a token ending in a known file extension (.h .cc .md .sh .json .cmake .txt .png .svg .pdf
//     .csv .gp .dat .html .bin), e.g. `sim/engine.h`, `quickstart.json`, `scenarios/net/*.json`;
//   - the target of a Markdown link that is not a URL or a bare #anchor.
// Where they are looked for: everywhere in *.md, *.sh, *.json and extension-less shell scripts;
// only in comments in *.h and *.cc (string literals there are test data or runtime paths).
// A reference resolves when it names an existing file or folder relative to the repository root
// or to the citing file's folder; a bare file name (no '/') may live anywhere in the repository,
// a partial path (`net/incast.json`) may end any repository path; `*` globs must match at least one
// file. Not references: generated outputs (results/, build*/, data/, plots/, points/, runs/ and
// the run/sweep output names), placeholders (a path component in capitals such as `DIR/` or
// `SPEC.json`, names starting with `my_`, `foo`/`bar`), templates (`<name>.png`, `$var/...`
// other than `$root/`), absolute paths and URLs.
#ifndef COMMSIM_APP_REPO_TEXT_TEST_UTIL_H_
#define COMMSIM_APP_REPO_TEXT_TEST_UTIL_H_

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/file_test_util.h"

namespace commsim::testing {

// A piece of scannable text and the line it starts on.
struct TextChunk {
  int line = 1;
  std::string text;
};

inline std::string ReadWholeFile(const std::filesystem::path& path) {
  return test_files::Read(path);
}

// Every file below `root` (relative paths, '/'-separated, sorted), skipping .git, hidden folders
// other than .ci, build*/, data/ and results/.
inline std::vector<std::string> RepoFiles(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory()) {
      const bool hidden = name.starts_with(".") && name != ".ci";
      if (hidden || name.starts_with("build") || name == "data" || name == "results" ||
          name == "node_modules") {
        it.disable_recursion_pending();
      }
      continue;
    }
    if (it->is_regular_file()) out.push_back(fs::relative(it->path(), root).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The comments of C++ source (// and /* */), skipping string and character literals.
inline std::vector<TextChunk> CppComments(const std::string& text) {
  std::vector<TextChunk> out;
  int line = 1;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (quote != 0) {
      if (c == '\\') {
        ++i;
      } else if (c == quote || c == '\n') {
        quote = 0;
      }
      continue;
    }
    if (c == '"' ||
        (c == '\'' &&
         !(i > 0 && std::isxdigit(static_cast<unsigned char>(text[i - 1])) && i + 1 < text.size() &&
           std::isxdigit(static_cast<unsigned char>(text[i + 1]))))) {
      quote = c;  // (a ' between hex digits is a digit separator, 1'000'000)
      continue;
    }
    if (text.compare(i, 2, "//") == 0) {
      const size_t end = std::min(text.find('\n', i), text.size());
      out.push_back({line, text.substr(i, end - i)});
      i = end - 1;
    } else if (text.compare(i, 2, "/*") == 0) {
      const size_t close = text.find("*/", i + 2);
      const size_t end = close == std::string::npos ? text.size() : close + 2;
      out.push_back({line, text.substr(i, end - i)});
      line += static_cast<int>(std::count(text.begin() + i, text.begin() + end, '\n'));
      i = end - 1;
    }
  }
  return out;
}

inline bool IsCpp(const std::string& file) { return file.ends_with(".h") || file.ends_with(".cc"); }

// Whether `file` is scanned at all: docs, scripts, scenarios, C++ and CMake files.
inline bool IsScanned(const std::filesystem::path& root, const std::string& file) {
  if (file.find("fuzz_corpus/") != std::string::npos) return false;  // fuzz inputs, not text
  for (const char* ext : {".md", ".h", ".cc", ".sh", ".json", ".cmake"}) {
    if (file.ends_with(ext)) return true;
  }
  if (file.ends_with("CMakeLists.txt")) return true;
  if (std::filesystem::path(file).has_extension()) return false;
  return ReadWholeFile(root / file).starts_with("#!");
}

// The scannable text of one file: its comments for C++, every line otherwise.
inline std::vector<TextChunk> ScannableText(const std::string& file, const std::string& text) {
  if (IsCpp(file)) return CppComments(text);
  std::vector<TextChunk> out;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) out.push_back({n, line});
  return out;
}

// File-like tokens and Markdown link targets in `text` (anchors stripped), each once.
inline std::vector<std::string> FileReferences(const std::string& text) {
  static const std::regex kToken(
      R"([A-Za-z0-9_.*<>{}$~/\-]+\.(h|cc|md|sh|json|cmake|txt|png|svg|pdf|csv|gp|dat|html|bin)(?![A-Za-z0-9_]))");
  static const std::regex kLink(R"(\]\(([^)\s]+)\))");
  std::vector<std::string> out;
  auto add = [&out](std::string ref) {
    if (std::find(out.begin(), out.end(), ref) == out.end()) out.push_back(std::move(ref));
  };
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kToken);
       it != std::sregex_iterator(); ++it) {
    add(it->str());
  }
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kLink);
       it != std::sregex_iterator(); ++it) {
    std::string target = (*it)[1].str();
    if (target.starts_with("http://") || target.starts_with("https://") ||
        target.starts_with("mailto:") || target.starts_with("#")) {
      continue;
    }
    add(target.substr(0, target.find('#')));
  }
  return out;
}

// True for generated outputs, placeholders and templates (see the file comment).
inline bool IsNotAReference(const std::string& ref) {
  static const std::set<std::string> kOutputs = {"metrics.csv",
                                                 "summary.csv",
                                                 "summary.json",
                                                 "scenario.resolved.json",
                                                 "sweep.csv",
                                                 "axes.csv",
                                                 "sweep.resolved.json",
                                                 "report.md",
                                                 "report.html",
                                                 "compile_commands.json",
                                                 "run.json",
                                                 "trace.txt"};
  static const std::vector<std::string> kOutputDirs = {
      "results/", "build/", "build-asan/", "data/", "plots/", "points/", "runs/"};
  if (ref.empty() || ref.starts_with("/") || ref.starts_with("~") || ref.find("://") != ref.npos)
    return true;
  if (ref.find('<') != ref.npos || ref.find('{') != ref.npos || ref.find('$') != ref.npos)
    return true;
  for (const std::string& dir : kOutputDirs) {
    if (ref.starts_with(dir) || ref.find("/" + dir) != ref.npos) return true;
  }
  if (ref.ends_with(".gp") || ref.ends_with(".dat")) return true;  // plot scripts and data
  std::string component;
  std::istringstream parts(ref);
  while (std::getline(parts, component, '/')) {
    if (component == "." || component == "..") continue;
    const std::string stem = component.substr(0, component.find('.'));
    const bool capitals = !stem.empty() && std::none_of(stem.begin(), stem.end(), [](char c) {
      return std::islower(static_cast<unsigned char>(c));
    }) && std::any_of(stem.begin(), stem.end(), [](char c) {
      return std::isupper(static_cast<unsigned char>(c));
    });
    if (capitals || stem.empty() || stem.starts_with("my_") || stem == "foo" || stem == "bar")
      return true;
  }
  return kOutputs.contains(ref.substr(ref.rfind('/') + 1));
}

// Whether `ref`, cited by `citing` (a repository path), names something in the repository.
inline bool Resolves(const std::filesystem::path& root, const std::vector<std::string>& files,
                     const std::string& citing, std::string ref) {
  namespace fs = std::filesystem;
  if (ref.starts_with("$root/")) ref = ref.substr(6);
  while (ref.starts_with("./")) ref = ref.substr(2);
  const std::string dir = fs::path(citing).parent_path().generic_string();
  const std::string local = dir.empty() ? ref : dir + "/" + ref;
  const bool glob = ref.find('*') != ref.npos;
  const bool bare = ref.find('/') == ref.npos;
  if (!glob && (fs::exists(root / ref) || fs::exists(root / local))) return true;
  for (const std::string& f : files) {
    if (glob && (fnmatch(ref.c_str(), f.c_str(), FNM_PATHNAME) == 0 ||
                 fnmatch(local.c_str(), f.c_str(), FNM_PATHNAME) == 0)) {
      return true;
    }
    const std::string base = f.substr(f.rfind('/') + 1);
    if (glob && bare && fnmatch(ref.c_str(), base.c_str(), 0) == 0) return true;
    if (glob && !bare && fnmatch(("*/" + ref).c_str(), f.c_str(), 0) == 0) return true;
    if (!glob && (bare ? base == ref : f.ends_with("/" + ref))) return true;
  }
  return false;
}

// The anchors GitHub gives the headings of a Markdown text: lower case, spaces to '-', ASCII
// punctuation other than '-' and '_' dropped, other characters kept. Fenced code is skipped.
inline std::set<std::string> MarkdownAnchors(const std::string& text) {
  std::set<std::string> out;
  std::istringstream in(text);
  std::string line;
  bool fenced = false;
  while (std::getline(in, line)) {
    if (line.starts_with("```")) fenced = !fenced;
    if (fenced || !line.starts_with("#")) continue;
    const size_t start = line.find_first_not_of('#');
    if (start == std::string::npos || line[start] != ' ') continue;
    std::string anchor;
    for (char c : line.substr(start + 1)) {
      const auto u = static_cast<unsigned char>(c);
      if (u >= 0x80 || std::isalnum(u) || c == '-' || c == '_') {
        anchor += static_cast<char>(std::tolower(u));
      } else if (c == ' ') {
        anchor += '-';
      }
    }
    out.insert(anchor);
  }
  return out;
}

// Adds +1 (or `delta`) per occurrence of each C++ identifier in `text` to `counts`.
inline void CountIdentifiers(const std::string& text, std::map<std::string, int>& counts,
                             int delta = 1) {
  auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < text.size();) {
    if (!is_word(text[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && is_word(text[j])) ++j;
    counts[text.substr(i, j - i)] += delta;
    i = j;
  }
}

}  // namespace commsim::testing

#endif  // COMMSIM_APP_REPO_TEXT_TEST_UTIL_H_
