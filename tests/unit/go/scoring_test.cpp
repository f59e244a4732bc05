// Area scoring on boards counted by hand (komi, neutral points, a seki), and handicap
// placement as the GTP v2 spec lays it out.
#include <gtest/gtest.h>

#include <algorithm>

#include "unit/go/go_test_util.hpp"

namespace kibitz::go {
namespace {

using testing::diagram;
using testing::expect_consistent;
using testing::mv;
using testing::pt;

TEST(GoScoring, EmptyBoardIsKomi) {
  Position p(Rules{.size = 9, .komi = 7.5});
  EXPECT_EQ(p.area(), (std::array<int, 2>{0, 0}));
  EXPECT_DOUBLE_EQ(p.score(), -7.5);
  EXPECT_EQ(p.winner(), kWhite);
}

TEST(GoScoring, OneStoneOwnsTheBoard) {
  Position p(Rules{.size = 9});
  p.apply(mv("E5"));
  EXPECT_EQ(p.area(), (std::array<int, 2>{81, 0}));
  EXPECT_DOUBLE_EQ(p.score(), 73.5);
}

TEST(GoScoring, WallsSplitTheBoardAndTheMiddleIsNeutral) {
  const std::initializer_list<std::string_view> board = {".X.O.", ".X.O.", ".X.O.", ".X.O.",
                                                         ".X.O."};
  Position even = diagram(board, kBlack, Rules{.komi = 0});
  EXPECT_EQ(even.area(), (std::array<int, 2>{10, 10}));
  EXPECT_DOUBLE_EQ(even.score(), 0.0);
  even.apply(Move::pass());
  even.apply(Move::pass());
  EXPECT_EQ(even.winner(), -1);
  EXPECT_EQ(even.returns(), (Returns<Position>{0.0, 0.0}));

  Position komi = diagram(board, kBlack, Rules{.komi = 7.5});
  EXPECT_DOUBLE_EQ(komi.score(), -7.5);
  std::array<Color, kNumPoints> owner;
  komi.area_map(owner);
  EXPECT_EQ(owner[pt("A1", 5)], kBlack);
  EXPECT_EQ(owner[pt("B3", 5)], kBlack);
  EXPECT_EQ(owner[pt("C3", 5)], kEmpty);
  EXPECT_EQ(owner[pt("E5", 5)], kWhite);
  EXPECT_EQ(owner[0], kWall);
}

TEST(GoScoring, StonesInsideTheOtherAreaAreCountedAsTheyStand) {
  // Tromp-Taylor: no dead-stone removal. The white stone at B4 is counted for white and makes
  // the region around it touch both colours (neutral).
  Position p = diagram({"..X..", ".OX..", "..X..", "..X..", "..X.."}, kBlack, Rules{.komi = 0.5});
  // Black: 5 stones + D/E columns (10). White: 1 stone. A/B columns minus B4: 9 neutral.
  EXPECT_EQ(p.area(), (std::array<int, 2>{15, 1}));
  EXPECT_DOUBLE_EQ(p.score(), 13.5);
}

// A seki on 7x7: the inner black chain (D and E columns) and the inner white chain (C column)
// share the liberties D3 and D5 and have no others; whoever fills one is captured. The outer
// groups live with two eyes each (A2 A6 for black, G2 G6 for white).
const std::initializer_list<std::string_view> kSeki = {
    "XXOXXOO",  // 7
    ".XOXXO.",  // 6
    "XXO.XOO",  // 5
    "XXOXXOO",  // 4
    "XXO.XOO",  // 3
    ".XOXXO.",  // 2
    "XXOXXOO",  // 1
};

TEST(GoScoring, SekiLibertiesBelongToNobody) {
  Position p = diagram(kSeki, kBlack, Rules{.komi = 0.5});
  expect_consistent(p);
  EXPECT_EQ(p.liberties(pt("E4", 7)), 2);
  EXPECT_EQ(p.liberties(pt("C4", 7)), 2);
  EXPECT_EQ(p.liberties(pt("A1", 7)), 2);
  EXPECT_EQ(p.liberties(pt("G1", 7)), 2);
  std::array<Color, kNumPoints> owner;
  p.area_map(owner);
  EXPECT_EQ(owner[pt("D3", 7)], kEmpty);
  EXPECT_EQ(owner[pt("D5", 7)], kEmpty);
  EXPECT_EQ(owner[pt("A2", 7)], kBlack);
  EXPECT_EQ(owner[pt("G6", 7)], kWhite);
  // Black: 24 stones + 2 eyes; white: 19 stones + 2 eyes; 2 neutral.
  EXPECT_EQ(p.area(), (std::array<int, 2>{26, 21}));
  EXPECT_DOUBLE_EQ(p.score(), 4.5);
  EXPECT_TRUE(p.is_eye(pt("A2", 7), kBlack));
  EXPECT_TRUE(p.is_eye(pt("G6", 7), kWhite));
  EXPECT_FALSE(p.is_eye(pt("D3", 7), kBlack));
  // Filling a shared liberty is self-atari for either side...
  EXPECT_TRUE(p.is_self_atari(mv("D3", 7)));
  p.set_to_move(kWhite);
  EXPECT_TRUE(p.is_self_atari(mv("D5", 7)));
  // ... and the other side then takes the chain.
  p.set_to_move(kBlack);
  p.apply(mv("D3", 7));
  ASSERT_TRUE(p.captures(mv("D5", 7)));
  p.apply(mv("D5", 7));
  EXPECT_EQ(p.captured(kWhite), 13);
  expect_consistent(p);
  // Played out as it stands: two passes, black wins by 4.5.
  Position q = diagram(kSeki, kBlack, Rules{.komi = 0.5});
  q.apply(Move::pass());
  q.apply(Move::pass());
  EXPECT_EQ(q.returns(), (Returns<Position>{1.0, -1.0}));
}

std::vector<std::string> vertices(const std::vector<int>& pts, int size) {
  std::vector<std::string> out;
  for (const int sq : pts) out.push_back(to_vertex(Move{static_cast<std::uint16_t>(sq)}, size));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(GoHandicap, FixedPlacementFollowsTheGtpSpec) {
  // GTP v2 section 4.1.1: the stones for 2..9 on 19x19; 13x13 and 9x9 the same pattern on
  // the 4th and 3rd lines.
  const std::vector<std::vector<std::string>> g19 = {
      {"D4", "Q16"},
      {"D4", "Q16", "D16"},
      {"D4", "Q16", "D16", "Q4"},
      {"D4", "Q16", "D16", "Q4", "K10"},
      {"D4", "Q16", "D16", "Q4", "D10", "Q10"},
      {"D4", "Q16", "D16", "Q4", "D10", "Q10", "K10"},
      {"D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16"},
      {"D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"}};
  const std::vector<std::vector<std::string>> g13 = {
      {"D4", "K10"},
      {"D4", "K10", "D10"},
      {"D4", "K10", "D10", "K4"},
      {"D4", "K10", "D10", "K4", "G7"},
      {"D4", "K10", "D10", "K4", "D7", "K7"},
      {"D4", "K10", "D10", "K4", "D7", "K7", "G7"},
      {"D4", "K10", "D10", "K4", "D7", "K7", "G4", "G10"},
      {"D4", "K10", "D10", "K4", "D7", "K7", "G4", "G10", "G7"}};
  const std::vector<std::vector<std::string>> g9 = {
      {"C3", "G7"},
      {"C3", "G7", "C7"},
      {"C3", "G7", "C7", "G3"},
      {"C3", "G7", "C7", "G3", "E5"},
      {"C3", "G7", "C7", "G3", "C5", "G5"},
      {"C3", "G7", "C7", "G3", "C5", "G5", "E5"},
      {"C3", "G7", "C7", "G3", "C5", "G5", "E3", "E7"},
      {"C3", "G7", "C7", "G3", "C5", "G5", "E3", "E7", "E5"}};
  for (int n = 2; n <= 9; ++n) {
    SCOPED_TRACE(n);
    EXPECT_EQ(vertices(*Position::fixed_handicap_points(19, n), 19), sorted(g19[n - 2]));
    EXPECT_EQ(vertices(*Position::fixed_handicap_points(13, n), 13), sorted(g13[n - 2]));
    EXPECT_EQ(vertices(*Position::fixed_handicap_points(9, n), 9), sorted(g9[n - 2]));
  }
  // The first stones go where the spec lists them first.
  EXPECT_EQ(
      to_vertex(Move{static_cast<std::uint16_t>((*Position::fixed_handicap_points(19, 9))[0])}, 19),
      "D4");
}

TEST(GoHandicap, FixedPlacementLimits) {
  EXPECT_FALSE(Position::fixed_handicap_points(19, 1));
  EXPECT_FALSE(Position::fixed_handicap_points(19, 10));
  EXPECT_TRUE(Position::fixed_handicap_points(7, 4));
  EXPECT_FALSE(Position::fixed_handicap_points(7, 5));   // 7x7: at most 4
  EXPECT_FALSE(Position::fixed_handicap_points(10, 5));  // even sizes: at most 4
  EXPECT_TRUE(Position::fixed_handicap_points(10, 4));
  EXPECT_FALSE(Position::fixed_handicap_points(5, 2));  // none below 7x7
  EXPECT_EQ(Position::fixed_handicap_points(19, 10).error().message,
            "fixed handicap of 10 stones on a 19x19 board: 2 to 9 allowed");
}

TEST(GoHandicap, HandicapStonesThenWhiteToMove) {
  Position p(Rules{.size = 19});
  ASSERT_TRUE(p.set_fixed_handicap(4));
  EXPECT_EQ(p.stones_on_board(), 4);
  EXPECT_EQ(p.to_move(), kWhite);
  EXPECT_EQ(p.current_player(), 1);
  EXPECT_EQ(p.at(pt("Q16", 19)), kBlack);
  EXPECT_EQ(p.hash(), p.compute_hash());
  EXPECT_EQ(p.moves_played(), 0);
  // Not twice, and not after moves.
  EXPECT_FALSE(p.set_fixed_handicap(2));
  Position q(Rules{.size = 9});
  q.apply(mv("E5"));
  EXPECT_FALSE(q.set_fixed_handicap(2));

  Position f(Rules{.size = 9});
  const std::vector<int> free = {pt("A1"), pt("J9"), pt("E5")};
  ASSERT_TRUE(f.set_free_handicap(free));
  EXPECT_EQ(f.stones_on_board(), 3);
  EXPECT_EQ(f.to_move(), kWhite);
  Position g(Rules{.size = 9});
  const std::vector<int> twice = {pt("A1"), pt("A1")};
  const auto err = g.set_free_handicap(twice);
  ASSERT_FALSE(err);
  EXPECT_EQ(err.error().message, "handicap: setup stone at A1: occupied");
  EXPECT_EQ(g.stones_on_board(), 0);  // nothing placed on failure
  const std::vector<int> one = {pt("A1")};
  EXPECT_FALSE(g.set_free_handicap(one));
}

}  // namespace
}  // namespace kibitz::go
