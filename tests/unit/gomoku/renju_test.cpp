// Renju: black's forbidden points (double three, double four, overline), the recursive
// "real three" test, and a five that beats every restriction.
#include <gtest/gtest.h>

#include "unit/gomoku/gomoku_test_util.hpp"

namespace kibitz::gomoku {
namespace {

using testing::at;
using testing::setup;

constexpr Variant kRenju{.size = 15, .rule = Rule::kRenju};

void expect_forbidden(const Position& p, Move m, bool forbidden) {
  EXPECT_EQ(p.is_forbidden(m), forbidden);
  EXPECT_EQ(p.is_legal(m), !forbidden);
  MoveList<Position> moves;
  p.legal_moves(moves);
  EXPECT_EQ(moves.contains(m), !forbidden);
  p.candidate_moves(moves);
  EXPECT_EQ(moves.contains(m), !forbidden);
}

TEST(GomokuRenju, DoubleThreeIsForbiddenForBlackOnly) {
  // h8 joins i8-j8 and h9-h10 into two free threes.
  const Move q = at(7, 7);
  Position p = setup(kRenju, {".XX", "X..", "X.."}, kBlack, 7, 7);
  EXPECT_EQ(p.pattern(q.sq, kBlack, 0), Pattern::kFlexThree);
  EXPECT_EQ(p.pattern(q.sq, kBlack, 1), Pattern::kFlexThree);
  expect_forbidden(p, q, true);
  Position w = setup(kRenju, {".OO", "O..", "O.."}, kWhite, 7, 7);
  expect_forbidden(w, q, false);
  // A blocked three is no free three: with white at g8 black may play h8.
  Position b = setup(kRenju, {"O.XX", ".X..", ".X.."}, kBlack, 6, 7);
  EXPECT_EQ(b.pattern(q.sq, kBlack, 0), Pattern::kThree);
  expect_forbidden(b, q, false);
}

TEST(GomokuRenju, DoubleFourIsForbidden) {
  // h8 makes e8-h8 and h5-h8 fours at once.
  Position p = setup(kRenju, {"...X...", "...X...", "...X...", "XXX....", "......."}, kBlack, 4, 4);
  expect_forbidden(p, at(7, 7), true);
  // A four and a three is allowed (the winning four-three).
  Position ft =
      setup(kRenju, {"....X...", "....X...", "........", "OXXX....", "........"}, kBlack, 3, 4);
  EXPECT_EQ(ft.threat(at(7, 7).sq, kBlack), Threat::kFourThree);
  expect_forbidden(ft, at(7, 7), false);
}

TEST(GomokuRenju, TwoFoursOnOneLineAreADoubleFour) {
  // d8 e8 f8 _ h8 _ j8 k8 l8: after h8 both gaps make five.
  const Move q = at(7, 7);
  Position line = setup(kRenju, {"XXX...XXX"}, kBlack, 3, 7);
  EXPECT_EQ(line.pattern(q.sq, kBlack, 0), Pattern::kFlexFour);
  EXPECT_EQ(line.threat(q.sq, kBlack), Threat::kFlexFour);
  expect_forbidden(line, q, true);
  // White may play it (and then has two ways to five).
  Position w = setup(kRenju, {"OOO...OOO"}, kWhite, 3, 7);
  expect_forbidden(w, q, false);
  // One gap filled by white leaves a single four: allowed.
  Position one = setup(kRenju, {"XXXO..XXX"}, kBlack, 3, 7);
  EXPECT_EQ(one.pattern(q.sq, kBlack, 0), Pattern::kFour);
  expect_forbidden(one, q, false);
}

TEST(GomokuRenju, OverlineIsForbiddenForBlackAndWinsForWhite) {
  Position p = setup(kRenju, {"XXX_XX"}, kBlack, 3, 7);
  const Move q = at(6, 7);
  EXPECT_EQ(p.pattern(q.sq, kBlack, 0), Pattern::kOverline);
  EXPECT_FALSE(p.makes_five(q, kBlack));
  expect_forbidden(p, q, true);
  Position w = setup(kRenju, {"OOO_OO"}, kWhite, 3, 7);
  EXPECT_EQ(w.pattern(q.sq, kWhite, 0), Pattern::kFive);
  expect_forbidden(w, q, false);
  w.apply(q);
  EXPECT_EQ(w.winner(), 1);
}

TEST(GomokuRenju, AThreeWhoseOnlyCompletionIsForbiddenIsNoThree) {
  // Row 8: white d8, black f8 g8, and h8 would make a three whose only straight four is at
  // i8. Column h: h9 h10 make the second three.
  const Move q = at(7, 7);
  const Move completion = at(8, 7);
  Position real = setup(kRenju, {"O.XX....", "....X...", "....X..."}, kBlack, 3, 7);
  EXPECT_EQ(real.pattern(q.sq, kBlack, 0), Pattern::kFlexThree);
  EXPECT_EQ(real.pattern(q.sq, kBlack, 1), Pattern::kFlexThree);
  expect_forbidden(real, q, true);

  // Black stones i5 i6 i7 and i9 i10 make i8 an overline point: the row-8 three can only
  // become a straight four there, so it is no real three and h8 is allowed.
  std::vector<std::pair<int, int>> black = {{5, 7}, {6, 7}, {7, 8}, {7, 9}, {8, 4},
                                            {8, 5}, {8, 6}, {8, 8}, {8, 9}};
  std::vector<std::pair<int, int>> white = {{3, 7}};
  auto p = Position::from_setup(kRenju, black, white, 0);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->pattern(q.sq, kBlack, 0), Pattern::kFlexThree);
  EXPECT_EQ(p->pattern(q.sq, kBlack, 1), Pattern::kFlexThree);
  EXPECT_TRUE(p->is_forbidden(completion));  // the overline point itself
  expect_forbidden(*p, q, false);
}

TEST(GomokuRenju, AFiveIsNeverForbidden) {
  // h8 makes five on row 8 and an overline on column h at once: the five wins.
  std::vector<std::pair<int, int>> black = {{3, 7}, {4, 7}, {5, 7}, {6, 7}, {7, 4},
                                            {7, 5}, {7, 6}, {7, 8}, {7, 9}};
  auto p = Position::from_setup(kRenju, black, {}, 0);
  ASSERT_TRUE(p) << p.error().message;
  const Move q = at(7, 7);
  EXPECT_EQ(p->pattern(q.sq, kBlack, 1), Pattern::kOverline);
  EXPECT_TRUE(p->makes_five(q, kBlack));
  expect_forbidden(*p, q, false);
  EXPECT_EQ(p->winning_move(), at(2, 7));  // the row's other end comes first
  p->apply(q);
  EXPECT_EQ(p->winner(), 0);
}

TEST(GomokuRenju, BlackMustNotBlockOnAForbiddenPoint) {
  // White's four d4..g7 (c3 blocked) completes at h8, which is black's double three: black
  // has no defence.
  std::vector<std::pair<int, int>> black = {{8, 7}, {9, 7}, {7, 8}, {7, 9}, {2, 2}};
  std::vector<std::pair<int, int>> white = {{3, 3}, {4, 4}, {5, 5}, {6, 6}};
  auto p = Position::from_setup(kRenju, black, white, 0);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_TRUE(p->opponent_can_win());
  EXPECT_TRUE(p->is_forbidden(at(7, 7)));
  MoveList<Position> answers;
  EXPECT_EQ(p->defence_moves(answers), 0u);
}

}  // namespace
}  // namespace kibitz::gomoku
