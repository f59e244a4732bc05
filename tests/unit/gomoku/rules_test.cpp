// Gomoku rules on positions whose answers are known: fives in every direction, overlines
// under each rule, the full-board draw, move lists, notation and the registry entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/rng.hpp"
#include "games/registry.hpp"
#include "unit/gomoku/gomoku_test_util.hpp"

namespace kibitz::gomoku {
namespace {

using testing::at;
using testing::mv;
using testing::setup;
using testing::sq;

TEST(GomokuRules, FiveWinsInEveryDirectionAndAtTheEdges) {
  const std::array<std::pair<int, int>, 4> dirs = {{{1, 0}, {0, 1}, {1, 1}, {1, -1}}};
  // Starts that put the five along edges and into corners of a 15x15 board.
  const std::array<std::pair<int, int>, 6> starts = {
      {{0, 0}, {10, 14}, {14, 0}, {0, 14}, {10, 10}, {5, 7}}};
  int checked = 0;
  for (const auto& [dx, dy] : dirs) {
    for (const auto& [sx, sy] : starts) {
      if (sx + 4 * dx < 0 || sx + 4 * dx >= 15 || sy + 4 * dy < 0 || sy + 4 * dy >= 15) continue;
      for (int last = 0; last < 5; ++last) {  // the completing stone anywhere in the five
        std::vector<std::pair<int, int>> black;
        for (int i = 0; i < 5; ++i)
          if (i != last) black.emplace_back(sx + i * dx, sy + i * dy);
        auto p = Position::from_setup({}, black, {}, 0);
        ASSERT_TRUE(p) << p.error().message;
        const Move m = at(sx + last * dx, sy + last * dy);
        EXPECT_TRUE(p->makes_five(m, kBlack));
        // The winning move found may be the other end of an open four.
        EXPECT_TRUE(p->makes_five(p->winning_move(), kBlack));
        ASSERT_FALSE(p->is_terminal());
        p->apply(m);
        EXPECT_TRUE(p->is_terminal()) << dx << "," << dy << " from " << sx << "," << sy;
        EXPECT_EQ(p->winner(), 0);
        EXPECT_EQ(p->returns(), (Returns<Position>{1.0, -1.0}));
        EXPECT_EQ(p->current_player(), kTerminalPlayer);
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 60);
}

TEST(GomokuRules, FiveFromAPlayedGame) {
  // Black spreads along the bottom edge; white makes a five on row 6 with its fifth stone.
  const std::vector<std::pair<int, int>> win = {{0, 14}, {5, 5},  {2, 14}, {6, 5}, {4, 14},
                                                {7, 5},  {6, 14}, {8, 5},  {8, 14}};
  auto w = Position::from_moves({}, win);
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_FALSE(w->is_terminal());
  EXPECT_EQ(w->side_to_move(), kWhite);
  EXPECT_TRUE(w->opponent_can_win() == false);
  EXPECT_EQ(w->winning_move(), at(4, 5));  // of the open four's two ends, the first in order
  w->apply(at(4, 5));
  EXPECT_TRUE(w->is_terminal());
  EXPECT_EQ(w->winner(), 1);
  EXPECT_EQ(w->returns(), (Returns<Position>{-1.0, 1.0}));
  EXPECT_EQ(w->last_move(), at(4, 5));
}

TEST(GomokuRules, FromMovesNamesTheFirstBadMove) {
  const std::vector<std::pair<int, int>> off = {{7, 7}, {15, 0}};
  auto a = Position::from_moves({}, off);
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("move 2"), std::string::npos) << a.error().message;
  EXPECT_NE(a.error().message.find("off the 15x15 board"), std::string::npos);
  const std::vector<std::pair<int, int>> twice = {{7, 7}, {8, 8}, {7, 7}};
  auto b = Position::from_moves({}, twice);
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message.find("move 3"), std::string::npos) << b.error().message;
  EXPECT_NE(b.error().message.find("occupied"), std::string::npos);
  const std::vector<std::pair<int, int>> after = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0},
                                                  {2, 1}, {3, 0}, {3, 1}, {4, 0}, {4, 1}};
  auto c = Position::from_moves({}, after);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("move 10"), std::string::npos) << c.error().message;
  EXPECT_NE(c.error().message.find("over"), std::string::npos);
  EXPECT_FALSE(Position::from_moves({.size = 14}, {}));
  EXPECT_FALSE(Position::from_moves({.size = 21}, {}));
}

