#include "app/home.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>

#include "base/error.h"

namespace commsim::app {
namespace {

namespace fs = std::filesystem;

constexpr const char* kMarker = "scenarios/quickstart.json";

bool IsHome(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / kMarker, ec);
}

}  // namespace

std::optional<std::string> CommsimHome() {
  const char* env = std::getenv("COMMSIM_HOME");
  if (env != nullptr && env[0] != '\0') {
    if (!IsHome(env)) {
      throw UserError(fmt::format("COMMSIM_HOME={}: not a commsim folder (no {})", env, kMarker));
    }
    return fs::absolute(env).lexically_normal().string();
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return std::nullopt;
  for (fs::path dir = exe.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    if (IsHome(dir)) return dir.string();
    if (dir == dir.root_path()) break;
  }
  return std::nullopt;
}

std::string RequireHome(const std::string& what) {
  if (std::optional<std::string> home = CommsimHome()) return *home;
  throw UserError(fmt::format(
      "cannot find {}: no folder above the commsim binary holds {}; set COMMSIM_HOME to the "
      "commsim folder (the one with scenarios/ and data/)",
      what, kMarker));
}

void UseHomeDataDir() {
  const char* data = std::getenv("COMMSIM_DATA_DIR");
  if (data != nullptr && data[0] != '\0') return;
  const std::optional<std::string> home = CommsimHome();
  if (home) ::setenv("COMMSIM_DATA_DIR", (fs::path(*home) / "data").c_str(), /*overwrite=*/1);
}

}  // namespace commsim::app
