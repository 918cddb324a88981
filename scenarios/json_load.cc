// Reading JSON text with limits (json_config.h: LoadJsonFile, ParseJsonText, SetAtPointer).
//
// nlohmann's DOM parser accepts any nesting depth (the recursive dump() and comparisons later
// overflow the stack), silently keeps the last of duplicate keys and reports a too-large number
// as a bare "number overflow". So documents are built through a SAX handler of our own, which
// refuses those three with a message naming the JSON pointer or the line and column.
#include <fmt/format.h>

#include "base/error.h"
#include "base/input_file.h"
#include "scenarios/json_config.h"

namespace commsim {
namespace {

using nlohmann::json;

// A JSON syntax problem at a byte offset; turned into "origin:line:col: ..." by the caller.
struct SyntaxProblem {
  size_t byte = 0;
  std::string message;
};

class CheckedDomBuilder {
 public:
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  CheckedDomBuilder(json& root, const std::string& origin) : root_(root), origin_(origin) {}

  bool null() { return Value(json(nullptr)); }
  bool boolean(bool b) { return Value(json(b)); }
  bool number_integer(number_integer_t v) { return Value(json(v)); }
  bool number_unsigned(number_unsigned_t v) { return Value(json(v)); }
  bool number_float(number_float_t v, const string_t&) { return Value(json(v)); }
  bool string(string_t& s) { return Value(json(std::move(s))); }
  bool binary(binary_t& b) { return Value(json::binary(std::move(b))); }
  bool start_object(std::size_t) { return Open(json::object()); }
  bool start_array(std::size_t) { return Open(json::array()); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool key(string_t& k) {
    json& object = *stack_.back();
    if (object.contains(k)) {
      throw UserError(fmt::format("{}: {}: duplicate key (each key may appear once in an object)",
                                  origin_, Pointer(k)));
    }
    keys_.back() = k;
    slot_ = &object[k];
    return true;
  }
  bool parse_error(std::size_t position, const std::string& token,
                   const nlohmann::detail::exception& e) {
    std::string what = e.what();
    if (e.id == 406) {
      what = fmt::format("number {} is out of range (JSON numbers must be within +-1.8e308)",
                         token.substr(0, 40));
    } else if (const size_t cut = what.find("parse error"); cut != std::string::npos) {
      what = what.substr(cut);
    }
    // A number's error points at its first character (nlohmann gives its last).
    if (e.id == 406 && position >= token.size()) position -= token.size() - 1;
    problem_ = SyntaxProblem{position, what};
    return false;
  }
  const std::optional<SyntaxProblem>& problem() const { return problem_; }

 private:
  bool Value(json&& v) {
    Place(std::move(v));
    return true;
  }
  json* Place(json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    json& parent = *stack_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(v));
      return &parent.back();
    }
    *slot_ = std::move(v);
    return slot_;
  }
  bool Open(json&& container) {
    if (stack_.size() >= kMaxJsonDepth) {
      std::string where = Pointer("");
      if (where.size() > 80) where = where.substr(0, 77) + "...";
      throw UserError(fmt::format("{}: {}: nested deeper than {} levels of arrays and objects",
                                  origin_, where, kMaxJsonDepth));
    }
    stack_.push_back(Place(std::move(container)));
    keys_.emplace_back();
    return true;
  }
  bool Close() {
    stack_.pop_back();
    keys_.pop_back();
    return true;
  }
  // The pointer of the open containers' current children, plus `last` when not empty.
  std::string Pointer(const std::string& last) const {
    std::string out;
    for (size_t i = 0; i + 1 < stack_.size(); ++i) {
      out = stack_[i]->is_array() ? fmt::format("{}/{}", out, stack_[i]->size() - 1)
                                  : JoinPointer(out, keys_[i]);
    }
    if (!last.empty()) out = JoinPointer(out, last);
    return out.empty() ? "/" : out;
  }