TEST(GomokuRules, FromSetupChecksItsStones) {
  const std::vector<std::pair<int, int>> five = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}};
  EXPECT_FALSE(Position::from_setup({}, five, {}, 1));
  // An overline is no five under exact five, so that set-up is fine there.
  const std::vector<std::pair<int, int>> six = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}};
  EXPECT_FALSE(Position::from_setup({}, six, {}, 1));
  EXPECT_TRUE(Position::from_setup({.rule = Rule::kExactFive}, six, {}, 1));
  const std::vector<std::pair<int, int>> one = {{3, 3}};
  EXPECT_FALSE(Position::from_setup({}, one, one, 0));  // a point given twice
  const std::vector<std::pair<int, int>> off = {{3, 15}};
  EXPECT_FALSE(Position::from_setup({}, off, {}, 0));
  EXPECT_FALSE(Position::from_setup({}, one, {}, 2));          // no such side
  EXPECT_FALSE(Position::from_setup({}, one, {}, 0, {2, 0}));  // captures without the rule
  auto p = Position::from_setup({.size = 19, .rule = Rule::kCapture}, one, {}, 1, {4, 6});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->captured(kBlack), 4);
  EXPECT_EQ(p->captured(kWhite), 6);
  EXPECT_EQ(p->side_to_move(), kWhite);
  EXPECT_EQ(p->hash(), p->compute_hash());
}

TEST(GomokuRules, OverlineUnderEachRule) {
  // X X X _ X X on row 8: the gap makes six.
  const std::initializer_list<std::string_view> shape = {"XXX.XX"};
  const Move gap = at(6, 7);
  {
    Position p = setup({}, shape, kBlack, 3, 7);
    EXPECT_TRUE(p.makes_five(gap, kBlack));
    p.apply(gap);
    EXPECT_EQ(p.winner(), 0);  // freestyle: an overline wins
  }
  for (Color c : {kBlack, kWhite}) {
    // exact five: an overline does not win, for either colour, and the game goes on.
    Position p = setup({.rule = Rule::kExactFive}, {c == kBlack ? "XXX.XX" : "OOO.OO"}, c, 3, 7);
    EXPECT_FALSE(p.makes_five(gap, c));
    EXPECT_EQ(p.pattern(gap.sq, c, 0), Pattern::kOverline);
    EXPECT_TRUE(p.is_legal(gap));
    p.apply(gap);
    EXPECT_FALSE(p.is_terminal());
    EXPECT_EQ(p.winner(), -1);
  }
  {
    // renju: forbidden for black...
    Position p = setup({.rule = Rule::kRenju}, shape, kBlack, 3, 7);
    EXPECT_TRUE(p.is_forbidden(gap));
    EXPECT_FALSE(p.is_legal(gap));
    MoveList<Position> moves;
    p.legal_moves(moves);
    EXPECT_FALSE(moves.contains(gap));
    EXPECT_EQ(moves.size(), 225u - 5u - 1u);
  }
  {
    // ... and a win for white.
    Position p = setup({.rule = Rule::kRenju}, {"OOO.OO"}, kWhite, 3, 7);
    EXPECT_FALSE(p.is_forbidden(gap));
    EXPECT_TRUE(p.makes_five(gap, kWhite));
    p.apply(gap);
    EXPECT_EQ(p.winner(), 1);
  }
}

