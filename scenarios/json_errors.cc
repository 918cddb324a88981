// Error reporting helpers of the JSON reader (json_config.h): the problem list, JSON pointers and
// did-you-mean suggestions.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "base/error.h"
#include "scenarios/json_config.h"

namespace commsim {
namespace {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

void ErrorList::Add(std::string_view pointer, std::string message) {
  // The same problem found twice (e.g. a scenario-level codec inherited by every entry) is
  // reported once; the set keeps this check O(1) however many problems there are.
  std::string key(pointer);
  key += '\0';
  key += message;
  if (!seen_.insert(std::move(key)).second) return;
  lines_.emplace_back(std::string(pointer), std::move(message));
}

std::string ErrorList::Format(std::string_view file) const {
  std::string out;
  const size_t shown = std::min(lines_.size(), kMaxShownProblems);
  for (size_t i = 0; i < shown; ++i) {
    if (i) out += '\n';
    out += fmt::format("{}: {}: {}", file, lines_[i].first.empty() ? "/" : lines_[i].first,
                       lines_[i].second);
  }
  if (lines_.size() > shown) {
    out += fmt::format("\n{}: ... and {} more problems", file, lines_.size() - shown);
  }
  return out;
}

void ErrorList::ThrowIfAny(std::string_view file) const {
  if (!empty()) throw UserError(Format(file));
}

std::string JoinPointer(std::string_view pointer, std::string_view key) {
  std::string out(pointer);
  out += '/';
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  if (word.size() > 200) return best;  // no suggestion for a huge word (and no O(n^2) work)
  size_t best_distance = std::max<size_t>(2, word.size() / 3) + 1;
  for (const std::string& c : candidates) {
    const size_t d = EditDistance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

}  // namespace commsim