  json& root_;
  const std::string& origin_;
  std::vector<json*> stack_;
  std::vector<std::string> keys_;
  json* slot_ = nullptr;
  std::optional<SyntaxProblem> problem_;
};

std::string LineColumn(std::string_view text, size_t byte) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return fmt::format("{}:{}", line, column);
}

// Parses `text`; nullopt with *problem set on a syntax error; throws UserError on a limit.
std::optional<json> Parse(std::string_view text, const std::string& origin,
                          SyntaxProblem* problem) {
  json root;
  CheckedDomBuilder builder(root, origin);
  const bool ok = json::sax_parse(text, &builder, json::input_format_t::json, /*strict=*/true,
                                  /*ignore_comments=*/true);
  if (!ok) {
    *problem = builder.problem().value_or(SyntaxProblem{0, "invalid JSON"});
    return std::nullopt;
  }
  return root;
}

// The element `token` names in an array of `size`, or nullopt: decimal digits without a
// leading zero, below size (so no overflow however long the token).
std::optional<size_t> ArrayIndex(const std::string& t, size_t size) {
  if (t.empty() || t.size() > 18 || t.find_first_not_of("0123456789") != std::string::npos ||
      (t.size() > 1 && t[0] == '0')) {
    return std::nullopt;
  }
  const size_t index = std::stoull(t);
  if (index >= size) return std::nullopt;
  return index;
}

}  // namespace

bool SplitPointer(const std::string& pointer, std::vector<std::string>* tokens) {
  if (pointer.size() < 2 || pointer[0] != '/') return false;
  tokens->clear();
  std::string token;
  for (size_t i = 1; i <= pointer.size(); ++i) {
    if (i == pointer.size() || pointer[i] == '/') {
      tokens->push_back(std::move(token));
      token.clear();
    } else if (pointer[i] == '~') {
      if (i + 1 >= pointer.size() || (pointer[i + 1] != '0' && pointer[i + 1] != '1')) return false;
      token += pointer[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      token += pointer[i];
    }
  }
  return true;
}

std::string SetAtPointer(json& doc, const std::string& pointer, const json& value) {
  std::vector<std::string> tokens;
  if (!SplitPointer(pointer, &tokens)) {
    return fmt::format("expected a JSON pointer such as \"/network/bandwidth\", got \"{}\"",
                       pointer);
  }
  json* node = &doc;
  std::string walked;
  for (const std::string& t : tokens) {
    if (node->is_null()) *node = json::object();
    if (node->is_object()) {
      node = &(*node)[t];
    } else if (node->is_array()) {
      const std::optional<size_t> index = ArrayIndex(t, node->size());
      if (!index) {
        return fmt::format("{} is an array of {} in the scenario; \"{}\" is not an index in it",
                           walked.empty() ? "/" : walked, node->size(), t);
      }
      node = &(*node)[*index];
    } else {
      return fmt::format("{} is {} in the scenario, so \"{}\" cannot be set inside it",
                         walked.empty() ? "/" : walked, ShownJson(*node), t);
    }
    walked = JoinPointer(walked, t);
  }
  *node = value;
  return "";
}

json ParseJsonText(std::string_view text, const std::string& origin) {
  SyntaxProblem problem;
  std::optional<json> doc = Parse(text, origin, &problem);
  if (!doc) {
    throw UserError(fmt::format("{}:{}: invalid JSON: {}", origin, LineColumn(text, problem.byte),
                                problem.message));
  }
  return std::move(*doc);
}

std::optional<json> TryParseJsonText(std::string_view text, const std::string& origin) {
  SyntaxProblem problem;
  return Parse(text, origin, &problem);
}

json LoadJsonFile(const std::string& path) {
  static_assert(kMaxJsonFileBytes == uintmax_t{64} << 20, "the limit shown below");
  return ParseJsonText(
      ReadInputFile(path,
                    {.noun = "JSON file", .max_bytes = kMaxJsonFileBytes, .max_shown = "64 MiB"}),
      path);
}

}  // namespace commsim