TEST(GomokuRules, FullBoardIsADraw) {
  // Colours by (x + 2y) mod 4: runs of at most two along every line, 113 black, 112 white.
  std::vector<Move> black, white;
  for (int y = 0; y < 15; ++y)
    for (int x = 0; x < 15; ++x) ((x + 2 * y) % 4 < 2 ? black : white).push_back(at(x, y));
  ASSERT_EQ(black.size(), 113u);
  ASSERT_EQ(white.size(), 112u);
  for (Rule rule : {Rule::kFreestyle, Rule::kExactFive}) {
    Position p({.size = 15, .rule = rule});
    for (std::size_t i = 0; i < 225; ++i) {
      ASSERT_FALSE(p.is_terminal()) << "ply " << i;
      const Move m = i % 2 == 0 ? black[i / 2] : white[i / 2];
      ASSERT_TRUE(p.is_legal(m));
      p.apply(m);
    }
    EXPECT_TRUE(p.is_terminal());
    EXPECT_EQ(p.winner(), -1);
    EXPECT_EQ(p.returns(), (Returns<Position>{0.0, 0.0}));
    MoveList<Position> moves;
    EXPECT_EQ(p.legal_moves(moves), 0u);
    EXPECT_EQ(p.stones_on_board(), 225);
  }
}

TEST(GomokuRules, CandidateMovesStayNearStones) {
  Position p;
  MoveList<Position> c;
  p.candidate_moves(c);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0], mv("h8"));
  p.apply(mv("h8"));
  EXPECT_EQ(p.candidate_moves(c), 24u);  // the 5x5 square around it
  EXPECT_EQ(p.candidate_moves(c, 1), 8u);
  EXPECT_EQ(p.candidate_moves(c, 3), 48u);
  Position corner;
  corner.apply(mv("a1"));
  EXPECT_EQ(corner.candidate_moves(c), 8u);
  EXPECT_EQ(corner.candidate_moves(c, 4), 24u);
}

// Against a brute force over the board: the empty points within `radius` (Chebyshev) of a
// stone that the side to move may play, in board order (the search's move order depends on
// it), on random games under every rule (renju's forbidden points and the capture rule's
// removed stones included) and on both board sizes.
TEST(GomokuRules, CandidateMovesMatchABruteForce) {
  for (const Rule rule : {Rule::kFreestyle, Rule::kExactFive, Rule::kRenju, Rule::kCapture}) {
    for (const int size : {15, 20}) {
      Rng rng(static_cast<std::uint64_t>(rule) * 31 + static_cast<std::uint64_t>(size));
      for (int game = 0; game < 8; ++game) {
        Position p(Variant{size, rule});
        for (int ply = 0; ply < 90 && !p.is_terminal(); ++ply) {
          for (const int radius : {1, 2, 3}) {
            MoveList<Position> got;
            p.candidate_moves(got, radius);
            std::vector<Move> want;
            for (int y = 0; y < size; ++y)
              for (int x = 0; x < size; ++x) {
                const Move m = at(x, y);
                if (p.stone(m.sq) != kEmpty || !p.is_legal(m)) continue;
                bool near = false;
                for (int yy = std::max(0, y - radius); yy <= std::min(size - 1, y + radius); ++yy)
                  for (int xx = std::max(0, x - radius); xx <= std::min(size - 1, x + radius); ++xx)
                    near = near || p.stone(at(xx, yy).sq) <= kWhite;
                if (near) want.push_back(m);
              }
            if (p.stones_on_board() == 0) want = {at(size / 2, size / 2)};
            ASSERT_EQ(std::vector<Move>(got.begin(), got.end()), want)
                << rule_name(rule) << " radius " << radius << "\n"
                << p.to_string();
          }
          MoveList<Position> moves;
          if (p.candidate_moves(moves, 1) == 0) break;
          p.apply(moves[rng.below(moves.size())]);
        }
      }
    }
  }
}

