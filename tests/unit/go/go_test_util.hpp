#pragma once
// Helpers for the Go tests: positions from diagrams, vertices, and a from-scratch recount of
// chains and liberties to check the incremental ones against.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "games/go/board.hpp"

namespace kibitz::go::testing {

// The point of a GTP vertex on a board of `size`.
inline int pt(std::string_view vertex, int size = 9) {
  const auto m = parse_vertex(vertex, size);
  EXPECT_TRUE(m) << m.error().message;
  return m ? m->sq : 0;
}
inline Move mv(std::string_view vertex, int size = 9) {
  return Move{static_cast<std::uint16_t>(pt(vertex, size))};
}

// A position from a diagram (rows from the top, X black, O white, . empty; spaces ignored);
// the board size is the number of rows.
inline Position diagram(std::initializer_list<std::string_view> rows, Color to_move = kBlack,
                        Rules rules = {}) {
  rules.size = static_cast<int>(rows.size());
  Position p(rules);
  int y = rules.size - 1;
  for (const std::string_view row : rows) {
    int x = 0;
    for (const char ch : row) {
      if (ch == ' ') continue;
      if (ch == 'X' || ch == 'O') {
        const auto ok = p.place_stone(ch == 'X' ? kBlack : kWhite, point_of(x, y));
        EXPECT_TRUE(ok) << ok.error().message;
      }
      ++x;
    }
    EXPECT_EQ(x, rules.size) << "row " << row;
    --y;
  }
  p.set_to_move(to_move);
  return p;
}

// Chains and liberties recounted by flood fill must match the incremental ones; the empty
// point list must hold exactly the empty points.
inline void expect_consistent(const Position& p) {
  const int n = p.size();
  std::vector<int> empties;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const int sq = point_of(x, y);
      if (p.at(sq) == kEmpty) {
        empties.push_back(sq);
        continue;
      }
      std::vector<bool> in(kNumPoints, false), lib(kNumPoints, false);
      std::vector<int> stack = {sq};
      in[sq] = true;
      int stones = 0, libs = 0;
      while (!stack.empty()) {
        const int s = stack.back();
        stack.pop_back();
        ++stones;
        ASSERT_EQ(p.chain_head(s), p.chain_head(sq))
            << to_vertex(Move{static_cast<std::uint16_t>(s)}, n);
        for (const int nb : neighbours(s)) {
          if (p.at(nb) == p.at(sq) && !in[nb]) {
            in[nb] = true;
            stack.push_back(nb);
          } else if (p.at(nb) == kEmpty && !lib[nb]) {
            lib[nb] = true;
            ++libs;
          }
        }
      }
      ASSERT_GT(libs, 0) << "a chain without liberties is on the board\n" << p.to_string();
      ASSERT_EQ(p.liberties(sq), libs) << to_vertex(Move{static_cast<std::uint16_t>(sq)}, n) << "\n"
                                       << p.to_string();
      ASSERT_EQ(p.chain_size(sq), stones);
    }
  std::vector<int> listed(p.empty_points().begin(), p.empty_points().end());
  std::sort(listed.begin(), listed.end());
  ASSERT_EQ(listed, empties);
}

}  // namespace kibitz::go::testing
