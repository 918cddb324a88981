// The small Markdown subset that commsim's reports are written in, rendered to HTML.
//
// Recognised, line by line: headings (`#` .. `######` + space), pipe tables (a header row, a
// `|---|---:|` row giving each column's alignment, then rows; `\|` is a literal bar in a cell),
// images alone on a line ('!', then the caption in square brackets, then the path in
// parentheses), bullet items (`- `), and paragraphs (consecutive other lines). Inline: `code`
// spans. Everything else is text.
//
// Safety contract: every piece of input text is HTML-escaped (& < > " '), so no input can create
// an element, attribute or entity; the only markup in the output is the one listed above. Image
// paths are never turned into URLs by this code: the caller's `image` callback decides what an
// image becomes (and gets the path and caption as plain, unescaped text).
#ifndef COMMSIM_ANALYSIS_MARKDOWN_HTML_H_
#define COMMSIM_ANALYSIS_MARKDOWN_HTML_H_

#include <functional>
#include <string>
#include <string_view>

namespace commsim {

// `text` with &, <, >, " and ' replaced by entities.
std::string HtmlEscape(std::string_view text);

// Standard base64 (RFC 4648, with padding).
std::string Base64(std::string_view bytes);

// The HTML for one image line: receives (path, caption) and returns finished HTML.
using HtmlImage = std::function<std::string(const std::string& path, const std::string& caption)>;

// The HTML body for `markdown` (see the header comment for the subset).
std::string MarkdownToHtml(std::string_view markdown, const HtmlImage& image);

}  // namespace commsim

#endif  // COMMSIM_ANALYSIS_MARKDOWN_HTML_H_
