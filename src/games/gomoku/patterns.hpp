#pragma once
// Line-pattern tables for gomoku. The five cells on each side of a point along one line are
// packed, from one colour's point of view, into a base-3 key (0 empty, 1 own stone, 2 blocked:
// an enemy stone or off the board); a table built once at startup maps every key to the
// Pattern that colour makes by playing the point, plus the captures the move would make along
// the line (capture variant). Two tables: "five or more wins" and "exactly five wins".
#include <array>
#include <cstdint>

#include "games/gomoku/position.hpp"

namespace kibitz::gomoku::detail {

inline constexpr int kHalfWindow = 5;   // cells read on each side of the point
inline constexpr int kNumKeys = 59049;  // 3^10
inline constexpr std::array<std::uint16_t, 10> kPow3 = {1,   3,   9,    27,   81,
                                                        243, 729, 2187, 6561, 19683};
inline constexpr int kCellEmpty = 0;
inline constexpr int kCellOwn = 1;
inline constexpr int kCellBlocked = 2;

// Which base-3 digit of a key holds the cell at `offset` (-5..-1, 1..5) from the point.
inline constexpr int digit_of(int offset) { return offset < 0 ? offset + 5 : offset + 4; }

// A key with the cells five away (digits 0 and 9) read as empty.
inline constexpr std::uint16_t inner_key(int key) {
  return static_cast<std::uint16_t>(key - key % 3 - key / kPow3[9] * kPow3[9]);
}

// The key as a Position holds it: the cells five away read as empty, but for an own stone
// where `exact`. No table tells a blocked cell five away from an empty one, and only the
// exact-five table depends on an own stone there (an overline); the tests check both.
inline constexpr std::uint16_t outer_key(int key, bool exact) {
  const int near = inner_key(key);
  return static_cast<std::uint16_t>(
      exact ? near + (key % 3 == kCellOwn) + (key / kPow3[9] == kCellOwn) * kPow3[9] : near);
}

// A table entry: bits 0-3 the Pattern; bit 4 set on a kFlexFour that is really two separate
// fours on the line (XXX_X_XXX: two five points not at both ends of one straight four, a
// double four under renju); bits 5-6 the pairs captured along the line (0..2).
using Entry = std::uint8_t;
inline constexpr Entry kTwoFoursBit = 0x10;
inline constexpr Pattern entry_pattern(Entry e) { return static_cast<Pattern>(e & 0x0f); }
inline constexpr int entry_captures(Entry e) { return (e >> 5) & 3; }
// Fours the entry counts for renju's double-four rule (a straight four is one four).
inline constexpr int entry_fours(Entry e) {
  const Pattern p = entry_pattern(e);
  if (p == Pattern::kFour) return 1;
  if (p == Pattern::kFlexFour) return (e & kTwoFoursBit) ? 2 : 1;
  return 0;
}
// A straight four (an open four made by four stones in a row), not two fours on one line.
inline constexpr bool entry_straight_four(Entry e) {
  return entry_pattern(e) == Pattern::kFlexFour && !(e & kTwoFoursBit);
}

// The table for a rule: exact = only exactly five stones win (an overline is kOverline).
const Entry* pattern_table(bool exact);

// The key of point `sq` along direction `step` for colour c, read from a board (kWall ends
// the board; everything past it is blocked).
inline std::uint16_t scan_key(const std::uint8_t* board, int sq, int step, Color c) {
  int key = 0;
  for (int side = -1; side <= 1; side += 2) {
    int cell = sq;
    bool wall = false;
    for (int k = 1; k <= kHalfWindow; ++k) {
      int state = kCellBlocked;
      if (!wall) {
        cell += side * step;
        const std::uint8_t v = board[cell];
        if (v == kWall)
          wall = true;
        else
          state = v == c ? kCellOwn : (v == kEmpty ? kCellEmpty : kCellBlocked);
      }
      key += state * kPow3[digit_of(side * k)];
    }
  }
  return static_cast<std::uint16_t>(key);
}

}  // namespace kibitz::gomoku::detail
