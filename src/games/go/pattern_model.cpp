// The learned move-prediction model (see pattern_model.hpp).
#include "games/go/pattern_model.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>

namespace kibitz::go {

std::string_view builtin_pattern_text();  // generated from data/go/patterns.json

namespace {

constexpr std::string_view kFormat = "kibitz-go-patterns";
constexpr int kVersion = 1;

// The key of a fixed shape (the 3x3 at the centre of an empty 9x9 board): a weights file
// written with other pattern keys (another Zobrist seed or point order) is refused.
std::uint64_t key_check() {
  Position p(Rules{.size = 9});
  return pattern_keys(p, point_of(4, 4)).key[0] ^ pattern_keys(p, point_of(0, 0)).key[3];
}

std::string hex(std::uint64_t v) { return fmt::format("{:016x}", v); }

bool parse_hex(const std::string& s, std::uint64_t& v) {
  if (s.size() != 16) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  return r.ec == std::errc{} && r.ptr == s.data() + s.size();
}

bool good_gamma(double g) { return g >= kMinGamma && g <= kMaxGamma; }

}  // namespace

PatternModel::PatternModel() : PatternModel(std::vector<PatternEntry>{}) {}

PatternModel::PatternModel(std::vector<PatternEntry> patterns) : patterns_(std::move(patterns)) {
  offset_[0] = 0;
  for (int g = 0; g < kNumFeatureGroups; ++g)
    offset_[g + 1] = offset_[g] + (g == kPatternGroup ? num_patterns() + 1 : kFixedGroupSizes[g]);
  gamma_.assign(static_cast<std::size_t>(offset_.back()), 1.0f);
  for (int i = 0; i < num_patterns(); ++i)
    gamma_[static_cast<std::size_t>(offset_[kPatternGroup] + 1 + i)] = patterns_[i].gamma;
  build_table();
}

void PatternModel::build_table() {
  const std::size_t cap = std::bit_ceil(std::max<std::size_t>(16, patterns_.size() * 2));
  table_keys_.assign(cap, 0);
  table_values_.assign(cap, 0);
  table_mask_ = cap - 1;
  for (int i = 0; i < num_patterns(); ++i) {
    std::uint64_t slot = patterns_[i].key & table_mask_;
    while (table_keys_[slot] != 0 && table_keys_[slot] != patterns_[i].key)
      slot = (slot + 1) & table_mask_;
    table_keys_[slot] = patterns_[i].key;
    table_values_[slot] = i + 1;
  }
}

int PatternModel::pattern_value(const PatternKeys& keys) const {
  const PatternTableView table{table_keys_.data(), table_values_.data(), table_mask_};
  for (int s = kNumPatternSizes - 1; s >= 0; --s)
    if (const int v = table.find(keys.key[s])) return v;
  return 0;
}

MoveFeatures PatternModel::features(const Position& p, Move m) const {
  MoveFeatures f = move_features(p, m);
  if (m.is_point())
    f.value[kPatternGroup] =
        listed_pattern(p, m.sq, {table_keys_.data(), table_values_.data(), table_mask_});
  return f;
}

void PatternModel::clamp_gammas() {
  for (float& g : gamma_) g = static_cast<float>(std::clamp<double>(g, kMinGamma, kMaxGamma));
}

double PatternModel::strength(const MoveFeatures& f) const {
  double s = 1.0;
  for (int g = 0; g < kNumFeatureGroups; ++g)
    if (f.value[g] != kNoFeature) s *= gamma_[offset_[g] + f.value[g]];
  return s;
}

void PatternModel::priors(const Position& p, std::span<const Move> moves,
                          std::span<float> out) const {
  // In double: with gammas in [1e-6, 1e6] a product of the 9 groups cannot overflow.
  std::array<double, Position::kMaxMoves> s;
  double sum = 0.0;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    s[i] = strength(p, moves[i]);
    sum += s[i];
  }
  for (std::size_t i = 0; i < moves.size(); ++i) out[i] = static_cast<float>(s[i] / sum);
}

std::string PatternModel::to_json() const {
  // Written by hand, one pattern a line, so the file diffs and reads well.
  std::ostringstream o;
  o << "{\n";
  o << "  \"format\": \"" << kFormat << "\",\n";
  o << "  \"version\": " << kVersion << ",\n";
  o << "  \"made_by\": " << nlohmann::json(made_by).dump() << ",\n";
  o << "  \"key_check\": \"" << hex(key_check()) << "\",\n";
  o << "  \"groups\": {\n";
  for (int g = 0; g < kNumFeatureGroups; ++g) {
    o << "    \"" << (g == kPatternGroup ? "unlisted" : kFeatureGroupNames[g]) << "\": [";
    const int n = g == kPatternGroup ? 1 : group_size(g);
    for (int v = 0; v < n; ++v) o << (v ? ", " : "") << fmt::format("{:.5g}", gamma(g, v));
    o << "]" << (g + 1 < kNumFeatureGroups ? "," : "") << "\n";
  }
  o << "  },\n";
  o << "  \"patterns\": [";
  for (int i = 0; i < num_patterns(); ++i)
    o << (i ? ",\n    " : "\n    ") << "[" << patterns_[i].size << ", \"" << hex(patterns_[i].key)
      << "\", " << fmt::format("{:.5g}", gamma(kPatternGroup, i + 1)) << "]";
  o << "\n  ]\n}\n";
  return o.str();
}

