// Helpers shared by the libFuzzer drivers (the *_fuzz.cc files, built only with COMMSIM_FUZZ=ON by
// clang; see cmake/commsim_module.cmake). Nothing else may include this header.
//
// A driver's contract: bad input ends in UserError or DecodeError (the expected outcome); any
// other exception, a crash, a sanitizer report or a hang is a finding. FuzzGuard turns an
// unexpected exception into an abort that prints its text, so libFuzzer saves the input.
//
// ScratchDir() is a private folder made once per process (removed at exit) where drivers write
// the fuzz input as the file the code under test reads. FillConfig() sets the fields a Config's
// Describe() lists from fuzz bytes, within each field's range, with integers capped so the work
// per input stays bounded.
#ifndef COMMSIM_BASE_FUZZ_SUPPORT_H_
#define COMMSIM_BASE_FUZZ_SUPPORT_H_

#include <fuzzer/FuzzedDataProvider.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/params.h"

namespace commsim::fuzz {

// Runs fn(); UserError and DecodeError are swallowed, anything else aborts with its text.
template <class Fn>
void FuzzGuard(Fn&& fn) {
  try {
    fn();
  } catch (const UserError&) {
  } catch (const DecodeError&) {
  } catch (const std::exception& e) {
    std::fprintf(stderr, "unexpected exception (not UserError/DecodeError): %s\n", e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "unexpected non-std exception\n");
    std::abort();
  }
}

// The whole entry point of a driver that reads its input through a FuzzedDataProvider: an input
// over `max_bytes` is skipped (bounds the work per input), any other goes to fuzz_one.
inline int FuzzWithProvider(const uint8_t* data, size_t size, size_t max_bytes,
                            void (*fuzz_one)(FuzzedDataProvider&)) {
  if (size > max_bytes) return 0;
  FuzzedDataProvider in(data, size);
  fuzz_one(in);
  return 0;
}

// The same for a driver that reads its input as text: an input over `max_bytes` is skipped, any
// other goes to fuzz_one inside FuzzGuard.
inline int FuzzText(const uint8_t* data, size_t size, size_t max_bytes,
                    void (*fuzz_one)(std::string_view text)) {
  if (size > max_bytes) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  FuzzGuard([&] { fuzz_one(text); });
  return 0;
}

// Two files from one input: the text before the first form feed ('\f') and the text after it, or
// `second_default` when there is none.
inline std::pair<std::string_view, std::string_view> SplitAtFormFeed(
    std::string_view text, std::string_view second_default) {
  const size_t cut = text.find('\f');
  if (cut == std::string_view::npos) return {text, second_default};
  return {text.substr(0, cut), text.substr(cut + 1)};
}

// Aborts with `what` when cond is false (a property of the code under test was violated).
inline void FuzzCheck(bool cond, std::string_view what) {
  if (!cond) {
    std::fprintf(stderr, "fuzz property violated: %.*s\n", static_cast<int>(what.size()),
                 what.data());
    std::abort();
  }
}

inline const std::filesystem::path& ScratchDir() {
  static const std::filesystem::path dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "commsim-fuzz-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      std::perror("mkdtemp");
      std::abort();
    }
    static const std::string made = pattern;
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(made, ec);
    });
    return std::filesystem::path(pattern);
  }();
  return dir;
}

// Writes bytes to ScratchDir()/name (creating parent folders) and returns the path.
inline std::string WriteScratchFile(const std::string& name, const void* data, size_t size) {
  const std::filesystem::path path = ScratchDir() / name;
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  out.close();
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::abort();
  }
  return path.string();
}

// Fills a config from fuzz bytes. Each field keeps its default, takes a range end, or takes a
// value drawn inside its range (integers within [-int_cap, int_cap], reals within
// [-real_cap, real_cap]). Free-text fields and nested components keep their defaults; lists get
// at most list_cap items.
class FuzzConfigFiller final : public ParamVisitor {
 public:
  FuzzConfigFiller(FuzzedDataProvider& in, int64_t int_cap, double real_cap = 1e6,
                   size_t list_cap = 4)
      : in_(in), int_cap_(int_cap), real_cap_(real_cap), list_cap_(list_cap) {}

  void Int(std::string_view, int64_t& value, Range range, std::string_view, Unit) override {
    const double lo_d =
        std::max(range.lo + (range.lo_open ? 1 : 0), -static_cast<double>(int_cap_));
    const double hi_d = std::min(range.hi - (range.hi_open ? 1 : 0), static_cast<double>(int_cap_));
    if (!(lo_d <= hi_d)) return;
    const auto lo = static_cast<int64_t>(std::ceil(lo_d));
    const auto hi = static_cast<int64_t>(std::floor(hi_d));
    switch (in_.ConsumeIntegralInRange<int>(0, 3)) {
      case 0:
        return;  // default
      case 1:
        value = lo;
        return;
      case 2:
        value = std::min(hi, lo + in_.ConsumeIntegralInRange<int64_t>(0, 16));
        return;
      default:
        value = in_.ConsumeIntegralInRange<int64_t>(lo, hi);
        return;
    }
  }
  void Real(std::string_view, double& value, Range range, std::string_view, Unit) override {
    if (in_.ConsumeBool()) return;
    const double lo = std::max(range.lo, -real_cap_);
    const double hi = std::min(range.hi, real_cap_);
    if (!(lo <= hi)) return;
    const double v = in_.ConsumeBool() ? (in_.ConsumeBool() ? lo : hi)
                                       : in_.ConsumeFloatingPointInRange<double>(lo, hi);
    if (range.Contains(v)) value = v;
  }
  void Bool(std::string_view, bool& value, std::string_view) override {
    if (in_.ConsumeBool()) value = in_.ConsumeBool();
  }
  void Text(std::string_view, std::string& value, std::span<const std::string_view> choices,
            std::string_view) override {
    if (choices.empty() || in_.ConsumeBool()) return;
    value = std::string(choices[in_.ConsumeIntegralInRange<size_t>(0, choices.size() - 1)]);
  }
  void RealList(std::string_view, std::vector<double>& values, Range range, std::string_view,
                Unit) override {
    if (in_.ConsumeBool()) return;
    const size_t n = in_.ConsumeIntegralInRange<size_t>(0, list_cap_);
    std::vector<double> out;
    for (size_t i = 0; i < n; ++i) {
      const double v = in_.ConsumeFloatingPointInRange<double>(std::max(range.lo, -real_cap_),
                                                               std::min(range.hi, real_cap_));
      const double w = in_.ConsumeBool() ? std::round(v) : v;
      if (range.Contains(w)) out.push_back(w);
    }
    values = std::move(out);
  }
  void Component(std::string_view, ComponentSpec&, std::string_view) override {}

 private:
  FuzzedDataProvider& in_;
  int64_t int_cap_;
  double real_cap_;
  size_t list_cap_;
};

// Fills `config` (see FuzzConfigFiller) and returns whether it passes its own Validate(), i.e.
// whether the scenario parser would have accepted it.
inline bool FillConfig(FuzzedDataProvider& in, Config& config, int64_t int_cap,
                       double real_cap = 1e6, size_t list_cap = 4) {
  FuzzConfigFiller filler(in, int_cap, real_cap, list_cap);
  config.Describe(filler);
  ParamProblems problems;
  config.Validate(problems);
  return problems.empty();
}

}  // namespace commsim::fuzz

#endif  // COMMSIM_BASE_FUZZ_SUPPORT_H_
