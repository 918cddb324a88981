#include "scenarios/output_name.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace commsim {

std::string OutputNameProblem(std::string_view name) {
  bool control = false;
  for (const char c : name) control = control || static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  const bool bad = name.empty() || name.size() > kMaxOutputNameBytes ||
                   name.find_first_of("/\\") != std::string_view::npos ||
                   name.find("..") != std::string_view::npos || name.front() == '.' || control;
  if (!bad) return "";
  // dump() escapes control characters; invalid UTF-8 is replaced rather than thrown on.
  std::string shown = nlohmann::json(std::string(name.substr(0, 120)))
                          .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (name.size() > 120) shown += "...";
  return fmt::format(
      "expected a name usable as a folder name (1 to {} bytes; no '/', '\\', '..' or control "
      "characters; not starting with '.'), got {}",
      kMaxOutputNameBytes, shown);
}

}  // namespace commsim
