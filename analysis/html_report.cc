#include "analysis/html_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "analysis/gnuplot.h"
#include "analysis/markdown_html.h"
#include "base/error.h"
#include "base/input_file.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxImageBytes = 16 << 20;
constexpr size_t kMaxScenarioBytes = 1 << 20;

constexpr const char* kStyle = R"(
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
       color: #1d1d1f; background: #fff; margin: 0; }
main { max-width: 1100px; margin: 0 auto; padding: 1.5em 2em 3em; }
h1 { font-size: 1.6em; border-bottom: 2px solid #ddd; padding-bottom: .3em; }
h2 { font-size: 1.25em; margin-top: 1.8em; }
table { border-collapse: collapse; margin: .8em 0 1.2em; font-variant-numeric: tabular-nums; }
th, td { padding: .3em .7em; border-bottom: 1px solid #e3e3e3; text-align: left; }
td { white-space: nowrap; } .table { overflow-x: auto; }
th { background: #f5f5f7; border-bottom: 2px solid #ccc; }
td.r, th.r { text-align: right; } td.c, th.c { text-align: center; }
tbody tr:hover { background: #fafafa; }
figure { margin: 1.2em 0; } figure img { width: 100%; max-width: 1000px; height: auto;
       border: 1px solid #eee; }
figcaption { color: #555; font-size: .9em; margin-top: .3em; }
code, pre { font: 13px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; }
pre { background: #f6f8fa; padding: 1em; overflow: auto; max-height: 40em; }
.missing { color: #a00; } footer { margin-top: 3em; color: #777; font-size: .85em; }
)";

// The file's bytes, or nullopt when it is missing, not a regular file, or larger than `limit`
// (checked on the opened file, base/input_file.h).
std::optional<std::string> ReadSmallFile(const fs::path& path, size_t limit) {
  try {
    return ReadInputFile(path.string(), {.noun = "file", .max_bytes = limit, .max_shown = ""});
  } catch (const UserError&) {
    return std::nullopt;
  }
}

// "plots/<name>.png" -> <name>, or "" when the path has any other shape.
std::string PlotName(const std::string& path) {
  const std::string prefix = "plots/", suffix = ".png";
  if (!path.starts_with(prefix) || !path.ends_with(suffix)) return "";
  const std::string name = path.substr(prefix.size(), path.size() - prefix.size() - suffix.size());
  if (name.empty()) return "";
  for (const char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return "";
  }
  return name;
}

std::string Figure(const fs::path& dir, const std::string& path, const std::string& caption) {
  const std::string name = PlotName(path);
  std::optional<std::string> bytes;
  const char* mime = "image/svg+xml";
  if (!name.empty()) {
    bytes = ReadSmallFile(dir / "plots" / (name + ".svg"), kMaxImageBytes);
    if (!bytes) {
      bytes = ReadSmallFile(dir / "plots" / (name + ".png"), kMaxImageBytes);
      mime = "image/png";
    }
  }
  if (!bytes) {
    return fmt::format("<p class=\"missing\">Plot not found: {}</p>\n", HtmlEscape(path));
  }
  return fmt::format(
      "<figure id=\"plot-{0}\"><img src=\"data:{1};base64,{2}\" alt=\"{3}\">"
      "<figcaption>{3} (<code>plots/{0}.{{png,svg,pdf}}</code>)</figcaption></figure>\n",
      name, mime, Base64(*bytes), HtmlEscape(SanitizeText(caption)));
}

// SanitizeText line by line: keeps the newlines, replaces invalid UTF-8 and other controls.
std::string SanitizeLines(std::string_view text) {
  std::string out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find('\n', start), text.size());
    out += SanitizeText(text.substr(start, end - start));
    if (end < text.size()) out += '\n';
    start = end + 1;
  }
  return out;
}

std::string JsonText(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

// Top-level fields of summary.json except the per-entry list, objects flattened one level.
std::vector<std::pair<std::string, std::string>> Environment(const fs::path& dir) {
  std::vector<std::pair<std::string, std::string>> rows;
  const std::optional<std::string> text = ReadSmallFile(dir / "summary.json", kMaxScenarioBytes);
  if (!text) return rows;
  const nlohmann::json doc = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return rows;
  for (const auto& [key, value] : doc.items()) {
    if (key == "algorithms") continue;
    if (value.is_object()) {
      for (const auto& [sub, v] : value.items()) rows.emplace_back(key + "." + sub, JsonText(v));
    } else {
      rows.emplace_back(key, JsonText(value));
    }
  }
  return rows;
}

std::string EnvironmentSection(const fs::path& dir, const std::string& generator) {
  std::string out = "<h2>Environment</h2>\n";
  const auto rows = Environment(dir);
  if (rows.empty()) {
    out +=
        "<p>Not recorded in this folder's outputs (no environment fields in summary.json).</p>\n";
  } else {
    out += "<table>\n<tbody>\n";
    for (const auto& [key, value] : rows) {
      out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", HtmlEscape(SanitizeText(key)),
                         HtmlEscape(SanitizeText(value)));
    }
    out += "</tbody>\n</table>\n";
  }
  if (!generator.empty()) {
    out += fmt::format("<p>Report written by {}.</p>\n", HtmlEscape(generator));
  }
  return out;
}

std::string ScenarioSection(const fs::path& dir) {
  for (const char* file : {"scenario.resolved.json", "sweep.resolved.json"}) {
    const std::optional<std::string> text = ReadSmallFile(dir / file, kMaxScenarioBytes);
    if (!text) continue;
    return fmt::format(
        "<h2>Scenario</h2>\n<p>As run, with every default filled in (<code>{}</code>):</p>\n"
        "<pre>{}</pre>\n",
        file, HtmlEscape(SanitizeLines(*text)));
  }
  return "<h2>Scenario</h2>\n<p>No resolved scenario in this folder.</p>\n";
}

}  // namespace

std::string ReportName(const std::string& dir) {
  for (const char* file : {"scenario.resolved.json", "sweep.resolved.json"}) {
    const std::optional<std::string> text = ReadSmallFile(fs::path(dir) / file, kMaxScenarioBytes);
    if (!text) continue;
    const nlohmann::json doc = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_object() && doc.contains("name") && doc["name"].is_string()) {
      return SanitizeText(doc["name"].get<std::string>());
    }
  }
  return SanitizeText(fs::path(dir).filename().string());
}

std::string ReportTimeModel(const std::string& dir) {
  const std::optional<std::string> text =
      ReadSmallFile(fs::path(dir) / "summary.json", kMaxScenarioBytes);
  if (!text) return "";
  const nlohmann::json doc = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || !doc.contains("time_model") || !doc["time_model"].is_string()) return "";
  return SanitizeText(doc["time_model"].get<std::string>());
}

namespace {

std::string Title(const std::string& markdown) {
  if (markdown.starts_with("# ")) {
    return markdown.substr(
        2, markdown.find('\n') == std::string::npos ? std::string::npos : markdown.find('\n') - 2);
  }
  return "commsim report";
}

}  // namespace

std::string HtmlReport(const std::string& dir, const std::string& markdown,
                       const std::string& generator) {
  const fs::path folder(dir);
  const HtmlImage image = [&](const std::string& path, const std::string& caption) {
    return Figure(folder, path, caption);
  };
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n<main>\n",
      kReportCsp, HtmlEscape(SanitizeText(Title(markdown))), kStyle);
  out += MarkdownToHtml(markdown, image);
  out += EnvironmentSection(folder, generator);
  out += ScenarioSection(folder);
  out +=
      "<footer>Self-contained page: the plots are embedded; the PNG, SVG and PDF files and the "
      "gnuplot scripts are in the folder's plots/.</footer>\n";
  return out + "</main>\n</body>\n</html>\n";
}

}  // namespace commsim
