#pragma once
// Helpers for the gomoku tests: points by name and positions from small diagrams.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

#include "games/gomoku/position.hpp"

namespace kibitz::gomoku::testing {

// "h8" -> its square (column letter, row number from the top).
inline int sq(std::string_view name) {
  int row = 0;
  for (char c : name.substr(1)) row = row * 10 + (c - '0');
  return square_of(name[0] - 'a', row - 1);
}
inline Move mv(std::string_view name) { return Move{static_cast<std::uint16_t>(sq(name))}; }
inline Move at(int x, int y) { return Move{static_cast<std::uint16_t>(square_of(x, y))}; }

// A set-up position from rows of a diagram ('X' black, 'O' white, anything else empty) whose
// top-left corner is at (x0, y0).
inline Position setup(Variant v, std::initializer_list<std::string_view> rows, Color to_move,
                      int x0 = 0, int y0 = 0, std::array<int, 2> captured = {0, 0}) {
  std::vector<std::pair<int, int>> black, white;
  int y = y0;
  for (std::string_view row : rows) {
    for (int i = 0; i < static_cast<int>(row.size()); ++i) {
      if (row[i] == 'X') black.emplace_back(x0 + i, y);
      if (row[i] == 'O') white.emplace_back(x0 + i, y);
    }
    ++y;
  }
  auto p = Position::from_setup(v, black, white, to_move == kBlack ? 0 : 1, captured);
  EXPECT_TRUE(p) << p.error().message;
  return p ? *p : Position(v);
}

// Sorted squares of a move list (for comparing sets).
template <class List>
std::vector<int> squares(const List& moves) {
  std::vector<int> out;
  for (Move m : moves) out.push_back(m.sq);
  std::sort(out.begin(), out.end());
  return out;
}
inline std::vector<int> squares_of(std::initializer_list<Move> moves) {
  std::vector<int> out;
  for (Move m : moves) out.push_back(m.sq);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace kibitz::gomoku::testing
