#include "base/private_folder.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "base/error.h"

namespace commsim {

PrivateFolder::PrivateFolder(const std::string& prefix) {
  const char* tmp = std::getenv("TMPDIR");
  const std::string base = tmp != nullptr && tmp[0] == '/' ? tmp : "/tmp";
  std::string pattern = fmt::format("{}/{}.XXXXXX", base, prefix);
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  if (::mkdtemp(name.data()) == nullptr) {
    throw UserError(
        fmt::format("{}: cannot make a temporary folder: {}", base, std::strerror(errno)));
  }
  path_ = name.data();
}

PrivateFolder::~PrivateFolder() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);  // made by mkdtemp above: only this process wrote there
}

}  // namespace commsim
