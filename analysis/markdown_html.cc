#include "analysis/markdown_html.h"

#include <fmt/format.h>

#include <vector>

namespace commsim {
namespace {

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

bool Blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

std::string_view Trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// Escaped text with `code` spans.
std::string Inline(std::string_view text) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const size_t open = text.find('`', i);
    const size_t close = open == std::string_view::npos ? open : text.find('`', open + 1);
    if (close == std::string_view::npos) {
      out += HtmlEscape(text.substr(i));
      break;
    }
    out += HtmlEscape(text.substr(i, open - i));
    out += "<code>" + HtmlEscape(text.substr(open + 1, close - open - 1)) + "</code>";
    i = close + 1;
  }
  return out;
}

// Cells of a table row: split on '|' (but not "\|"), outer bars dropped, cells trimmed.
std::vector<std::string> Cells(std::string_view row) {
  row = Trim(row);
  if (!row.empty() && row.front() == '|') row.remove_prefix(1);
  if (!row.empty() && row.back() == '|' && !(row.size() >= 2 && row[row.size() - 2] == '\\')) {
    row.remove_suffix(1);
  }
  std::vector<std::string> cells(1);
  for (size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      cells.back() += '|';
      ++i;
    } else if (row[i] == '|') {
      cells.emplace_back();
    } else {
      cells.back() += row[i];
    }
  }
  for (std::string& c : cells) c = std::string(Trim(c));
  return cells;
}

bool IsSeparatorRow(std::string_view line) {
  line = Trim(line);
  if (line.empty() || line.front() != '|') return false;
  return line.find_first_not_of("|-: ") == std::string_view::npos &&
         line.find('-') != std::string_view::npos;
}

std::string AlignAttribute(const std::string& separator_cell) {
  const bool left = !separator_cell.empty() && separator_cell.front() == ':';
  const bool right = !separator_cell.empty() && separator_cell.back() == ':';
  if (left && right) return " class=\"c\"";
  if (right) return " class=\"r\"";
  return "";
}

// Renders the table starting at lines[i] (header, separator, rows); advances i past it.
std::string Table(const std::vector<std::string_view>& lines, size_t& i) {
  const std::vector<std::string> header = Cells(lines[i]);
  const std::vector<std::string> separator = Cells(lines[i + 1]);
  std::vector<std::string> align;
  for (size_t c = 0; c < header.size(); ++c) {
    align.push_back(c < separator.size() ? AlignAttribute(separator[c]) : "");
  }
  std::string out = "<div class=\"table\"><table>\n<thead><tr>";
  for (size_t c = 0; c < header.size(); ++c) {
    out += fmt::format("<th{}>{}</th>", align[c], Inline(header[c]));
  }
  out += "</tr></thead>\n<tbody>\n";
  for (i += 2; i < lines.size() && Trim(lines[i]).starts_with("|"); ++i) {
    const std::vector<std::string> cells = Cells(lines[i]);
    out += "<tr>";
    for (size_t c = 0; c < header.size(); ++c) {
      out += fmt::format("<td{}>{}</td>", align[c], c < cells.size() ? Inline(cells[c]) : "");
    }
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table></div>\n";
}

// An image alone on a line: '!', the caption in square brackets, the path in parentheses.
bool ParseImage(std::string_view line, std::string& caption, std::string& path) {
  line = Trim(line);
  if (!line.starts_with("![") || !line.ends_with(")")) return false;
  const size_t middle = line.find("](");
  if (middle == std::string_view::npos) return false;
  caption = std::string(line.substr(2, middle - 2));
  path = std::string(line.substr(middle + 2, line.size() - middle - 3));
  return true;
}

}  // namespace

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const char* entity = c == '&'    ? "&amp;"
                         : c == '<'  ? "&lt;"
                         : c == '>'  ? "&gt;"
                         : c == '"'  ? "&quot;"
                         : c == '\'' ? "&#39;"
                                     : nullptr;
    if (entity) {
      out += entity;
    } else {
      out += c;
    }
  }
  return out;
}

std::string Base64(std::string_view bytes) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const size_t n = std::min<size_t>(3, bytes.size() - i);
    uint32_t v = 0;
    for (size_t k = 0; k < 3; ++k) {
      v = (v << 8) | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    }
    for (size_t k = 0; k < 4; ++k) {
      out += k <= n ? kDigits[(v >> (18 - 6 * k)) & 63] : '=';
    }
  }
  return out;
}

std::string MarkdownToHtml(std::string_view markdown, const HtmlImage& image) {
  const std::vector<std::string_view> lines = Lines(markdown);
  std::string out, paragraph;
  bool in_list = false;
  auto close_paragraph = [&] {
    if (!paragraph.empty()) out += "<p>" + paragraph + "</p>\n";
    paragraph.clear();
  };
  auto close_blocks = [&] {
    close_paragraph();
    if (in_list) out += "</ul>\n";
    in_list = false;
  };
  for (size_t i = 0; i < lines.size();) {
    const std::string_view line = lines[i];
    const size_t hashes = line.find_first_not_of('#');
    std::string caption, path;
    if (Blank(line)) {
      close_blocks();
    } else if (hashes >= 1 && hashes <= 6 && line.size() > hashes && line[hashes] == ' ') {
      close_blocks();
      out += fmt::format("<h{0}>{1}</h{0}>\n", hashes, Inline(Trim(line.substr(hashes))));
    } else if (Trim(line).starts_with("|") && i + 1 < lines.size() &&
               IsSeparatorRow(lines[i + 1])) {
      close_blocks();
      out += Table(lines, i);
      continue;
    } else if (ParseImage(line, caption, path)) {
      close_blocks();
      out += image(path, caption);
    } else if (line.starts_with("- ")) {
      close_paragraph();
      if (!in_list) out += "<ul>\n";
      in_list = true;
      out += "<li>" + Inline(line.substr(2)) + "</li>\n";
    } else {
      if (in_list) close_blocks();
      paragraph += (paragraph.empty() ? "" : " ") + Inline(Trim(line));
    }
    ++i;
  }
  close_blocks();
  return out;
}

}  // namespace commsim
