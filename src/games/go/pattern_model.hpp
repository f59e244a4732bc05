#pragma once
// The learned move-prediction model: a strength gamma for every feature value of
// move_features.hpp and for every shape pattern of a dictionary. A move's strength is the
// product of the gammas of its features (generalized Bradley-Terry, Coulom 2007); the chance
// the model gives a move is its strength over the sum of all legal moves' strengths. The
// pattern of a move is the largest of its nested patterns that the dictionary holds (value 0,
// "unlisted", when not even its 3x3 is there).
//
// The weights ship as data/go/patterns.json (compiled in, written by `kibitz go
// train-patterns`, which says in the file how it was made); another file can be loaded.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "games/go/move_features.hpp"

namespace kibitz::go {

// Gammas lie in [kMinGamma, kMaxGamma]: a move's strength, a product of 9 of them, stays far
// inside the range of a double.
inline constexpr double kMinGamma = 1e-6;
inline constexpr double kMaxGamma = 1e6;

struct PatternEntry {
  std::uint64_t key = 0;  // pattern_keys().key[size]
  int size = 0;           // index into kPatternDistance
  float gamma = 1.0f;
};

// The whole text of a weights file, or "cannot read 'path'" (both Go weights loaders).
Result<std::string> read_weights_file(const std::string& path);

class PatternModel {
 public:
  // No patterns, every gamma 1 (all moves alike).
  PatternModel();
  // A dictionary: entries become pattern values 1..n in the order given; gammas start at 1
  // except where the entries give them.
  explicit PatternModel(std::vector<PatternEntry> patterns);

  // The JSON weights format; errors are one line starting with `source`.
  static Result<PatternModel> parse(std::string_view json, std::string_view source);
  static Result<PatternModel> load(const std::string& path);
  // The weights compiled in from data/go/patterns.json.
  static const PatternModel& builtin();
  // The model the engine's priors use: builtin() unless set_active() replaced it. Set it once
  // at start-up, before any search runs (searches read it without a lock).
  static const PatternModel& active();
  static void set_active(PatternModel model);
  std::string to_json() const;

  // Values per group (the pattern group: dictionary entries + 1) and where each group starts
  // in the flat gamma array.
  int group_size(int group) const { return offset_[group + 1] - offset_[group]; }
  int group_offset(int group) const { return offset_[group]; }
  int num_features() const { return offset_.back(); }
  int num_patterns() const { return static_cast<int>(patterns_.size()); }
  const std::vector<PatternEntry>& patterns() const { return patterns_; }

  // The dictionary value (1..n) of the largest listed pattern, 0 when none is listed.
  int pattern_value(const PatternKeys& keys) const;
  // All features of a move, the pattern included.
  MoveFeatures features(const Position& p, Move m) const;

  std::span<float> gammas() { return gamma_; }
  std::span<const float> gammas() const { return gamma_; }
  float gamma(int group, int value) const { return gamma_[offset_[group] + value]; }
  // The product of the gammas of a move's features.
  double strength(const MoveFeatures& f) const;
  double strength(const Position& p, Move m) const { return strength(features(p, m)); }
  // Every gamma into [kMinGamma, kMaxGamma] (after fitting).
  void clamp_gammas();
  // PUCT priors: the strengths of the moves normalised to sum 1.
  void priors(const Position& p, std::span<const Move> moves, std::span<float> out) const;

  // How the weights were made (free text kept in the file).
  std::string made_by;

 private:
  void build_table();

  std::vector<PatternEntry> patterns_;
  std::array<int, kNumFeatureGroups + 1> offset_{};
  std::vector<float> gamma_;
  // Open addressing (linear probing) from key to value; a zero key marks a free slot (a
  // pattern key of 0 would need 2^64 luck and is refused by the loader).
  std::vector<std::uint64_t> table_keys_;
  std::vector<std::int32_t> table_values_;
  std::uint64_t table_mask_ = 0;
};

}  // namespace kibitz::go
