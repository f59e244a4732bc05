// Ladder reading on positions whose answer a Go player reads at sight.
#include "games/go/tactics.hpp"

#include <gtest/gtest.h>

#include "unit/go/go_test_util.hpp"

namespace kibitz::go {
namespace {

using testing::diagram;
using testing::pt;

// White's K10 with black on its left, below and at the upper right: black's atari at either
// liberty starts a ladder, one running to the upper left, the other to the lower right.
Position ladder_start() {
  Position p(Rules{.size = 19});
  EXPECT_TRUE(p.place_stone(kWhite, point_of(9, 9)));
  EXPECT_TRUE(p.place_stone(kBlack, point_of(8, 9)));
  EXPECT_TRUE(p.place_stone(kBlack, point_of(9, 8)));
  EXPECT_TRUE(p.place_stone(kBlack, point_of(10, 10)));
  p.set_to_move(kBlack);
  return p;
}

TEST(GoLadder, OpenBoardLadderWorks) {
  const Position p = ladder_start();
  EXPECT_TRUE(ladder_capturable(p, point_of(9, 9)));
  // After the atari at K11 white is in atari and extending does not help.
  Position q = p;
  q.apply(Move::at(9, 10));
  EXPECT_TRUE(ladder_dead(q, point_of(9, 9)));
}

TEST(GoLadder, BreakersOnBothPathsSaveTheStone) {
  Position one = ladder_start();
  EXPECT_TRUE(one.place_stone(kWhite, point_of(14, 4)));  // on the lower-right path only
  EXPECT_TRUE(ladder_capturable(one, point_of(9, 9)));
  Position both = one;
  EXPECT_TRUE(both.place_stone(kWhite, point_of(4, 14)));  // and on the upper-left one
  EXPECT_FALSE(ladder_capturable(both, point_of(9, 9)));
}

TEST(GoLadder, CapturingTheAtariStoneEscapes) {
  // White C3 is in atari, but black's D3 is in atari too: D4 takes it.
  const Position p = diagram({".......",  //
                              ".......",  //
                              ".......",  //
                              ".......",  //
                              ".XOXO..",  //
                              "..XO...",  //
                              "......."},
                             kWhite);
  ASSERT_EQ(p.liberties(pt("C3", 7)), 1);
  ASSERT_EQ(p.liberties(pt("D3", 7)), 1);
  EXPECT_FALSE(ladder_dead(p, pt("C3", 7)));
}

TEST(GoLadder, OnlyTheRightChainsAreRead) {
  const Position p = ladder_start();
  EXPECT_FALSE(ladder_dead(p, point_of(9, 9)));        // not in atari, not white's move
  EXPECT_FALSE(ladder_capturable(p, point_of(8, 9)));  // black's own stone
  EXPECT_FALSE(ladder_capturable(p, point_of(3, 3)));  // empty point
}

}  // namespace
}  // namespace kibitz::go