TEST(GomokuNotation, RoundTrips) {
  const Position big({.size = 20});
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 20; ++x) {
      const Move m = at(x, y);
      auto a = parse_move(big, to_text(m));
      ASSERT_TRUE(a) << to_text(m);
      EXPECT_EQ(*a, m);
      auto b = parse_move(big, to_gomocup(m));
      ASSERT_TRUE(b) << to_gomocup(m);
      EXPECT_EQ(*b, m);
    }
  EXPECT_EQ(to_text(at(7, 7)), "h8");
  EXPECT_EQ(to_gomocup(at(7, 7)), "7,7");
  EXPECT_EQ(to_text(at(0, 0)), "a1");
  EXPECT_EQ(to_text(at(19, 19)), "t20");
  EXPECT_EQ(to_gomocup(at(3, 12)), "3,12");
  const Position p;
  EXPECT_EQ(*parse_move(p, "H8"), at(7, 7));
  EXPECT_EQ(*parse_move(p, " 7, 7 "), at(7, 7));
}

TEST(GomokuNotation, Errors) {
  Position p;
  p.apply(mv("h8"));
  for (const char* off : {"p1", "a16", "a0", "15,0", "0,15", "t20"}) {
    auto m = parse_move(p, off);
    ASSERT_FALSE(m) << off;
    EXPECT_NE(m.error().message.find("off the 15x15 board"), std::string::npos)
        << m.error().message;
  }
  auto occupied = parse_move(p, "h8");
  ASSERT_FALSE(occupied);
  EXPECT_NE(occupied.error().message.find("occupied"), std::string::npos);
  EXPECT_FALSE(parse_move(p, "7,7"));
  for (const char* bad : {"", "h", "88", "h8x", "1,", ",1", "a,b", "-1,2", "hh", "h 8", "#8"}) {
    auto m = parse_move(p, bad);
    ASSERT_FALSE(m) << bad;
    EXPECT_NE(m.error().message.find("bad gomoku move"), std::string::npos) << m.error().message;
  }
}

TEST(GomokuRules, RuleNames) {
  for (Rule r : {Rule::kFreestyle, Rule::kExactFive, Rule::kRenju, Rule::kCapture})
    EXPECT_EQ(*parse_rule(rule_name(r)), r);
  EXPECT_EQ(rule_name(Rule::kExactFive), "exact5");
  auto bad = parse_rule("go");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("unknown gomoku rule 'go'"), std::string::npos);
}

