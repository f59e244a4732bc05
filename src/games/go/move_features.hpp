#pragma once
// Move features of the learned move-prediction model (Coulom, "Computing Elo Ratings of Move
// Patterns in the Game of Go", 2007): every candidate move is described by at most one value
// in each feature group, and the model (pattern_model.hpp) gives each value a strength gamma.
//
// Shape patterns are the points around the move within a gridcular distance
// d(dx, dy) = |dx| + |dy| + max(|dx|, |dy|), nested from the 3x3 (d <= 3) to d <= 10
// (72 points), each point read as empty, the mover's stone, the opponent's stone or off the
// board. A pattern's key is the least Zobrist key over the 8 board symmetries, and stones are
// read relative to the side to move: the key is the same for all 8 transforms of a position
// and for the position with colours swapped.
#include <array>
#include <cstdint>

#include "games/go/board.hpp"

namespace kibitz::go {

inline constexpr int kNumPatternSizes = 8;
// The largest gridcular distance of each pattern size, smallest first.
inline constexpr std::array<int, kNumPatternSizes> kPatternDistance = {3, 4, 5, 6, 7, 8, 9, 10};

struct PatternKeys {
  std::array<std::uint64_t, kNumPatternSizes> key{};  // key[i]: the pattern of kPatternDistance[i]
};

// The nested pattern keys around an empty point sq for the side to move. Keys of different
// sizes never coincide in practice (each size mixes in its own constant).
PatternKeys pattern_keys(const Position& p, int sq);

// A dictionary of pattern keys (open addressing, linear probing, a zero key marks a free slot)
// as the model keeps it, for listed_pattern().
struct PatternTableView {
  const std::uint64_t* keys = nullptr;
  const std::int32_t* values = nullptr;
  std::uint64_t mask = 0;
  std::int32_t find(std::uint64_t key) const {
    for (std::uint64_t slot = key & mask; keys[slot] != 0; slot = (slot + 1) & mask)
      if (keys[slot] == key) return values[slot];
    return 0;
  }
};

// The value of the largest pattern around sq that the table lists (0: not even the 3x3).
// Sizes are read smallest first and reading stops at the first one not listed: a dictionary
// of patterns seen at least n times never lists a pattern without the smaller ones it
// contains, so the larger sizes are not read for nothing.
std::int32_t listed_pattern(const Position& p, int sq, const PatternTableView& table);

// The feature groups and how many values each has. kPatternGroup's values are indices into a
// pattern dictionary (the model's), the rest are fixed:
//  pass        0 pass, 1 pass right after the opponent's pass
//  capture     3 kinds x 3 sizes: kind 0 the captured chain touches a chain of ours in atari
//              (the capture saves it), 1 it is the chain of the last move, 2 any other; size
//              1 stone, 2-3, 4 or more
//  extension   the move extends a chain of ours in atari (its size 1 or more: x2) to 2
//              liberties that a ladder still catches, to 2 that escape, to 3 or more
//  self-atari  the move's chain has 1 liberty afterwards and captures nothing: 1 stone,
//              2-4, 5 or more
//  atari       the move leaves an opponent's chain in atari: ladder works, a ko is on the
//              board, other
//  edge        the move is on line 1, 2, 3, 4
//  last        gridcular distance to the last move: 2..16 (values 0..14), 17 or more (15)
//  previous    the same for the move before it
enum FeatureGroup : int {
  kPassGroup,
  kCaptureGroup,
  kExtensionGroup,
  kSelfAtariGroup,
  kAtariGroup,
  kEdgeGroup,
  kLastDistanceGroup,
  kPreviousDistanceGroup,
  kPatternGroup,
  kNumFeatureGroups
};
inline constexpr std::array<int, kNumFeatureGroups - 1> kFixedGroupSizes = {2, 9, 6,  3,
                                                                            3, 4, 16, 16};
inline constexpr std::array<const char*, kNumFeatureGroups> kFeatureGroupNames = {
    "pass", "capture", "extension", "self_atari", "atari", "edge", "last", "previous", "pattern"};

inline constexpr std::int32_t kNoFeature = -1;

// One value per group (kNoFeature where the group says nothing); the pattern group is left
// kNoFeature here and filled from the dictionary by the caller.
struct MoveFeatures {
  std::array<std::int32_t, kNumFeatureGroups> value{};
};

// The features of a legal move (a point or pass) of the side to move. `read_ladders` decides
// whether ataris and extensions to two liberties are read out (tactics.hpp); without it they
// count as not caught.
MoveFeatures move_features(const Position& p, Move m, bool read_ladders = true);

// Gridcular distance between two points.
int gridcular_distance(int a, int b);

}  // namespace kibitz::go
