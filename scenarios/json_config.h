// Strict JSON <-> typed Config (with scenarios/, the only code that reads raw JSON keys).
//
// ReadConfig walks a Config's Describe() list against a JSON object: every key it names is read
// with its type and range checked; keys not named are errors with a did-you-mean; missing keys
// keep the config's default. Problems are collected (never only the first) as
// "/json/pointer: expected ..., got ..." lines in an ErrorList, which the caller turns into one
// UserError prefixed with the file name.
// Quantities with a Unit accept numbers (SI base units) or strings such as "1Gbps", "200Mbps",
// "50us", "2ms", "1.5e6", "12kB" (bytes) or "100kbit".
#ifndef COMMSIM_SCENARIOS_JSON_CONFIG_H_
#define COMMSIM_SCENARIOS_JSON_CONFIG_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "base/params.h"
#include "scenarios/component_kinds.h"

namespace commsim {

// The problems found in one input, in the order found. Adding is O(1) (amortised) whatever the
// count, so a file with many problems is reported in time linear in its size.
class ErrorList {
 public:
  // Problems Format shows; the rest are counted in one last line.
  static constexpr size_t kMaxShownProblems = 20;

  // `pointer` is a JSON pointer ("" for the document root). An exact repeat is ignored.
  void Add(std::string_view pointer, std::string message);
  bool empty() const { return lines_.empty(); }
  size_t size() const { return lines_.size(); }
  // The first kMaxShownProblems problems, one per line, each as "<file>: <pointer>: <message>",
  // then "<file>: ... and <n> more problems" when there are more.
  std::string Format(std::string_view file) const;
  // Throws UserError(Format(file)) when any problem was recorded.
  void ThrowIfAny(std::string_view file) const;

 private:
  std::vector<std::pair<std::string, std::string>> lines_;
  std::unordered_set<std::string> seen_;  // pointer + '\0' + message of each line
};

// Reads `obj` (at JSON pointer `pointer`) into `config`. `ignore` lists keys handled by the caller
// (e.g. "name" of a component) that are therefore not unknown.
// Nested components are looked up in `kinds` (default: every kind of the program).
void ReadConfig(const nlohmann::json& obj, const std::string& pointer, Config& config,
                ErrorList& errors, std::initializer_list<std::string_view> ignore = {},
                const ComponentKinds& kinds = AllComponentKinds());

// Reads a component object {"name": "...", <params>} or a bare string "name" into spec, whose
// `kind` must already be set (it selects the registry; see component_kinds.h). An unknown name is
// an error with a did-you-mean over the registry's names. When the object has no "name" and `spec`
// already holds a component, its parameters are read on top of that component's current config
// (so `"uplink": {"block": 128}` tweaks an algorithm's default compressor).
// `also_known` names keys the caller reads itself (e.g. an algorithm entry's "label"): the caller
// removes them from `value`, and they appear in unknown-key hints.
void ReadComponent(const nlohmann::json& value, const std::string& pointer, ComponentSpec& spec,
                   ErrorList& errors, const ComponentKinds& kinds = AllComponentKinds(),
                   std::initializer_list<std::string_view> also_known = {});

// The config with every field written out (defaults included): the "resolved" form.
nlohmann::json WriteConfig(Config& config);
nlohmann::json WriteComponent(const ComponentSpec& spec);

// Parses a number or a unit string into SI base units. nullopt and `error` set on failure.
std::optional<double> ParseQuantity(const nlohmann::json& value, Unit unit, std::string* error);

// `value` as JSON text for messages, cut to 60 characters ("..." marks the cut).
std::string ShownJson(const nlohmann::json& value);

// "/a/b" + "c" -> "/a/b/c", escaping '~' and '/' in the key as JSON pointers require.
std::string JoinPointer(std::string_view pointer, std::string_view key);

// The closest candidate by edit distance, or "" when none is close enough to suggest.
std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates);

// JSON text limits: nesting depth of arrays and objects, and the size of a JSON file.
inline constexpr size_t kMaxJsonDepth = 256;
inline constexpr uintmax_t kMaxJsonFileBytes = uintmax_t{64} << 20;

// Parses a JSON document (comments allowed). Errors are UserErrors naming `origin`: a syntax
// error or a number beyond a double's range as "origin:line:col: invalid JSON: ...", a duplicate
// key as "origin: /pointer: duplicate key", nesting deeper than kMaxJsonDepth with its pointer.
nlohmann::json ParseJsonText(std::string_view text, const std::string& origin);
// The same, but a syntax error gives nullopt instead (e.g. a --set value that is plain text);
// the limits (depth, duplicate keys) still throw.
std::optional<nlohmann::json> TryParseJsonText(std::string_view text, const std::string& origin);
// Reads and parses a JSON file: it must be a regular file of at most kMaxJsonFileBytes.
nlohmann::json LoadJsonFile(const std::string& path);

// Sets doc[pointer] = value (RFC 6901 pointer), creating missing objects on the way; an array
// index must name an existing element. Returns "" or the problem, in the user's terms.
std::string SetAtPointer(nlohmann::json& doc, const std::string& pointer,
                         const nlohmann::json& value);
// Splits a JSON pointer into unescaped tokens; false when it is not a valid non-root pointer.
bool SplitPointer(const std::string& pointer, std::vector<std::string>* tokens);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_JSON_CONFIG_H_
