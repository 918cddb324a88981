// The integrity line of trace files (trace_file.h): `commsim-trace 2 bytes <count> crc32 <hex>`.
#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "base/error.h"
#include "scenarios/checksum.h"
#include "scenarios/trace_file.h"

namespace commsim {
namespace {

struct IntegrityLine {
  unsigned long long bytes = 0;
  unsigned int crc = 0;
};

std::string Format(const IntegrityLine& l) {
  return fmt::format("commsim-trace {} bytes {} crc32 {:08x}", kTraceVersion, l.bytes, l.crc);
}

// Parses the integrity line strictly: it must be exactly what Format writes.
bool Parse(const std::string& line, IntegrityLine* out) {
  int version = 0;
  int consumed = 0;
  if (std::sscanf(line.c_str(), "commsim-trace %d bytes %llu crc32 %8x%n", &version, &out->bytes,
                  &out->crc, &consumed) != 3 ||
      version != kTraceVersion || static_cast<size_t>(consumed) != line.size()) {
    return false;
  }
  return Format(*out) == line;  // rejects signs, leading zeros, upper case, extra spaces
}

std::string_view FirstLine(std::string_view text) { return text.substr(0, text.find('\n')); }

std::string_view Body(std::string_view text) {
  const size_t newline = text.find('\n');
  return newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
}

// The error for a first line that is not a version-2 integrity line.
[[noreturn]] void RefuseFirstLine(const std::string& line, const std::string& origin) {
  constexpr std::string_view kPrefix = "commsim-trace ";
  if (line.rfind(kPrefix, 0) != 0) {
    throw UserError(
        fmt::format("{}:1: expected `commsim-trace {} bytes <count> crc32 <hex>` (not "
                    "a commsim trace file?)",
                    origin, kTraceVersion));
  }
  const std::string version =
      line.substr(kPrefix.size(), line.find(' ', kPrefix.size()) - kPrefix.size());
  if (version == "1") {
    throw UserError(fmt::format(
        "{}:1: trace version 1 has no checksum, so a damaged copy cannot be told from a good "
        "one, and this commsim reads version {} only; write the trace again with `commsim run "
        "--trace`",
        origin, kTraceVersion));
  }
  if (version != std::to_string(kTraceVersion)) {
    throw UserError(
        fmt::format("{}:1: trace version {:?} is not supported (this commsim reads "
                    "version {})",
                    origin, version, kTraceVersion));
  }
  throw UserError(
      fmt::format("{}:1: expected `commsim-trace {} bytes <count> crc32 <8 hex "
                  "digits>`, got {:?}",
                  origin, kTraceVersion, line.substr(0, 100)));
}

}  // namespace

std::string TraceIntegrityLine(std::string_view body) { return Format({body.size(), Crc32(body)}); }

void CheckTraceIntegrity(std::string_view text, const std::string& origin) {
  const std::string first(FirstLine(text).substr(0, 200));
  IntegrityLine head;
  if (!Parse(first, &head)) RefuseFirstLine(first, origin);
  const std::string_view body = Body(text);
  const std::string again = "; write the trace again with `commsim run --trace`";
  if (body.size() < head.bytes) {
    throw UserError(fmt::format("{}: cut short: {} bytes after the first line, which says {}{}",
                                origin, body.size(), head.bytes, again));
  }
  if (body.size() > head.bytes) {
    throw UserError(fmt::format("{}: extended: {} bytes after the first line, which says {}{}",
                                origin, body.size(), head.bytes, again));
  }
  if (const uint32_t crc = Crc32(body); crc != head.crc) {
    throw UserError(
        fmt::format("{}: changed since commsim wrote it: its content's crc32 is {:08x}, "
                    "the first line says {:08x}{}",
                    origin, crc, head.crc, again));
  }
}

std::string ResealTrace(std::string_view text) {
  const std::string_view body = Body(text);
  return TraceIntegrityLine(body) + "\n" + std::string(body);
}

}  // namespace commsim
