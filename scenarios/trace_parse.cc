// ParseTrace (trace_file.h): every line checked, every count bounded before anything is
// allocated, so a damaged or hostile trace is a UserError naming the line.
#include <fmt/format.h>

#include <charconv>
#include <optional>
#include <utility>

#include "algorithms/registry.h"
#include "base/error.h"
#include "scenarios/trace_file.h"

namespace commsim {
namespace {

constexpr int64_t kMaxRounds = 1'000'000'000'000;  // per entry (runs of equal rounds: cheap)
constexpr int64_t kMaxSlots = 1'000'000;           // per round
constexpr int64_t kMaxEntries = 1'000'000;
constexpr int64_t kMaxParts = 1'000'000;

class Parser {
 public:
  Parser(std::string_view text, const std::string& origin) : text_(text), origin_(origin) {}

  // Reads the next line into tokens(); false at the end of the text.
  bool Next() {
    if (pos_ >= text_.size()) return false;
    const size_t eol = text_.find('\n', pos_);
    line_text_ = text_.substr(pos_, eol == std::string_view::npos ? eol : eol - pos_);
    pos_ = eol == std::string_view::npos ? text_.size() : eol + 1;
    ++line_;
    tokens_.clear();
    for (size_t start = 0; start <= line_text_.size();) {
      const size_t space = line_text_.find(' ', start);
      const size_t end = space == std::string_view::npos ? line_text_.size() : space;
      tokens_.push_back(line_text_.substr(start, end - start));
      start = end + 1;
    }
    return true;
  }
  void Require(const char* what) {
    if (!Next()) Fail(fmt::format("expected {}, got the end of the file (truncated?)", what));
  }
  [[noreturn]] void Fail(const std::string& message) const {
    throw UserError(fmt::format("{}:{}: {}", origin_, line_, message));
  }
  const std::vector<std::string_view>& tokens() const { return tokens_; }
  std::string_view line() const { return line_text_; }
  std::string_view word() const { return tokens_[0]; }
  void Fields(size_t n, const char* form) const {
    if (tokens_.size() != n) {
      Fail(fmt::format("expected `{}` ({} fields), got {} fields", form, n, tokens_.size()));
    }
  }
  int64_t Int(size_t i, const char* what, int64_t min, int64_t max) const {
    const std::string_view t = tokens_[i];
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size() || v < min || v > max) {
      Fail(fmt::format("{}: expected an integer in [{}, {}], got {:?}", what, min, max, t));
    }
    return v;
  }
  std::optional<double> Real(std::string_view t, const char* what) const {
    if (t == "-") return std::nullopt;
    double v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size()) {
      Fail(fmt::format("{}: expected a real number or -, got {:?}", what, t));
    }
    return v;
  }
  // A registered compressor's name (its static storage) or "" for `-`.
  std::string_view Codec(size_t i) const {
    const std::string_view t = tokens_[i];
    if (t == "-") return {};
    const auto* entry = CompressorRegistry().Find(t);
    if (entry == nullptr) Fail(fmt::format("codec: expected a compressor name or -, got {:?}", t));
    return entry->name;
  }

 private:
  std::string_view text_;
  std::string origin_;
  size_t pos_ = 0;
  size_t line_ = 0;
  std::string_view line_text_;
  std::vector<std::string_view> tokens_;
};

MessageShape ShapeFields(const Parser& p, size_t first) {
  return MessageShape{.payload_bits = p.Int(first, "bits", 0, INT64_MAX / 4),
                      .codec = p.Codec(first + 1),
                      .elements = p.Int(first + 2, "elements", 0, INT64_MAX / 4),
                      .nonzeros = p.Int(first + 3, "nonzeros", -1, INT64_MAX / 4)};
}

// Reads a `shape` line (current) and its `part` lines.
MessageShape ReadShape(Parser& p, size_t expected_id) {
  p.Fields(7, "shape <id> <bits> <codec> <elements> <nonzeros> <parts>");
  if (p.Int(1, "shape id", 0, INT32_MAX) != static_cast<int64_t>(expected_id)) {
    p.Fail(fmt::format("expected shape id {} (ids count up from 0), got {}", expected_id,
                       p.tokens()[1]));
  }
  MessageShape shape = ShapeFields(p, 2);
  const int64_t parts = p.Int(6, "parts", 0, kMaxParts);
  for (int64_t i = 0; i < parts; ++i) {
    p.Require("a `part` line");
    if (p.word() != "part") p.Fail(fmt::format("expected a `part` line, got {:?}", p.word()));
    p.Fields(5, "part <bits> <codec> <elements> <nonzeros>");
    shape.parts.push_back(ShapeFields(p, 1));
  }
  return shape;
}

struct EntryData {
  std::vector<MessageShape> shapes;
  std::vector<RoundRun> runs;
  int64_t rounds = 0;
  std::vector<IterationRecord> learning;
};