Result<PatternModel> PatternModel::parse(std::string_view text, std::string_view source) {
  auto bad = [&](const std::string& why) -> Result<PatternModel> {
    return kibitz::fail("{}: {}", source, why);
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // syntax, or a number out of range
    return bad(fmt::format("not JSON: {}", one_line(e.what())));
  }
  if (!j.is_object()) return bad("expected a JSON object");
  if (j.value("format", std::string{}) != kFormat)
    return bad(fmt::format("'format' must be \"{}\"", kFormat));
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"] != kVersion)
    return bad(fmt::format("'version' must be {}", kVersion));
  if (!j.contains("key_check") || !j["key_check"].is_string() ||
      j["key_check"].get<std::string>() != hex(key_check()))
    return bad("'key_check' does not match this program's pattern keys (made by another version)");
  if (!j.contains("groups") || !j["groups"].is_object()) return bad("'groups' must be an object");
  if (!j.contains("patterns") || !j["patterns"].is_array())
    return bad("'patterns' must be an array");

  std::vector<PatternEntry> entries;
  entries.reserve(j["patterns"].size());
  for (std::size_t i = 0; i < j["patterns"].size(); ++i) {
    const auto& e = j["patterns"][i];
    std::uint64_t key = 0;
    if (!e.is_array() || e.size() != 3 || !e[0].is_number_integer() || !e[1].is_string() ||
        !e[2].is_number() || !parse_hex(e[1].get<std::string>(), key) || key == 0)
      return bad(fmt::format("patterns[{}] must be [size, \"16 hex digits\", gamma]", i));
    const std::int64_t size = e[0].get<std::int64_t>();
    const double g = e[2].get<double>();
    if (size < 0 || size >= kNumPatternSizes)
      return bad(
          fmt::format("patterns[{}]: size {} is outside 0..{}", i, size, kNumPatternSizes - 1));
    if (!good_gamma(g))
      return bad(
          fmt::format("patterns[{}]: gamma {} is not in [{}, {}]", i, g, kMinGamma, kMaxGamma));
    entries.push_back({key, static_cast<int>(size), static_cast<float>(g)});
  }
  PatternModel m(std::move(entries));
  {
    std::size_t used = 0;
    for (const auto k : m.table_keys_) used += k != 0;
    if (used != m.patterns_.size()) return bad("'patterns' lists a key twice");
  }

  for (const auto& [name, values] : j["groups"].items()) {
    int g = -1;
    for (int i = 0; i < kNumFeatureGroups; ++i)
      if (name == (i == kPatternGroup ? "unlisted" : kFeatureGroupNames[i])) g = i;
    if (g < 0) return bad(fmt::format("unknown group '{}'", one_line(name)));
    const int n = g == kPatternGroup ? 1 : m.group_size(g);
    if (!values.is_array() || static_cast<int>(values.size()) != n)
      return bad(fmt::format("groups.{} must be an array of {} gammas", name, n));
    for (int v = 0; v < n; ++v) {
      if (!values[v].is_number() || !good_gamma(values[v].get<double>()))
        return bad(fmt::format("groups.{}[{}] must be a gamma in [{}, {}]", name, v, kMinGamma,
                               kMaxGamma));
      m.gamma_[static_cast<std::size_t>(m.offset_[g] + v)] = values[v].get<float>();
    }
  }
  for (int i = 0; i < kNumFeatureGroups; ++i) {
    const char* name = i == kPatternGroup ? "unlisted" : kFeatureGroupNames[i];
    if (!j["groups"].contains(name)) return bad(fmt::format("groups.{} is missing", name));
  }
  if (j.contains("made_by")) {
    if (!j["made_by"].is_string()) return bad("'made_by' must be a string");
    m.made_by = j["made_by"].get<std::string>();
  }
  return m;
}

Result<std::string> read_weights_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return kibitz::fail("cannot read '{}'", path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

Result<PatternModel> PatternModel::load(const std::string& path) {
  auto text = read_weights_file(path);
  if (!text) return tl::unexpected(text.error());
  return parse(*text, path);
}

const PatternModel& PatternModel::builtin() {
  static const PatternModel model = [] {
    auto m = parse(builtin_pattern_text(), "data/go/patterns.json");
    // The file is checked by the tests; a broken build falls back to uniform strengths.
    return m ? std::move(*m) : PatternModel{};
  }();
  return model;
}

namespace {
std::unique_ptr<const PatternModel>& active_slot() {
  static std::unique_ptr<const PatternModel> slot;
  return slot;
}
}  // namespace

const PatternModel& PatternModel::active() {
  const auto& slot = active_slot();
  return slot ? *slot : builtin();
}

void PatternModel::set_active(PatternModel model) {
  active_slot() = std::make_unique<const PatternModel>(std::move(model));
}

}  // namespace kibitz::go
