#include "sim/input_file.h"

#include <fmt/format.h>

#include <filesystem>
#include <system_error>

#include "sim/error.h"

namespace commsim {

uintmax_t CheckInputFile(const std::string& path, const InputFileRule& rule) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status))
    throw UserError(fmt::format("{}: cannot open {}", path, rule.noun));
  if (!fs::is_regular_file(status)) {
    throw UserError(fmt::format("{}: not a regular file (a {} is expected)", path, rule.noun));
  }
  const uintmax_t size = fs::file_size(path, ec);
  if (ec || size > rule.max_bytes) {
    throw UserError(fmt::format("{}: {} bytes is more than the {} a {} may have", path,
                                ec ? 0 : size, rule.max_shown, rule.noun));
  }
  return size;
}

}  // namespace commsim