void ReadRounds(const Parser& p, EntryData& e) {
  if (p.tokens().size() < 2) p.Fail("expected `rounds <count> <slot>...`");
  const int64_t count = p.Int(1, "round count", 1, kMaxRounds);
  if (p.tokens().size() - 2 > static_cast<size_t>(kMaxSlots)) {
    p.Fail(fmt::format("more than {} slots in a round", kMaxSlots));
  }
  if (e.rounds + count > kMaxRounds) {
    p.Fail(fmt::format("more than {} rounds in an entry", kMaxRounds));
  }
  RoundRun run{.count = count};
  for (size_t i = 2; i < p.tokens().size(); ++i) {
    run.slots.push_back(
        p.tokens()[i] == "-"
            ? Trajectory::kNoMessage
            : static_cast<int32_t>(p.Int(i, "slot", 0, static_cast<int64_t>(e.shapes.size()) - 1)));
  }
  e.runs.push_back(std::move(run));
  e.rounds += count;
}

void ReadRecord(const Parser& p, EntryData& e) {
  if (p.tokens().size() < 7)
    p.Fail("expected `record <iteration> <loss> <dist> <acc> <cons> <dens> ...`");
  IterationRecord r;
  r.iteration = p.Int(1, "iteration", 0, INT64_MAX);
  if (!e.learning.empty() && r.iteration <= e.learning.back().iteration) {
    p.Fail(fmt::format("iteration {} after iteration {}: expected increasing iterations",
                       r.iteration, e.learning.back().iteration));
  }
  const std::optional<double> loss = p.Real(p.tokens()[2], "loss");
  if (!loss) p.Fail("loss: expected a real number, got -");
  r.loss = *loss;
  r.dist_to_opt_sq = p.Real(p.tokens()[3], "dist_to_opt_sq");
  r.test_accuracy = p.Real(p.tokens()[4], "test_accuracy");
  r.consensus_dist = p.Real(p.tokens()[5], "consensus_dist");
  r.density = p.Real(p.tokens()[6], "density");
  for (size_t i = 7; i < p.tokens().size(); ++i) {
    const std::string_view kv = p.tokens()[i];
    const size_t eq = kv.find('=');
    if (eq == 0 || eq == std::string_view::npos) {
      p.Fail(fmt::format("expected <key>=<value>, got {:?}", kv));
    }
    const std::optional<double> v = p.Real(kv.substr(eq + 1), "extra value");
    if (!v) p.Fail(fmt::format("extra {:?}: expected a real number", kv.substr(0, eq)));
    r.extra[std::string(kv.substr(0, eq))] = *v;
  }
  e.learning.push_back(std::move(r));
}

// Reads an entry's lines after `entry`; leaves the parser on the next `entry` or `end` line.
Trajectory ReadEntry(Parser& p) {
  EntryData e;
  while (true) {
    p.Require("`end`");
    const std::string_view w = p.word();
    if (w == "entry" || w == "end") break;
    if (w == "shape") {
      e.shapes.push_back(ReadShape(p, e.shapes.size()));
    } else if (w == "rounds") {
      ReadRounds(p, e);
    } else if (w == "record") {
      ReadRecord(p, e);
    } else {
      p.Fail(fmt::format("expected shape, rounds, record, entry or end, got {:?}", w));
    }
  }
  if (e.learning.empty()) p.Fail("the entry before this line has no `record` line");
  return Trajectory::FromParts(std::move(e.shapes), std::move(e.runs), std::move(e.learning));
}

void ReadHeader(Parser& p, TraceFile& trace) {
  p.Require("the integrity line");  // checked whole by CheckTraceIntegrity
  p.Require("`base_dir <JSON string>`");
  const std::string_view base = p.line().substr(std::min<size_t>(9, p.line().size()));
  if (p.word() != "base_dir") p.Fail(fmt::format("expected `base_dir`, got {:?}", p.word()));
  const nlohmann::json dir = nlohmann::json::parse(base, nullptr, /*allow_exceptions=*/false);
  if (!dir.is_string()) p.Fail("base_dir: expected a JSON string");
  trace.base_dir = dir.get<std::string>();
  p.Require("`scenario <JSON object>`");
  if (p.word() != "scenario") p.Fail(fmt::format("expected `scenario`, got {:?}", p.word()));
  trace.scenario = nlohmann::json::parse(p.line().substr(std::min<size_t>(9, p.line().size())),
                                         nullptr, /*allow_exceptions=*/false);
  if (!trace.scenario.is_object()) p.Fail("scenario: expected a JSON object on one line");
}

}  // namespace

TraceFile ParseTrace(std::string_view text, const std::string& origin) {
  CheckTraceIntegrity(text, origin);
  Parser p(text, origin);
  TraceFile trace;
  ReadHeader(p, trace);
  p.Require("`entry` or `end`");
  while (p.word() != "end") {
    if (p.word() != "entry") p.Fail(fmt::format("expected `entry` or `end`, got {:?}", p.word()));
    p.Fields(3, "entry <index> <label>");
    const auto index = static_cast<size_t>(p.Int(1, "entry index", 0, kMaxEntries));
    if (!trace.entries.empty() && index <= trace.entries.rbegin()->first) {
      p.Fail("entry indices must increase");
    }
    std::string label(p.tokens()[2]);
    if (label.empty()) p.Fail("entry: expected a label");
    Trajectory t = ReadEntry(p);
    trace.entries.emplace(index, TraceEntry{std::move(label), std::move(t)});
  }
  p.Fields(1, "end");
  while (p.Next()) {
    if (!p.line().empty()) p.Fail("expected nothing after `end`");
  }
  return trace;
}

}  // namespace commsim
