#include "games/gomoku/eval_weights.hpp"

#include <fmt/format.h>

#include <atomic>
#include <deque>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "games/gomoku/patterns.hpp"
#include "games/gomoku/position_detail.hpp"

namespace kibitz::gomoku {

// The compiled-in files (generated from data/gomoku by CMake).
std::string_view builtin_eval_text(Rule r);

namespace {

using detail::EvalTables;

constexpr int kRules = 4;

// Packed per-entry counters (bit offset / width): fives 0/3, overlines 3/3, fours 6/4,
// straight fours 10/3, free threes 13/3, threes 16/3, flex twos 19/3, twos 22/3, captures
// 25/4; the pattern's weight from bit 32 (summed over a point's four lines, so never
// negative).
std::uint64_t entry_counters(int e) {
  const auto entry = static_cast<detail::Entry>(e);
  const Pattern p = detail::entry_pattern(entry);
  if (static_cast<int>(p) > static_cast<int>(Pattern::kOverline)) return 0;
  std::uint64_t x = 0;
  x |= std::uint64_t{p == Pattern::kFive} << 0;
  x |= std::uint64_t{p == Pattern::kOverline} << 3;
  x |= static_cast<std::uint64_t>(detail::entry_fours(entry)) << 6;
  x |= std::uint64_t{detail::entry_straight_four(entry)} << 10;
  x |= std::uint64_t{p == Pattern::kFlexThree} << 13;
  x |= std::uint64_t{p == Pattern::kThree} << 16;
  x |= std::uint64_t{p == Pattern::kFlexTwo} << 19;
  x |= std::uint64_t{p == Pattern::kTwo} << 22;
  x |= static_cast<std::uint64_t>(detail::entry_captures(entry)) << 25;
  return x;
}

const EvalTables* make_tables(const EvalWeights& w) {
  // Tables are never freed: positions keep a pointer to the ones they were built with.
  static std::deque<EvalTables> all;
  static std::mutex m;
  const std::lock_guard lock(m);
  EvalTables& t = all.emplace_back();
  for (int e = 0; e < 128; ++e) {
    const auto p = static_cast<int>(detail::entry_pattern(static_cast<detail::Entry>(e)));
    if (p > static_cast<int>(Pattern::kOverline)) continue;
    t.entry_info[e] = entry_counters(e) | static_cast<std::uint64_t>(w.pattern[p]) << 32;
  }
  t.to_move = w.to_move;
  for (int mode = 0; mode < 3; ++mode)
    for (int i = 0; i < detail::kComboSize; ++i) {
      const std::uint16_t summary = detail::kCombo[mode][i];
      const int shape = detail::kShapeOfCombo[i];  // kShapes: none, no weight
      const int add =
          w.combination[detail::summary_threat(summary)] + (shape < kShapes ? w.shape[shape] : 0);
      t.point[mode][i] = summary | static_cast<std::uint32_t>(static_cast<std::uint16_t>(add))
                                       << 16;
    }
  // The direct tables hold, for every four line codes, what the summed path above gives.
  for (int table = 0; table < 4; ++table) {
    const int mode = table < 3 ? table : detail::kCaptureRule;
    std::vector<std::uint32_t>& direct = t.direct[table];
    direct.assign(EvalTables::kDirectSize, 0);
    for (int index = 0; index < EvalTables::kDirectSize; ++index) {
      std::uint64_t sum = 0;
      bool valid = true;
      for (int d = 0; d < 4 && valid; ++d) {
        const int code = (index >> (4 * d)) & 15;
        valid = code <= 10;
        int entry = detail::entry_of_code(code);
        if (table == 3 && d == 0) entry |= 1 << 5;  // one pair captured along the line
        sum += t.entry_info[entry];
      }
      if (!valid) continue;
      int value = 0;
      const std::uint16_t summary = detail::summarise_valued(sum, t, mode, 0, value);
      direct[index] =
          (summary & 0xff0fu) | static_cast<std::uint32_t>(static_cast<std::uint16_t>(value)) << 16;
    }
  }
  t.tempo = w.tempo;
  t.parent_share = w.parent_share;
  t.weights = w;
  return &t;
}

struct Registry {
  std::array<std::atomic<const EvalTables*>, kRules> tables;
  Registry() {
    for (int r = 0; r < kRules; ++r) tables[r] = make_tables(builtin_eval_weights(Rule(r)));
  }
};

Registry& registry() {
  static Registry r;
  return r;
}

tl::unexpected<Error> bad(const std::string& why) {
  return kibitz::fail("gomoku eval weights: {}", why);
}

template <std::size_t N>
Result<std::array<int, 10>> read_table(const nlohmann::json& j, const char* key,
                                       const std::array<std::string_view, N>& names, int lo,
                                       int hi) {
  std::array<int, 10> out{};
  if (!j.contains(key) || !j[key].is_object())
    return kibitz::fail("gomoku eval weights: '{}' must be an object", key);
  for (const auto& [name, value] : j[key].items()) {
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) return kibitz::fail("gomoku eval weights: unknown {} '{}'", key, name);
    if (!value.is_number_integer())
      return kibitz::fail("gomoku eval weights: {}.{} must be an integer", key, name);
    const auto v = value.template get<long long>();
    if (v < lo || v > hi)
      return kibitz::fail("gomoku eval weights: {}.{} = {} is outside {}..{}", key, name, v, lo,
                          hi);
    out[static_cast<std::size_t>(it - names.begin())] = static_cast<int>(v);
  }
  return out;
}

}  // namespace

