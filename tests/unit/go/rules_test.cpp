// Go rules on positions whose answers are known by hand: captures (middle, edge, corner,
// several chains), suicide with and without the option, simple ko, positional superko in a
// triple ko, passes, resignation, the move cap, setup errors and the local queries.
#include <gtest/gtest.h>

#include "unit/go/go_test_util.hpp"

namespace kibitz::go {
namespace {

using testing::diagram;
using testing::expect_consistent;
using testing::mv;
using testing::pt;

TEST(GoRules, EmptyBoardHasEveryPointAndPass) {
  for (const int n : {5, 9, 13, 19}) {
    Position p(Rules{.size = n});
    MoveList<Position> moves;
    EXPECT_EQ(p.legal_moves(moves), static_cast<std::size_t>(n * n + 1));
    EXPECT_EQ(moves.back(), Move::pass());
    EXPECT_EQ(p.current_player(), 0);
    EXPECT_EQ(p.stones_on_board(), 0);
    EXPECT_EQ(p.hash(), p.compute_hash());
    EXPECT_EQ(static_cast<int>(p.empty_points().size()), n * n);
  }
}

TEST(GoRules, SingleStoneCaptureInTheMiddle) {
  Position p = diagram({".........", ".........", ".........", "....X....", "...XOX...",
                        ".........", ".........", ".........", "........."});
  EXPECT_EQ(p.liberties(pt("E5")), 1);
  EXPECT_TRUE(p.captures(mv("E4")));
  EXPECT_FALSE(p.captures(mv("A1")));
  p.apply(mv("E4"));
  EXPECT_EQ(p.at(pt("E5")), kEmpty);
  EXPECT_EQ(p.captured(kBlack), 1);
  EXPECT_EQ(p.liberties(pt("E4")), 4);
  EXPECT_EQ(p.liberties(pt("D5")), 4);
  // One stone taken, but the capturer has four liberties: no ko.
  EXPECT_EQ(p.ko_point(), 0);
  expect_consistent(p);
}

TEST(GoRules, MultiStoneCapture) {
  Position p = diagram({".........", ".........", "....X....", "...XOX...", "...XOX...",
                        ".........", ".........", ".........", "........."});
  EXPECT_EQ(p.chain_size(pt("E5")), 2);
  EXPECT_EQ(p.liberties(pt("E6")), 1);
  p.apply(mv("E4"));
  EXPECT_EQ(p.at(pt("E5")), kEmpty);
  EXPECT_EQ(p.at(pt("E6")), kEmpty);
  EXPECT_EQ(p.captured(kBlack), 2);
  EXPECT_EQ(p.liberties(pt("D5")), 6);  // C5 C6 D4 D7 E5 E6
  EXPECT_EQ(p.stones_on_board(), 6);
  expect_consistent(p);
}

TEST(GoRules, TwoChainsCapturedByOneMove) {
  Position p = diagram({".........", ".........", ".........", ".........", ".........",
                        ".........", "X........", "OX.......", ".OX......"});
  // A2 and B1 are separate white chains, each with the one liberty A1: the move at A1 has no
  // liberty of its own but captures both.
  EXPECT_EQ(p.check(mv("A1")), Illegal::kLegal);
  EXPECT_EQ(p.liberties_after(pt("A1")), 2);
  EXPECT_FALSE(p.is_self_atari(mv("A1")));
  p.apply(mv("A1"));
  EXPECT_EQ(p.captured(kBlack), 2);
  EXPECT_EQ(p.at(pt("A2")), kEmpty);
  EXPECT_EQ(p.at(pt("B1")), kEmpty);
  EXPECT_EQ(p.liberties(pt("A1")), 2);
  expect_consistent(p);
}

TEST(GoRules, CaptureInTheCornerAndOnTheEdge) {
  Position p = diagram({".........", ".........", ".........", ".........", ".........",
                        ".........", ".........", ".........", "OX.XOX..."});
  EXPECT_EQ(p.liberties(pt("A1")), 1);
  EXPECT_EQ(p.liberties(pt("E1")), 1);
  p.apply(mv("A2"));
  EXPECT_EQ(p.at(pt("A1")), kEmpty);
  p.apply(mv("J9"));
  p.apply(mv("E2"));
  EXPECT_EQ(p.at(pt("E1")), kEmpty);
  EXPECT_EQ(p.captured(kBlack), 2);
  expect_consistent(p);
}

TEST(GoRules, SuicideIsIllegalByDefault) {
  Position p = diagram({".........", ".........", ".........", ".........", ".........",
                        ".........", ".........", "XX.......", "O.X......"},
                       kWhite);
  EXPECT_EQ(p.check(mv("B1")), Illegal::kSuicide);
  EXPECT_FALSE(p.is_legal(mv("B1")));
  MoveList<Position> moves;
  p.legal_moves(moves);
  EXPECT_FALSE(moves.contains(mv("B1")));
  const auto r = p.play(mv("B1"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "illegal move B1 for white: suicide");
}

TEST(GoRules, SuicideAllowedRemovesTheOwnChain) {
  Position p = diagram({".........", ".........", ".........", ".........", ".........",
                        ".........", ".........", "XX.......", "O.X......"},
                       kWhite, Rules{.allow_suicide = true});
  ASSERT_TRUE(p.is_legal(mv("B1")));
  p.apply(mv("B1"));
  EXPECT_EQ(p.at(pt("A1")), kEmpty);
  EXPECT_EQ(p.at(pt("B1")), kEmpty);
  EXPECT_EQ(p.captured(kBlack), 2);  // the suicided stones count as taken by black
  EXPECT_EQ(p.to_move(), kBlack);
  EXPECT_EQ(p.hash(), p.compute_hash());
  expect_consistent(p);
}

TEST(GoRules, SingleStoneSuicideRepeatsThePosition) {
  const std::initializer_list<std::string_view> board = {".........", ".........", ".........",
                                                         ".........", ".........", ".........",
                                                         ".........", "X........", ".X......."};
  // With superko the board after a one-stone suicide is the board before it: forbidden.
  Position p = diagram(board, kWhite, Rules{.allow_suicide = true});
  EXPECT_EQ(p.check(mv("A1")), Illegal::kSuperko);
  // Without superko it is legal and changes nothing on the board.
  Position q = diagram(board, kWhite, Rules{.allow_suicide = true, .superko = false});
  ASSERT_TRUE(q.is_legal(mv("A1")));
  const auto before = q.stone_hash();
  q.apply(mv("A1"));
  EXPECT_EQ(q.stone_hash(), before);
  EXPECT_EQ(q.captured(kBlack), 1);
  EXPECT_EQ(q.to_move(), kBlack);
}

// A ko around D5/E5: white D5 in atari, black takes at E5.
const std::initializer_list<std::string_view> kKoBoard = {".........", ".........", ".........",
                                                          "...XO....", "..XO.O...", "...XO....",
                                                          ".........", ".........", "........."};

TEST(GoRules, SimpleKoForbidsTheImmediateRetake) {
  for (const bool superko : {true, false}) {
    SCOPED_TRACE(superko);
    Position p = diagram(kKoBoard, kBlack, Rules{.size = 9, .superko = superko});
    ASSERT_TRUE(p.is_legal(mv("E5")));
    p.apply(mv("E5"));
    EXPECT_EQ(p.at(pt("D5")), kEmpty);
    EXPECT_EQ(p.ko_point(), pt("D5"));
    EXPECT_EQ(p.check(mv("D5")), Illegal::kKo);
    EXPECT_EQ(p.hash(), p.compute_hash());
    // A move elsewhere by each side lifts the ban.
    p.apply(mv("J9"));
    EXPECT_EQ(p.ko_point(), 0);
    p.apply(mv("A1"));
    ASSERT_TRUE(p.is_legal(mv("D5")));
    p.apply(mv("D5"));
    EXPECT_EQ(p.at(pt("E5")), kEmpty);
    EXPECT_EQ(p.ko_point(), pt("E5"));
    EXPECT_EQ(p.check(mv("E5")), Illegal::kKo);
    // A pass also lifts it.
    p.apply(Move::pass());
    p.apply(Move::pass());
    EXPECT_TRUE(p.is_terminal());
    expect_consistent(p);
  }
}

TEST(GoRules, KoPointOnlyForASingleStoneRecapture) {
  // Black E5 captures D5 but the black stone then has more than one liberty (F5 is empty).
  Position p = diagram({".........", ".........", ".........", "...XO....", "..XO.....",
                        "...XO....", ".........", ".........", "........."});
  p.apply(mv("E5"));
  EXPECT_EQ(p.captured(kBlack), 1);
  EXPECT_EQ(p.ko_point(), 0);
}

// A triple ko on 19x19: three ko shapes along row 10, at columns C-F, J-M and P-S. In each,
// the "white" state has a white stone at the left point and the "black" state a black stone at
// the right point. P0 = (white, black, white) with black to move; six captures in turn bring
// P0 back, and only superko forbids the sixth.
Position triple_ko(bool superko) {
  Position p(Rules{.size = 19, .superko = superko});
  for (const int bx : {2, 8, 14}) {
    for (const auto& [x, y] : {std::pair{bx, 10}, {bx - 1, 9}, {bx, 8}})
      EXPECT_TRUE(p.place_stone(kBlack, point_of(x, y)));
    for (const auto& [x, y] : {std::pair{bx + 1, 10}, {bx + 2, 9}, {bx + 1, 8}})
      EXPECT_TRUE(p.place_stone(kWhite, point_of(x, y)));
  }
  EXPECT_TRUE(p.place_stone(kWhite, point_of(2, 9)));
  EXPECT_TRUE(p.place_stone(kBlack, point_of(9, 9)));
  EXPECT_TRUE(p.place_stone(kWhite, point_of(14, 9)));
  return p;
}

TEST(GoRules, PositionalSuperkoForbidsTheTripleKoCycle) {
  const std::array<Move, 6> cycle = {Move::at(3, 9), Move::at(8, 9), Move::at(15, 9),
                                     Move::at(2, 9), Move::at(9, 9), Move::at(14, 9)};
  Position p = triple_ko(true);
  const std::uint64_t start = p.stone_hash();
  EXPECT_EQ(p.history_size(), 1);
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(p.check(cycle[i]), Illegal::kLegal) << i;
    p.apply(cycle[i]);
    EXPECT_EQ(p.captured(i % 2 == 0 ? kBlack : kWhite), i / 2 + 1);
    EXPECT_NE(p.stone_hash(), start);
  }
  // Simple ko bans only the last capture's point (J10), not the sixth move.
  EXPECT_EQ(p.ko_point(), point_of(8, 9));
  EXPECT_EQ(p.check(cycle[5]), Illegal::kSuperko);
  MoveList<Position> moves;
  p.legal_moves(moves);
  EXPECT_FALSE(moves.contains(cycle[5]));
  EXPECT_FALSE(p.play(cycle[5]));

  // Without superko the cycle closes and the first board is back.
  Position q = triple_ko(false);
  for (const Move m : cycle) {
    ASSERT_TRUE(q.is_legal(m)) << to_vertex(m, 19);
    q.apply(m);
  }
  EXPECT_EQ(q.stone_hash(), start);
  EXPECT_EQ(q.to_move(), kBlack);
  expect_consistent(q);
}

TEST(GoRules, TwoConsecutivePassesEndTheGame) {
  Position p(Rules{.size = 9});
  p.apply(Move::pass());
  EXPECT_FALSE(p.is_terminal());
  EXPECT_EQ(p.passes(), 1);
  EXPECT_NE(p.hash(), Position(Rules{.size = 9}).hash());  // side to move and pass state
  p.apply(mv("E5"));
  EXPECT_EQ(p.passes(), 0);
  p.apply(Move::pass());
  EXPECT_FALSE(p.is_terminal());
  p.apply(Move::pass());
  EXPECT_TRUE(p.is_terminal());
  EXPECT_EQ(p.current_player(), kTerminalPlayer);
  MoveList<Position> moves;
  EXPECT_EQ(p.legal_moves(moves), 0u);
  EXPECT_EQ(p.check(mv("A1")), Illegal::kGameOver);
  // White's lone stone owns the whole board: 81 - 7.5.
  EXPECT_DOUBLE_EQ(p.score(), -81 - 7.5);  // E5 was white's move
  EXPECT_EQ(p.returns(), (Returns<Position>{-1.0, 1.0}));
}

TEST(GoRules, ResignationDecidesTheGame) {
  Position p(Rules{.size = 9});
  p.apply(mv("E5"));
  p.apply(Move::resign());  // white resigns
  EXPECT_TRUE(p.is_terminal());
  EXPECT_EQ(p.resigned(), kWhite);
  EXPECT_EQ(p.winner(), kBlack);
  EXPECT_EQ(p.returns(), (Returns<Position>{1.0, -1.0}));
  Position q(Rules{.size = 9});
  q.apply(Move::resign());  // black resigns although the board is level
  EXPECT_EQ(q.returns(), (Returns<Position>{-1.0, 1.0}));
}

TEST(GoRules, MoveCapEndsTheGame) {
  Position p(Rules{.size = 9, .max_moves = 3});
  EXPECT_EQ(p.max_moves(), 3);
  p.apply(mv("E5"));
  p.apply(mv("E6"));
  EXPECT_FALSE(p.is_terminal());
  p.apply(mv("D5"));
  EXPECT_TRUE(p.is_terminal());
  EXPECT_EQ(Position(Rules{.size = 9}).max_moves(), 243);
  EXPECT_EQ(Position(Rules{.size = 19}).max_moves(), Position::kHistoryCapacity - 1);
  EXPECT_EQ(Position(Rules{.size = 19, .max_moves = 100000}).max_moves(),
            Position::kHistoryCapacity - 1);
}

TEST(GoRules, SetupStoneErrors) {
  Position p(Rules{.size = 9});
  ASSERT_TRUE(p.place_stone(kBlack, pt("A2")));
  EXPECT_EQ(p.place_stone(kBlack, pt("A2")).error().message, "setup stone at A2: occupied");
  EXPECT_FALSE(p.place_stone(kBlack, 0));
  EXPECT_FALSE(p.place_stone(kBlack, point_of(9, 0)));  // the wall right of J1
  EXPECT_FALSE(p.place_stone(kEmpty, pt("C3")));
  ASSERT_TRUE(p.place_stone(kBlack, pt("B1")));
  EXPECT_EQ(p.place_stone(kWhite, pt("A1")).error().message,
            "setup stone at A1: leaves its chain without liberties");
  EXPECT_EQ(p.hash(), p.compute_hash());
  expect_consistent(p);

  // Black B1 with the one liberty A1: a white stone there (with the liberty A2) would take it.
  Position q(Rules{.size = 9});
  ASSERT_TRUE(q.place_stone(kBlack, pt("B1")));
  ASSERT_TRUE(q.place_stone(kWhite, pt("C1")));
  ASSERT_TRUE(q.place_stone(kWhite, pt("B2")));
  EXPECT_EQ(q.place_stone(kWhite, pt("A1")).error().message,
            "setup stone at A1: takes the last liberty of the chain at B1");
  EXPECT_EQ(q.to_move(), kBlack);
  EXPECT_EQ(q.history_size(), 1);  // setup replaces the start position, it adds no move
}

TEST(GoRules, LocalQueries) {
  Position p = diagram({".........", ".........", ".........", ".........", ".........",
                        ".........", "XX.......", ".XO......", "X.XO....."});
  // A2: black on all four sides (one a wall) and no white diagonal: an eye. B1: white C2 on a
  // diagonal of an edge point: not an eye.
  EXPECT_TRUE(p.is_eye(pt("A2"), kBlack));
  EXPECT_FALSE(p.is_eye(pt("A2"), kWhite));
  EXPECT_FALSE(p.is_eye(pt("B1"), kBlack));
  EXPECT_FALSE(p.is_eye(pt("E5"), kBlack));
  EXPECT_FALSE(p.is_eye(pt("B2"), kBlack));  // occupied
  EXPECT_EQ(p.chain_size(pt("A3")), 3);      // A3 B3 B2
  EXPECT_EQ(p.liberties(pt("B2")), 5);       // A2 A4 B4 C3 B1
  EXPECT_EQ(p.chain_size(pt("A1")), 1);
  EXPECT_EQ(p.liberties(pt("A1")), 2);  // A2 B1
  EXPECT_EQ(p.liberties(pt("C1")), 1);  // B1
  EXPECT_EQ(p.liberties(pt("E5")), 0);  // empty
  EXPECT_EQ(p.chain_size(pt("E5")), 0);
  // White B1 captures C1 (A1 keeps A2); black B1 does not capture.
  EXPECT_FALSE(p.captures(mv("B1")));
  p.set_to_move(kWhite);
  EXPECT_TRUE(p.captures(mv("B1")));
  EXPECT_EQ(p.liberties_after(pt("B1"), 4), 1);  // C1 taken; A1 B2 still black
  EXPECT_TRUE(p.is_self_atari(mv("B1")));
  p.set_to_move(kBlack);
  // Black D2: liberties D3 and E2 (C2 and D1 keep two liberties each, nothing is taken).
  EXPECT_EQ(p.liberties_after(pt("D2"), 4), 2);
  // Black B1 joins A1, C1 and the A3 chain: liberties A2 A4 B4 C3.
  EXPECT_EQ(p.liberties_after(pt("B1"), 8), 4);
  EXPECT_EQ(p.liberties_after(pt("B1"), 2), 2);
  const auto nb = neighbours(pt("E5"));
  EXPECT_EQ(nb[0], pt("E4"));
  EXPECT_EQ(nb[3], pt("E6"));
}

TEST(GoRules, SelfAtariInTheCorner) {
  Position p = diagram({".........", ".........", ".........", ".........", ".........",
                        ".........", "O........", ".O.......", "........."});
  // Black at A1 has A2 and B1 as liberties: not in atari. Black at A2 next to white A3 and B2:
  // liberty A1 only.
  EXPECT_FALSE(p.is_self_atari(mv("A1")));
  EXPECT_TRUE(p.is_self_atari(mv("A2")));
  EXPECT_EQ(p.liberties_after(pt("A2")), 1);
  EXPECT_FALSE(p.is_self_atari(Move::pass()));
}

}  // namespace
}  // namespace kibitz::go
