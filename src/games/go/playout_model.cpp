// The learned playout patterns (see playout_model.hpp).
#include "games/go/playout_model.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "games/go/pattern_model.hpp"
#include "games/go/patterns.hpp"

namespace kibitz::go {

std::string_view builtin_playout_pattern_text();  // generated from data/go/playout_patterns.json

namespace {

constexpr std::string_view kFormat = "kibitz-go-playout-patterns";
constexpr int kVersion = 1;

// The cells of the 3x3 in neighbourhood() order as (row, column), the centre left out, and
// the atari bit of each orthogonal cell (-1 for the diagonal ones).
constexpr std::array<std::array<int, 2>, 8> kCells = {
    {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}, {2, 2}}};
constexpr std::array<int, 8> kAtariBit = {-1, 0, -1, 1, 2, -1, 3, -1};
constexpr std::array<int, 4> kOrthogonalCell = {1, 3, 4, 6};

int cell_index(int r, int c) {
  for (int i = 0; i < 8; ++i)
    if (kCells[i][0] == r && kCells[i][1] == c) return i;
  return -1;
}

// kPermutation[t][i]: where cell i goes under symmetry t.
const std::array<std::array<int, 8>, 8>& permutation() {
  static const auto table = [] {
    std::array<std::array<int, 8>, 8> p{};
    for (int t = 0; t < 8; ++t)
      for (int i = 0; i < 8; ++i) {
        int r = kCells[i][0], c = kCells[i][1];
        if (t & 1) std::swap(r, c);
        if (t & 2) c = 2 - c;
        if (t & 4) r = 2 - r;
        p[t][i] = cell_index(r, c);
      }
    return p;
  }();
  return table;
}

bool good_gamma(double g) { return std::isfinite(g) && g >= kMinGamma && g <= kMaxGamma; }

const PlayoutModel*& active_slot() {
  static const PlayoutModel* slot = nullptr;
  return slot;
}

}  // namespace

const std::array<float, 256> PlayoutModel::kScale = [] {
  std::array<float, 256> s{};
  for (int q = 0; q < 256; ++q) s[q] = std::exp2(static_cast<float>(q - 128) / 16.0f);
  return s;
}();

std::uint8_t PlayoutModel::quantise(double gamma) {
  const double q = std::round(16.0 * std::log2(gamma)) + 128.0;
  return static_cast<std::uint8_t>(std::clamp(q, 0.0, 255.0));
}

std::uint32_t local_code(const Position& p, int sq) {
  std::uint32_t code = neighbourhood(p, sq);
  // Colours relative to the mover: for White, swap the stone values 0 and 1 (cells whose high
  // bit is clear hold a stone).
  if (p.to_move() == kWhite) code ^= ~(code >> 1) & 0x5555u;
  static constexpr std::array<int, 4> kStep = {-kStride, -1, 1, kStride};  // S, W, E, N
  for (int k = 0; k < 4; ++k) {
    const int nb = sq + kStep[k];
    if (p.at(nb) <= kWhite && p.liberties(nb) == 1) code |= 1u << (16 + k);
  }
  return code;
}

std::uint32_t transform_local_code(std::uint32_t code, int t) {
  const auto& perm = permutation()[t];
  std::uint32_t out = 0;
  for (int i = 0; i < 8; ++i) {
    out |= ((code >> (2 * i)) & 3u) << (2 * perm[i]);
    if (kAtariBit[i] >= 0 && (code >> (16 + kAtariBit[i])) & 1u)
      out |= 1u << (16 + kAtariBit[perm[i]]);
  }
  return out;
}

std::uint32_t canonical_local_code(std::uint32_t code) {
  std::uint32_t best = code;
  for (int t = 1; t < 8; ++t) best = std::min(best, transform_local_code(code, t));
  return best;
}

PlayoutModel::PlayoutModel() : PlayoutModel({}, 1.0f, 1.0f) {}

PlayoutModel::PlayoutModel(std::vector<PlayoutPatternEntry> patterns, float tenuki, float diagonal)
    : patterns_(std::move(patterns)), tenuki_(tenuki), diagonal_(diagonal) {
  table_.assign(kNumLocalCodes, quantise(1.0));
  for (const auto& e : patterns_)
    for (int t = 0; t < 8; ++t) table_[transform_local_code(e.code, t)] = quantise(e.gamma);
}