TEST(GomokuRegistry, PlaysThroughAnyState) {
  Registry registry;
  register_builtin_games(registry);
  const GameEntry* g = registry.find("gomoku");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->num_players, 2);
  auto state = g->new_state("");
  ASSERT_TRUE(state) << state.error().message;
  auto& s = **state;
  EXPECT_EQ(s.legal_moves().size(), 225u);
  EXPECT_EQ(s.current_player(), 0);
  ASSERT_TRUE(s.apply("h8"));
  ASSERT_TRUE(s.apply("8,8"));  // Gomocup spelling of i9
  EXPECT_EQ(s.to_string(), "h8 i9");
  EXPECT_EQ(s.current_player(), 0);
  auto bad = s.apply("h8");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("occupied"), std::string::npos);
  EXPECT_FALSE(s.apply("z99"));
  auto copy = s.clone();
  for (const char* m : {"h9", "a1", "h10", "a3", "h11", "a5", "h12"})
    ASSERT_TRUE(copy->apply(m)) << m;
  EXPECT_TRUE(copy->is_terminal());
  EXPECT_EQ(copy->returns(), (std::vector<double>{1.0, -1.0}));
  EXPECT_FALSE(copy->apply("b2"));
  EXPECT_NE(copy->hash(), s.hash());

  auto renju = g->new_state("renju 15 h8 i9");
  ASSERT_TRUE(renju) << renju.error().message;
  EXPECT_EQ((*renju)->to_string(), "renju 15 h8 i9");
  auto capture = g->new_state("capture");
  ASSERT_TRUE(capture);
  EXPECT_EQ((*capture)->legal_moves().size(), 361u);
  EXPECT_EQ((*capture)->to_string(), "capture 19");
  auto sized = g->new_state("20 a1");
  ASSERT_TRUE(sized);
  EXPECT_EQ((*sized)->to_string(), "freestyle 20 a1");

  // Renju black may not play a double three: i9-i10 and j8-k8 cross at h8... (black: h9 h10
  // and i8 j8; white elsewhere), so black's h8 is refused.
  auto forbidden = g->new_state("renju h9 a1 h10 a3 i8 a5 j8 a7");
  ASSERT_TRUE(forbidden) << forbidden.error().message;
  auto refused = (*forbidden)->apply("h8");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("not legal"), std::string::npos)
      << refused.error().message;

  // A board whose order is unknown (Gomocup's BOARD): the same stones as colour-prefixed
  // setup words are placed with no rule checked, so black's h8 is on the board; black is to
  // move with the colours even, and moves may follow.
  auto setup = g->new_state("renju 15 b:h9 w:a1 b:h10 w:a3 b:i8 w:a5 b:j8 w:a7 b:h8 w:a9 o8");
  ASSERT_TRUE(setup) << setup.error().message;
  EXPECT_EQ((*setup)->to_string(),
            "renju 15 b:h9 w:a1 b:h10 w:a3 b:i8 w:a5 b:j8 w:a7 b:h8 w:a9 o8");
  EXPECT_EQ((*setup)->current_player(), 1);
  EXPECT_FALSE((*setup)->apply("h8"));  // occupied
  auto uneven = g->new_state("b:h8 b:h9");
  ASSERT_FALSE(uneven);
  EXPECT_NE(uneven.error().message.find("2 black and 0 white"), std::string::npos)
      << uneven.error().message;
  EXPECT_FALSE(g->new_state("b:h8 w:h8"));  // a point twice
  EXPECT_FALSE(g->new_state("x:h8"));

  auto twice = g->new_state("h8 h8");
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("move 2"), std::string::npos) << twice.error().message;
  EXPECT_FALSE(g->new_state("renju 14"));
  EXPECT_FALSE(g->new_state("h8 renju"));
}

// The symmetry hash is the same for all 8 transforms of a position (DESIGN: Go and gomoku),
// and the transformed positions are the same game: consistent pattern state, the same
// evaluation and the same number of candidate moves; one more stone changes the hash.
TEST(GomokuRules, SymmetryHashIsInvariantUnderTheEightTransforms) {
  static_assert(Symmetric<Position>);
  for (const Rule rule : {Rule::kFreestyle, Rule::kRenju, Rule::kCapture}) {
    Rng rng(static_cast<std::uint64_t>(rule) + 5);
    for (int game = 0; game < 12; ++game) {
      Position p(Variant{rule == Rule::kCapture ? 19 : 15, rule});
      for (int ply = 0; ply < 40 && !p.is_terminal(); ++ply) {
        MoveList<Position> moves;
        if (p.candidate_moves(moves, 1) == 0) break;
        const Move m = moves[rng.below(moves.size())];
        const std::uint64_t before = p.sym_hash();
        p.apply(m);
        EXPECT_NE(p.sym_hash(), before);
        if (ply % 8 != 7) continue;
        MoveList<Position> mine, theirs;
        p.candidate_moves(mine);
        for (int t = 0; t < Position::kNumSymmetries; ++t) {
          const Position q = p.transformed(t);
          ASSERT_EQ(q.sym_hash(), p.sym_hash()) << "transform " << t << "\n" << p.to_string();
          if (t == 0) {
            EXPECT_TRUE(q == p);
          }
          EXPECT_TRUE(q.pattern_state_consistent());
          EXPECT_EQ(q.evaluate(), p.evaluate());
          EXPECT_EQ(q.candidate_moves(theirs), mine.size());
        }
      }
    }
  }
}

}  // namespace
}  // namespace kibitz::gomoku
