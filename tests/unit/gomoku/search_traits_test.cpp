// The gomoku hooks of the alpha-beta: the static order of quiet moves and the move-count limits.
#include "games/gomoku/search_traits.hpp"

#include <gtest/gtest.h>

#include "gomoku_test_util.hpp"

namespace kibitz::gomoku {
namespace {

using testing::at;
using Traits = SearchTraits<Position>;

// Black at (6,7) and (7,6): (7,7) makes an open two on two lines, (5,7) on one line only. The
// strongest line alone ties them; the order sums the lines, so the double point comes first.
TEST(GomokuSearchTraits, QuietOrderSumsTheLines) {
  std::vector<std::pair<int, int>> black = {{6, 7}, {7, 6}}, white = {{14, 0}, {0, 14}};
  auto pos = Position::from_setup({}, black, white, 0);
  ASSERT_TRUE(pos);
  const Move two_lines = at(7, 7), one_line = at(5, 7);
  EXPECT_EQ(pos->pattern(two_lines.sq, kBlack, 0), Pattern::kFlexTwo);
  EXPECT_EQ(pos->pattern(two_lines.sq, kBlack, 1), Pattern::kFlexTwo);
  EXPECT_EQ(pos->pattern(one_line.sq, kBlack, 0), Pattern::kFlexTwo);
  for (int d = 1; d < 4; ++d) EXPECT_LT(pos->pattern(one_line.sq, kBlack, d), Pattern::kTwo);
  EXPECT_EQ(Traits::move_value(*pos, two_lines), Traits::move_value(*pos, one_line));
  EXPECT_GT(Traits::quiet_value(*pos, two_lines), Traits::quiet_value(*pos, one_line));
  // Blocking counts as making: for white to move the same two points rank the same way.
  auto for_white = Position::from_setup({}, black, white, 1);
  ASSERT_TRUE(for_white);
  EXPECT_EQ(Traits::quiet_value(*for_white, two_lines), Traits::quiet_value(*pos, two_lines));
  EXPECT_GT(Traits::quiet_value(*for_white, two_lines), Traits::quiet_value(*for_white, one_line));
}

// min(15 sqrt(d) - 12, 32), at least 3, in a quiet position; min(5 sqrt(d) - 2, 8) under a
// free three.
TEST(GomokuSearchTraits, MoveCountLimitsByDepth) {
  auto quiet = Position::from_setup({}, std::vector<std::pair<int, int>>{{7, 7}},
                                    std::vector<std::pair<int, int>>{{8, 8}}, 0);
  ASSERT_TRUE(quiet);
  ASSERT_TRUE(quiet->quiet_position());
  EXPECT_EQ(Traits::late_move_limit(*quiet, 1), 3);
  EXPECT_EQ(Traits::late_move_limit(*quiet, 4), 18);
  EXPECT_EQ(Traits::late_move_limit(*quiet, 9), 32);
  // Black's open three (5..7, 7) makes the position forcing.
  auto forcing = Position::from_setup({}, std::vector<std::pair<int, int>>{{5, 7}, {6, 7}, {7, 7}},
                                      std::vector<std::pair<int, int>>{{8, 9}, {9, 9}}, 1);
  ASSERT_TRUE(forcing);
  ASSERT_FALSE(forcing->quiet_position());
  EXPECT_EQ(Traits::late_move_limit(*forcing, 4), 8);
  EXPECT_EQ(Traits::late_move_limit(*forcing, 2), 5);
}

}  // namespace
}  // namespace kibitz::gomoku