std::string PlayoutModel::to_json() const {
  std::ostringstream o;
  o << "{\n";
  o << "  \"format\": \"" << kFormat << "\",\n";
  o << "  \"version\": " << kVersion << ",\n";
  o << "  \"made_by\": " << nlohmann::json(made_by).dump() << ",\n";
  o << "  \"tenuki\": " << fmt::format("{:.5g}", tenuki_) << ",\n";
  o << "  \"diagonal\": " << fmt::format("{:.5g}", diagonal_) << ",\n";
  o << "  \"patterns\": [";
  for (std::size_t i = 0; i < patterns_.size(); ++i)
    o << (i ? ",\n    " : "\n    ") << "[" << patterns_[i].code << ", "
      << fmt::format("{:.5g}", patterns_[i].gamma) << "]";
  o << "\n  ]\n}\n";
  return o.str();
}

Result<PlayoutModel> PlayoutModel::parse(std::string_view text, std::string_view source) {
  auto bad = [&](const std::string& why) -> Result<PlayoutModel> {
    return kibitz::fail("{}: {}", source, why);
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    return bad(fmt::format("not JSON: {}", one_line(e.what())));
  }
  if (!j.is_object()) return bad("expected a JSON object");
  if (j.value("format", std::string{}) != kFormat)
    return bad(fmt::format("'format' must be \"{}\"", kFormat));
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"] != kVersion)
    return bad(fmt::format("'version' must be {}", kVersion));
  for (const char* name : {"tenuki", "diagonal"})
    if (!j.contains(name) || !j[name].is_number() || !good_gamma(j[name].get<double>()))
      return bad(fmt::format("'{}' must be a gamma in [{}, {}]", name, kMinGamma, kMaxGamma));
  if (!j.contains("patterns") || !j["patterns"].is_array())
    return bad("'patterns' must be an array");
  std::vector<PlayoutPatternEntry> entries;
  std::vector<bool> seen(kNumLocalCodes, false);
  for (std::size_t i = 0; i < j["patterns"].size(); ++i) {
    const auto& e = j["patterns"][i];
    if (!e.is_array() || e.size() != 2 || !e[0].is_number_unsigned() || !e[1].is_number())
      return bad(fmt::format("patterns[{}] must be [code, gamma]", i));
    const auto code = e[0].get<std::uint64_t>();
    const double g = e[1].get<double>();
    if (code >= kNumLocalCodes || canonical_local_code(static_cast<std::uint32_t>(code)) != code)
      return bad(fmt::format("patterns[{}]: {} is not a canonical 20-bit code", i, code));
    if (seen[code]) return bad(fmt::format("patterns[{}]: code {} is listed twice", i, code));
    seen[code] = true;
    if (!good_gamma(g))
      return bad(
          fmt::format("patterns[{}]: gamma {} is not in [{}, {}]", i, g, kMinGamma, kMaxGamma));
    entries.push_back({static_cast<std::uint32_t>(code), static_cast<float>(g)});
  }
  PlayoutModel m(std::move(entries), j["tenuki"].get<float>(), j["diagonal"].get<float>());
  if (j.contains("made_by")) {
    if (!j["made_by"].is_string()) return bad("'made_by' must be a string");
    m.made_by = j["made_by"].get<std::string>();
  }
  return m;
}

Result<PlayoutModel> PlayoutModel::load(const std::string& path) {
  auto text = read_weights_file(path);
  if (!text) return tl::unexpected(text.error());
  return parse(*text, path);
}

const PlayoutModel& PlayoutModel::builtin() {
  static const PlayoutModel model = [] {
    auto m = parse(builtin_playout_pattern_text(), "data/go/playout_patterns.json");
    // The file is checked by the tests; a broken build falls back to uniform strengths.
    return m ? std::move(*m) : PlayoutModel{};
  }();
  return model;
}

const PlayoutModel* PlayoutModel::active() { return active_slot(); }
void PlayoutModel::set_active(const PlayoutModel* model) { active_slot() = model; }

}  // namespace kibitz::go
