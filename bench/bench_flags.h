// The command line of a bench program: "--name value" pairs, read by name.
//
// Each reader sets its value only when the flag was given. Ok() then reports (with the usage line,
// on stderr) a flag that no reader took or a flag left without its value, so a typo does not
// silently time the defaults.
#ifndef COMMSIM_BENCH_BENCH_FLAGS_H_
#define COMMSIM_BENCH_BENCH_FLAGS_H_

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace bench {

class Flags {
 public:
  Flags(int argc, char** argv) : complete_(argc % 2 == 1) {
    for (int i = 1; i + 1 < argc; i += 2) values_[argv[i]] = argv[i + 1];
  }

  void Text(const std::string& name, std::string& value) {
    if (const auto it = values_.find(name); it != values_.end()) {
      value = it->second;
      read_.insert(name);
    }
  }

  // A whole number, raised to `min` when smaller.
  template <class Int>
  void Number(const std::string& name, Int& value, Int min) {
    std::string text;
    Text(name, text);
    if (!text.empty()) value = std::max(min, static_cast<Int>(std::stoll(text)));
  }

  bool Ok(std::string_view usage) const {
    const bool ok = complete_ && read_.size() == values_.size();
    if (!ok) fmt::print(stderr, "usage: {}\n", usage);
    return ok;
  }

 private:
  bool complete_;
  std::map<std::string, std::string> values_;
  std::set<std::string> read_;
};

}  // namespace bench

#endif  // COMMSIM_BENCH_BENCH_FLAGS_H_
