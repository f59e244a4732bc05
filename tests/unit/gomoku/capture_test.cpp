// The capture variant (Ninuki): pair captures, ten stones win, the endgame capture that
// breaks a five, and the double free-three rule.
#include <gtest/gtest.h>

#include "unit/gomoku/gomoku_test_util.hpp"

namespace kibitz::gomoku {
namespace {

using testing::at;
using testing::setup;
using testing::squares;
using testing::squares_of;

constexpr Variant kNinuki{.size = 19, .rule = Rule::kCapture};

TEST(GomokuCapture, FlankedPairIsCapturedInAllEightDirections) {
  const int cx = 9, cy = 9;
  int directions = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      if (dx == 0 && dy == 0) continue;
      const std::vector<std::pair<int, int>> black = {{cx + 3 * dx, cy + 3 * dy}};
      const std::vector<std::pair<int, int>> white = {{cx + dx, cy + dy},
                                                      {cx + 2 * dx, cy + 2 * dy}};
      auto p = Position::from_setup(kNinuki, black, white, 0);
      ASSERT_TRUE(p) << p.error().message;
      const Position before = *p;
      EXPECT_EQ(p->capture_count(at(cx, cy).sq, kBlack), 1);
      Position::Undo u;
      p->make(at(cx, cy), u);
      EXPECT_EQ(p->captured(kBlack), 2) << dx << "," << dy;
      EXPECT_EQ(p->stone(at(cx + dx, cy + dy).sq), kEmpty);
      EXPECT_EQ(p->stone(at(cx + 2 * dx, cy + 2 * dy).sq), kEmpty);
      EXPECT_EQ(p->stone(at(cx + 3 * dx, cy + 3 * dy).sq), kBlack);
      EXPECT_EQ(p->stones_on_board(), 2);
      EXPECT_EQ(p->hash(), p->compute_hash());
      EXPECT_TRUE(p->pattern_state_consistent());
      p->unmake(at(cx, cy), u);
      EXPECT_TRUE(*p == before);
      EXPECT_EQ(p->hash(), before.hash());
      ++directions;
    }
  EXPECT_EQ(directions, 8);
}

TEST(GomokuCapture, TwoCapturesAtOnce) {
  // Black at k10 takes the pair to its right and the pair below it.
  Position p = setup(kNinuki, {".OOX", "O...", "O...", "X..."}, kBlack, 9, 9);
  EXPECT_EQ(p.capture_count(at(9, 9).sq, kBlack), 2);
  p.apply(at(9, 9));
  EXPECT_EQ(p.captured(kBlack), 4);
  EXPECT_EQ(p.stones_on_board(), 3);
  EXPECT_FALSE(p.is_terminal());
  EXPECT_EQ(p.hash(), p.compute_hash());
}

TEST(GomokuCapture, PlayingIntoAFlankedPairIsSafe) {
  Position p = setup(kNinuki, {"XO.X"}, kWhite, 5, 9);
  EXPECT_EQ(p.capture_count(at(7, 9).sq, kWhite), 0);
  p.apply(at(7, 9));  // white completes X O O X itself
  EXPECT_EQ(p.stone(at(6, 9).sq), kWhite);
  EXPECT_EQ(p.stone(at(7, 9).sq), kWhite);
  EXPECT_EQ(p.captured(kBlack), 0);
  EXPECT_EQ(p.captured(kWhite), 0);
  // Black cannot take it afterwards either: the pair is already flanked.
  EXPECT_EQ(p.stones_on_board(), 4);
}

TEST(GomokuCapture, OneOrThreeStonesAreNotCaptured) {
  Position one = setup(kNinuki, {"XO."}, kBlack, 5, 9);
  one.apply(at(7, 9));
  EXPECT_EQ(one.captured(kBlack), 0);
  EXPECT_EQ(one.stone(at(6, 9).sq), kWhite);
  Position three = setup(kNinuki, {"XOOO."}, kBlack, 5, 9);
  three.apply(at(9, 9));
  EXPECT_EQ(three.captured(kBlack), 0);
  EXPECT_EQ(three.stones_on_board(), 5);
  // A pair flanked by the edge of the board is not captured either.
  Position edge = setup(kNinuki, {"OO."}, kBlack, 0, 9);
  edge.apply(at(2, 9));
  EXPECT_EQ(edge.captured(kBlack), 0);
}

TEST(GomokuCapture, TenCapturedStonesWin) {
  // Five pairs down the left edge, each flanked on the left by black: black takes them one by
  // one while white plays far away.
  std::vector<std::pair<int, int>> black, white;
  for (int y : {1, 4, 7, 10, 13}) {
    black.emplace_back(0, y);
    white.emplace_back(1, y);
    white.emplace_back(2, y);
  }
  auto p = Position::from_setup(kNinuki, black, white, 0);
  ASSERT_TRUE(p) << p.error().message;
  int filler = 0;
  for (int y : {1, 4, 7, 10, 13}) {
    ASSERT_FALSE(p->is_terminal());
    p->apply(at(3, y));
    if (y != 13) {
      EXPECT_EQ(p->captured(kBlack), 2 * (filler + 1));
      p->apply(at(18, 2 * filler++));
    }
  }
  EXPECT_EQ(p->captured(kBlack), 10);
  EXPECT_TRUE(p->is_terminal());
  EXPECT_EQ(p->winner(), 0);

  // From eight captured stones, the capture is the winning move.
  Position q = setup(kNinuki, {"XOO."}, kBlack, 5, 5, {8, 0});
  EXPECT_EQ(q.winning_move(), at(8, 5));
  EXPECT_GT(q.evaluate(), 10000);
  q.apply(at(8, 5));
  EXPECT_EQ(q.winner(), 0);
}

// Black's four on row 10 (f10..i10) with a pair h10-h11 that white can take from h9.
Position breakable_four(std::array<int, 2> captured = {0, 0}) {
  return setup(kNinuki, {"....", "XXXX.", "..X..", "..O.."}, kBlack, 5, 8, captured);
}

TEST(GomokuCapture, AFiveThatCanBeBrokenWaitsForTheReply) {
  Position p = breakable_four();
  const Move five = at(9, 9);
  EXPECT_TRUE(p.makes_five(five, kBlack));
  EXPECT_EQ(p.winning_move(), Move::none());  // the five would not win at once
  p.apply(five);
  EXPECT_FALSE(p.is_terminal());
  EXPECT_EQ(p.five_pending(), 0);
  EXPECT_EQ(p.hash(), p.compute_hash());
  EXPECT_TRUE(p.opponent_can_win());
  // White's one way to break it is the capture from h9.
  MoveList<Position> moves;
  p.threat_moves(moves);
  EXPECT_EQ(squares(moves), squares_of({at(7, 8)}));
  // But black simply refills h10 afterwards, with a five nobody can break: no reply saves
  // white, and the list falls back to the direct answer, the breaking capture.
  p.defence_moves(moves);
  EXPECT_EQ(squares(moves), squares_of({at(7, 8)}));
  p.apply(at(7, 8));
  EXPECT_EQ(p.captured(kWhite), 2);
  EXPECT_EQ(p.stone(at(7, 9).sq), kEmpty);
  EXPECT_EQ(p.stone(at(7, 10).sq), kEmpty);
  EXPECT_FALSE(p.is_terminal());
  EXPECT_EQ(p.five_pending(), -1);
  EXPECT_EQ(p.hash(), p.compute_hash());
  EXPECT_TRUE(p.pattern_state_consistent());
  EXPECT_EQ(p.winning_move(), at(7, 9));
  p.apply(at(7, 9));
  EXPECT_EQ(p.winner(), 0);
}

TEST(GomokuCapture, BreakingAFiveCanSaveTheGame) {
  // h10 is also in a diagonal pair h10-i11 (white j12), and j10-i11 is a pair flanked by
  // white h12: whichever pair white takes, black's refilled five can be broken again, so
  // all three captures are real defences.
  Position p = setup(kNinuki, {".....", "XXXX.", "..XX.", "..O.O"}, kBlack, 5, 8);
  p.apply(at(9, 9));
  ASSERT_EQ(p.five_pending(), 0);
  MoveList<Position> moves;
  p.defence_moves(moves);
  EXPECT_EQ(squares(moves), squares_of({at(7, 8), at(6, 8), at(10, 8)}));
}

TEST(GomokuCapture, TheFiveWinsWhenTheReplyDoesNotBreakIt) {
  Position p = breakable_four();
  p.apply(at(9, 9));
  ASSERT_EQ(p.five_pending(), 0);
  p.apply(at(0, 0));
  EXPECT_TRUE(p.is_terminal());
  EXPECT_EQ(p.winner(), 0);
}

TEST(GomokuCapture, AnUnbreakableFiveWinsAtOnce) {
  Position p = setup(kNinuki, {"XXXX."}, kBlack, 5, 9);
  EXPECT_EQ(p.winning_move(), at(4, 9));  // either end; the first in order
  p.apply(at(9, 9));
  EXPECT_TRUE(p.is_terminal());
  EXPECT_EQ(p.winner(), 0);
  EXPECT_EQ(p.five_pending(), -1);
}

TEST(GomokuCapture, AReplyTakingTheTenthStoneWinsForTheOpponent) {
  {
    Position p = breakable_four({0, 8});
    p.apply(at(9, 9));
    ASSERT_EQ(p.five_pending(), 0);
    p.apply(at(7, 8));
    EXPECT_EQ(p.captured(kWhite), 10);
    EXPECT_EQ(p.winner(), 1);
  }
  {
    // Unbreakable five, but white (eight taken) has a capture elsewhere: the five waits, and
    // the capture of the tenth stone wins.
    Position p = setup(kNinuki, {"XXXX.", ".....", ".....", ".OXX."}, kBlack, 5, 9, {0, 8});
    p.apply(at(9, 9));
    EXPECT_FALSE(p.is_terminal());
    EXPECT_EQ(p.five_pending(), 0);
    p.apply(at(9, 12));
    EXPECT_EQ(p.captured(kWhite), 10);
    EXPECT_EQ(p.winner(), 1);
  }
}

TEST(GomokuCapture, DoubleFreeThreeIsForbiddenUnlessItCaptures) {
  // Black's j10 would make two free threes (j10-k10-l10 and j10-j11-j12).
  const std::initializer_list<std::string_view> shape = {".....", ".XX..", "X....", "X...."};
  Position p = setup(kNinuki, shape, kBlack, 9, 8);
  const Move q = at(9, 9);
  EXPECT_EQ(p.threat(q.sq, kBlack), Threat::kThreeThree);
  EXPECT_TRUE(p.is_forbidden(q));
  EXPECT_FALSE(p.is_legal(q));
  MoveList<Position> moves;
  p.legal_moves(moves);
  EXPECT_FALSE(moves.contains(q));
  // Same for white.
  Position w = setup(kNinuki, {".....", ".OO..", "O....", "O...."}, kWhite, 9, 8);
  EXPECT_TRUE(w.is_forbidden(q));

  // With a white pair on the diagonal to take, the move is allowed.
  Position c = setup(kNinuki, {".XX...", "XO....", "X.O...", "...X.."}, kBlack, 9, 9);
  EXPECT_EQ(c.capture_count(q.sq, kBlack), 1);
  EXPECT_FALSE(c.is_forbidden(q));
  EXPECT_TRUE(c.is_legal(q));
  c.apply(q);
  EXPECT_EQ(c.captured(kBlack), 2);
}

TEST(GomokuCapture, DefenceAgainstAFourIncludesTheBreakingCapture) {
  // White to move against black's four g10..j10 (blocked at f10 by white): block at k10, or
  // take h10-h11 from h9.
  Position p = setup(kNinuki, {"......", "OXXXX.", "..X...", "..O..."}, kWhite, 5, 8);
  // Black's five at k10 could be broken at once (pending), so it is no immediate win...
  EXPECT_FALSE(p.opponent_can_win());
  // ... but it is still the threat to answer.
  MoveList<Position> answers;
  p.defence_moves(answers);
  EXPECT_EQ(squares(answers), squares_of({at(10, 9), at(7, 8)}));
}

}  // namespace
}  // namespace kibitz::gomoku
