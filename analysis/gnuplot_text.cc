// Colours, entry styles and safe text for gnuplot (see gnuplot.h).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>

#include "analysis/gnuplot.h"

namespace commsim {
namespace {

constexpr const char* kFallbackColors[] = {"#8c564b", "#bcbd22", "#393b79", "#637939",
                                           "#8c6d31", "#843c39", "#7b4173", "#3182bd"};

// Filled shapes first (they read best at small sizes), then open ones, then strokes.
constexpr int kMarkers[kDistinctMarkers] = {7, 5, 9, 13, 11, 6, 4, 8, 12, 10, 15, 14, 1, 2, 3};

// Shade k >= 1 of a colour: alternately lighter (mixed with white) and darker (mixed with black).
std::string Shade(const std::string& color, int k) {
  const long rgb = std::stol(color.substr(1), nullptr, 16);
  const int level = (k + 1) / 2;  // 1, 1, 2, 2, 3, 3, ...
  const double t = std::fmod(0.25 + 0.2 * level, 0.8);
  const bool lighter = k % 2 == 1;
  auto mix = [&](int channel) {
    const double c = (rgb >> channel) & 0xff;
    return static_cast<int>(std::lround(lighter ? c + (255 - c) * t : c * (1 - t)));
  };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(16), mix(8), mix(0));
}

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is invalid.
size_t Utf8Length(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = byte(i);
  size_t n = 0;
  unsigned lo = 0x80, hi = 0xbf;  // allowed range of the second byte
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) {
    n = 2;
  } else if (b >= 0xe0 && b <= 0xef) {  // no overlong forms, no UTF-16 surrogates
    n = 3;
    lo = b == 0xe0 ? 0xa0 : 0x80;
    hi = b == 0xed ? 0x9f : 0xbf;
  } else if (b >= 0xf0 && b <= 0xf4) {  // no overlong forms, nothing above U+10FFFF
    n = 4;
    lo = b == 0xf0 ? 0x90 : 0x80;
    hi = b == 0xf4 ? 0x8f : 0xbf;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  }
  return n;
}

}  // namespace

bool IsRgb(std::string_view color) {
  return color.size() == 7 && color[0] == '#' &&
         std::all_of(color.begin() + 1, color.end(),
                     [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

std::string AlgorithmColor(std::string_view algorithm, std::string_view color) {
  if (IsRgb(color)) {
    std::string out(color);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  }
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char c : algorithm) h = (h ^ c) * 0x100000001b3ULL;
  return kFallbackColors[h % std::size(kFallbackColors)];
}

std::vector<SeriesStyle> EntryStyles(const std::vector<std::string>& algorithms,
                                     const std::vector<std::string>& colors) {
  std::vector<SeriesStyle> styles;
  std::set<std::string> used;
  std::map<std::string, int> ordinal;  // entries of each algorithm seen so far
  for (size_t i = 0; i < algorithms.size(); ++i) {
    const std::string base =
        AlgorithmColor(algorithms[i], i < colors.size() ? colors[i] : std::string_view());
    const int k = ordinal[base]++;
    std::string color = k == 0 ? base : Shade(base, k);
    for (int extra = 1; used.count(color) > 0; ++extra) {
      // A shade taken by another entry (or two algorithms sharing a fallback colour): walk on,
      // through further shades and then through other colours (there are 2^24).
      const long rgb = (std::stol(base.substr(1), nullptr, 16) + extra * 0x050301) & 0xffffff;
      color = extra <= 16 ? Shade(base, k + extra) : fmt::format("#{:06x}", rgb);
    }
    used.insert(color);
    styles.push_back({color, 1 + k % 5, kMarkers[i % kDistinctMarkers]});
  }
  return styles;
}

std::string SanitizeText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t n = Utf8Length(text, i);
    if (n == 0) {
      out += "\xef\xbf\xbd";  // U+FFFD
      ++i;
      continue;
    }
    const unsigned char b = static_cast<unsigned char>(text[i]);
    const bool c0 = n == 1 && (b < 0x20 || b == 0x7f);
    // C1 controls (U+0080..U+009F) and the Unicode line and paragraph separators.
    const bool c1 = n == 2 && b == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0;
    const bool separator = n == 3 && text.substr(i, 2) == "\xe2\x80" &&
                           (text[i + 2] == '\xa8' || text[i + 2] == '\xa9');
    if (c0 || c1 || separator) {
      out += ' ';
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string GnuplotString(std::string_view text) {
  // Gnuplot's '' escape is unreliable (a literal starting with '' ends there, and runs of ''
  // break), so an apostrophe is written as the typographic one: the literal holds no quote.
  std::string out = "'";
  for (const char c : SanitizeText(text)) {
    if (c == '\'') {
      out += "’";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string GnuplotTicLabel(std::string_view text) {
  std::string doubled;
  for (const char c : text) {
    doubled += c;
    if (c == '%') doubled += '%';
  }
  return GnuplotString(doubled);
}

bool LogScaleFits(const std::vector<double>& values, double min_ratio) {
  double lo = INFINITY, hi = 0;
  for (const double v : values) {
    if (!std::isfinite(v)) continue;
    if (v <= 0) return false;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  return hi > 0 && hi >= min_ratio * lo;
}

std::optional<FigureSize> ParseFigureSize(std::string_view text) {
  if (text == "page") return FigureSize::kPage;
  if (text == "column") return FigureSize::kColumn;
  return std::nullopt;
}

std::string_view FigureSizeName(FigureSize size) {
  return size == FigureSize::kColumn ? "column" : "page";
}

}  // namespace commsim
