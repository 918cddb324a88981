// libFuzzer driver: commsim's folders as a careless or hostile user leaves them. The input is a
// sequence of operations on one folder: the user's (files, folders, links to a folder outside,
// forged lines appended to the ownership record) and commsim's (WriteFile, MakeFolder, ReadFile,
// RemoveOwned, RemoveAllOwned, ForeignEntries, the checks) on a small alphabet of paths, including
// ones that are not plain relative paths. Properties: the folder outside never changes; every file
// the user made is, at the end, still there with its content (unless the user replaced it, or gave
// it one of the names commsim reserves at the top of its folders); commsim's operations end
// normally or in UserError.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "base/fuzz_support.h"
#include "base/owned_folder.h"

namespace {

namespace fs = std::filesystem;

const char* const kPaths[] = {"a",
                              "points/0.csv",
                              "points/007.csv",
                              "plots/x.png",
                              "runs/1/m.csv",
                              "runs/1",
                              "runs",
                              "points",
                              "plots",
                              "..",
                              "../outside/canary",
                              "a/../b",
                              "",
                              "/tmp/x",
                              "p//q",
                              ".commsim-owned"};

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Removes whatever is at `p` without following links.
void Clear(const fs::path& p) {
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(p, ec))) {
    fs::remove(p, ec);
  } else {
    fs::remove_all(p, ec);
  }
}

// True when every folder between `folder` and `at` is a real folder (the user's own operations,
// like commsim's, never go through a link: only what commsim does is under test).
bool RealParents(const fs::path& folder, const fs::path& at) {
  std::error_code ec;
  for (fs::path q = at.parent_path(); q != folder && q.has_relative_path(); q = q.parent_path()) {
    if (!fs::is_directory(fs::symlink_status(q, ec))) return false;
  }
  return true;
}

void FuzzOne(FuzzedDataProvider& in) {
  using namespace commsim;
  const fs::path root = fuzz::ScratchDir() / "case";
  Clear(root);
  fs::create_directories(root / "f");
  fs::create_directories(root / "outside");
  std::ofstream(root / "outside" / "canary") << "outside";
  const fs::path folder = root / "f";
  std::map<std::string, std::string> user;  // files the user made: path -> content
  OwnedFolder owned(folder.string());
  const auto forget = [&user](const std::string& rel) {  // the user replaced what was at rel
    for (auto it = user.begin(); it != user.end();) {
      const bool below = it->first == rel || it->first.rfind(rel + "/", 0) == 0;
      it = below ? user.erase(it) : std::next(it);
    }
  };
  for (int op = 0; op < 24 && in.remaining_bytes() > 0; ++op) {
    const std::string rel = kPaths[in.ConsumeIntegralInRange<size_t>(0, std::size(kPaths) - 1)];
    const bool plain = !rel.empty() && rel[0] != '/' && rel.find("..") == std::string::npos &&
                       rel.find("//") == std::string::npos;
    const fs::path at = folder / rel;
    std::error_code ec;
    switch (in.ConsumeIntegralInRange<int>(0, 10)) {
      case 0:  // the user writes a file
        if (!plain || !RealParents(folder, at)) break;
        Clear(at);
        forget(rel);
        if (IsReservedName(rel)) break;  // commsim's by name in its folders (owned_folder.h)
        user[rel] = in.ConsumeRandomLengthString(16);
        std::ofstream(at, std::ios::binary) << user[rel];
        break;
      case 1:  // the user puts a link to the outside folder there
        if (!plain || !RealParents(folder, at)) break;
        Clear(at);
        forget(rel);
        fs::create_directory_symlink(root / "outside", at, ec);
        break;
      case 2:  // the user makes a folder
        if (!plain || !RealParents(folder, at)) break;
        Clear(at);
        forget(rel);
        fs::create_directories(at, ec);
        break;
      case 3:  // the user forges a record line
        std::ofstream(folder / ".commsim-owned", std::ios::app)
            << in.ConsumeRandomLengthString(64) << "\n";
        break;
      case 4:
        fuzz::FuzzGuard([&] { owned.WriteFile(rel, in.ConsumeRandomLengthString(16)); });
        break;
      case 5:
        fuzz::FuzzGuard([&] { owned.MakeFolder(rel); });
        break;
      case 6:
        fuzz::FuzzGuard([&] { owned.ReadFile(rel, 64); });
        break;
      case 7:
        fuzz::FuzzGuard([&] { owned.RemoveOwned(rel); });
        break;
      case 8:
        fuzz::FuzzGuard([&] { owned.ForeignEntries(rel, 4); });
        break;
      case 9:
        fuzz::FuzzGuard([&] { owned.RemoveAllOwned(); });
        break;
      default:  // (Record is not fuzzed: it declares an entry commsim itself just made)
        fuzz::FuzzGuard([&] {
          owned.OwnedEntries(rel);
          owned.CheckFolderIfPresent(rel);
          owned.CheckReplaceable(rel);
        });
        break;
    }
  }
  fuzz::FuzzCheck(Slurp(root / "outside" / "canary") == "outside", "the outside file changed");
  fuzz::FuzzCheck(std::distance(fs::directory_iterator(root / "outside"), {}) == 1,
                  "something was written outside the folder");
  for (const auto& [rel, content] : user) {
    std::error_code ec;
    fuzz::FuzzCheck(fs::is_regular_file(fs::symlink_status(folder / rel, ec)),
                    "a file of the user's vanished: " + rel);
    fuzz::FuzzCheck(Slurp(folder / rel) == content, "a file of the user's changed: " + rel);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return commsim::fuzz::FuzzWithProvider(data, size, 4096, FuzzOne);
}