std::string shape_name(int shape) {
  const int fours = shape % 2, flex_threes = shape / 2 % 3, threes = shape / 6 % 2,
            flex_twos = shape / 12 % 3, twos = shape / 36;
  return fmt::format("{}{}{}{}{}", fours, flex_threes, threes, flex_twos, twos);
}

Result<EvalWeights> parse_eval_weights(std::string_view text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return bad(fmt::format("not JSON (byte {})", e.byte));
  } catch (const nlohmann::json::exception&) {
    return bad("not JSON (a number out of range)");  // the parser's out_of_range.406
  }
  if (!j.is_object()) return bad("not a JSON object");
  if (!j.contains("format") || j["format"] != "kibitz-gomoku-eval")
    return bad("\"format\" must be \"kibitz-gomoku-eval\"");
  if (!j.contains("version") || j["version"] != 1) return bad("\"version\" must be 1");
  EvalWeights w;
  auto pattern = read_table(j, "pattern", kPatternNames, 0, kMaxPatternWeight);
  if (!pattern) return tl::unexpected(pattern.error());
  auto combination =
      read_table(j, "combination", kThreatNames, -kMaxCombinationWeight, kMaxCombinationWeight);
  if (!combination) return tl::unexpected(combination.error());
  w.pattern = *pattern;
  w.combination = *combination;
  // Optional: files made before the side-to-move terms existed have none.
  if (j.contains("to_move")) {
    auto to_move =
        read_table(j, "to_move", kThreatNames, -kMaxCombinationWeight, kMaxCombinationWeight);
    if (!to_move) return tl::unexpected(to_move.error());
    w.to_move = *to_move;
  }
  // Optional as well: a shape not listed weighs 0.
  if (j.contains("shape")) {
    if (!j["shape"].is_object()) return bad("'shape' must be an object");
    for (const auto& [name, value] : j["shape"].items()) {
      int index = -1;
      for (int i = 0; i < kShapes; ++i)
        if (shape_name(i) == name) index = i;
      if (index < 0) return bad(fmt::format("unknown shape '{}'", name));
      if (!value.is_number_integer()) return bad(fmt::format("shape.{} must be an integer", name));
      const auto v = value.get<long long>();
      if (v < -kMaxCombinationWeight || v > kMaxCombinationWeight)
        return bad(fmt::format("shape.{} = {} is outside {}..{}", name, v, -kMaxCombinationWeight,
                               kMaxCombinationWeight));
      w.shape[index] = static_cast<int>(v);
    }
  }
  if (!j.contains("tempo") || !j["tempo"].is_number_integer())
    return bad("\"tempo\" must be an integer");
  const auto tempo = j["tempo"].get<long long>();
  if (tempo < -kMaxTempo || tempo > kMaxTempo)
    return bad(fmt::format("tempo = {} is outside {}..{}", tempo, -kMaxTempo, kMaxTempo));
  w.tempo = static_cast<int>(tempo);
  // Optional: zero (this ply's score alone) where absent.
  if (j.contains("parent_share")) {
    if (!j["parent_share"].is_number_integer()) return bad("\"parent_share\" must be an integer");
    const auto share = j["parent_share"].get<long long>();
    if (share < 0 || share > 100)
      return bad(fmt::format("parent_share = {} is outside 0..100", share));
    w.parent_share = static_cast<int>(share);
  }
  if (j.contains("rule")) {
    if (!j["rule"].is_string()) return bad("\"rule\" must be a string");
    w.rule = j["rule"].get<std::string>();
    if (w.rule != "any" && !parse_rule(w.rule))
      return bad(fmt::format("unknown rule '{}'", w.rule));
  }
  if (j.contains("made_by") && j["made_by"].is_string())
    w.made_by = j["made_by"].get<std::string>();
  return w;
}

Result<EvalWeights> load_eval_weights(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return kibitz::fail("cannot read '{}'", path);
  std::ostringstream text;
  text << f.rdbuf();
  auto w = parse_eval_weights(text.str());
  if (!w) return kibitz::fail("{}: {}", path, w.error().message);
  return w;
}

std::string format_eval_weights(const EvalWeights& w) {
  const auto table = [](const std::array<int, 10>& v, const auto& names) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i)
      s += fmt::format("{}\"{}\": {}", i ? ", " : "", names[i], v[i]);
    return s;
  };
  // Shapes: the non-zero ones, eight to a line.
  std::string shapes;
  int listed = 0;
  for (int i = 0; i < kShapes; ++i) {
    if (w.shape[i] == 0) continue;
    shapes += fmt::format("{}{}\"{}\": {}", listed ? "," : "", listed % 8 ? " " : "\n    ",
                          shape_name(i), w.shape[i]);
    ++listed;
  }
  return fmt::format(
      "{{\n  \"format\": \"kibitz-gomoku-eval\",\n  \"version\": 1,\n  \"rule\": {},\n"
      "  \"made_by\": {},\n  \"pattern\": {{{}}},\n  \"combination\": {{{}}},\n"
      "  \"to_move\": {{{}}},\n  \"shape\": {{{}{}}},\n  \"tempo\": {}{}\n}}\n",
      nlohmann::json(w.rule).dump(), nlohmann::json(w.made_by).dump(),
      table(w.pattern, kPatternNames), table(w.combination, kThreatNames),
      table(w.to_move, kThreatNames), shapes, listed ? "\n  " : "", w.tempo,
      w.parent_share ? fmt::format(",\n  \"parent_share\": {}", w.parent_share) : "");
}

const EvalWeights& builtin_eval_weights(Rule r) {
  static const std::array<EvalWeights, kRules> all = [] {
    std::array<EvalWeights, kRules> out;
    for (int i = 0; i < kRules; ++i) {
      auto w = parse_eval_weights(builtin_eval_text(Rule(i)));
      // The files are compiled in and a test parses each: a bad one is a build defect.
      if (!w) {
        fmt::print(stderr, "kibitz: built-in {}\n", w.error().message);
        std::abort();
      }
      out[i] = *w;
    }
    return out;
  }();
  return all[static_cast<std::size_t>(r)];
}

void set_eval_weights(Rule r, const EvalWeights& w) {
  registry().tables[static_cast<std::size_t>(r)].store(make_tables(w));
}

const EvalWeights& eval_weights(Rule r) { return detail::eval_tables(r)->weights; }

namespace detail {
const EvalTables* eval_tables(Rule r) {
  return registry().tables[static_cast<std::size_t>(r)].load(std::memory_order_acquire);
}
}  // namespace detail

}  // namespace kibitz::gomoku
