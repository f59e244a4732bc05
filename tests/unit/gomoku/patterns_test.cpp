// Line patterns: known shapes, and the incremental pattern state checked against a slow
// reference classifier and a from-scratch rebuild along random games (captures included).
#include <gtest/gtest.h>

#include <map>

#include "core/rng.hpp"
#include "games/gomoku/eval_weights.hpp"
#include "games/gomoku/patterns.hpp"
#include "unit/gomoku/gomoku_test_util.hpp"

namespace kibitz::gomoku {
namespace {

using testing::at;
using testing::setup;

// --- a slow reference classifier, straight from the definitions ----------------------------
// A line as cells -5..5 around the point (index 5): 0 empty, 1 own, 2 blocked.
using Line = std::array<int, 11>;

struct RefPattern {
  Pattern p;
  bool two_fours;  // a kFlexFour that is two separate fours
};

class Reference {
 public:
  explicit Reference(bool exact) : exact_(exact) {}

  // What own makes by playing the centre of `line` (the centre is empty in `line`).
  RefPattern classify(Line line) {
    line[5] = 1;
    return of_filled(line);
  }

 private:
  bool is_five(const Line& l, int& run) const {
    int a = 5, b = 5;
    while (a > 0 && l[a - 1] == 1) --a;
    while (b < 10 && l[b + 1] == 1) ++b;
    run = b - a + 1;
    return exact_ ? run == 5 : run >= 5;
  }

  RefPattern of_filled(const Line& l) {
    if (auto it = memo_.find(l); it != memo_.end()) return it->second;
    RefPattern r{Pattern::kNone, false};
    int run = 0;
    if (is_five(l, run)) {
      r.p = Pattern::kFive;
    } else if (run >= 6) {
      r.p = Pattern::kOverline;
    } else {
      std::vector<int> fives;
      std::vector<RefPattern> next;
      for (int i = 1; i <= 9; ++i) {
        if (i == 5 || l[i] != 0) continue;
        Line child = l;
        child[i] = 1;
        int child_run = 0;
        // A five through the centre made by adding i.
        if (is_five(child, child_run)) fives.push_back(i);
        next.push_back(of_filled(child));
      }
      if (fives.size() >= 2) {
        bool straight = false;
        for (int a : fives)
          for (int b : fives) straight = straight || b - a == 5;
        r = {Pattern::kFlexFour, !straight};
      } else if (fives.size() == 1) {
        r.p = Pattern::kFour;
      } else {
        auto any = [&](auto pred) {
          for (const RefPattern& n : next)
            if (pred(n)) return true;
          return false;
        };
        if (any([](RefPattern n) { return n.p == Pattern::kFlexFour && !n.two_fours; }))
          r.p = Pattern::kFlexThree;
        else if (any([](RefPattern n) {
                   return n.p == Pattern::kFour || n.p == Pattern::kFlexFour;
                 }))
          r.p = Pattern::kThree;
        else if (any([](RefPattern n) { return n.p == Pattern::kFlexThree; }))
          r.p = Pattern::kFlexTwo;
        else if (any([](RefPattern n) { return n.p == Pattern::kThree; }))
          r.p = Pattern::kTwo;
        else
          r.p = can_make_five(l) ? Pattern::kNone : Pattern::kDead;
      }
    }
    memo_[l] = r;
    return r;
  }

  bool can_make_five(const Line& l) const {
    for (int start = 1; start <= 5; ++start) {
      bool open = true;
      for (int i = start; i < start + 5; ++i) open = open && l[i] != 2;
      if (open && exact_ && (l[start - 1] == 1 || l[start + 5] == 1)) open = false;
      if (open) return true;
    }
    return false;
  }

  bool exact_;
  std::map<Line, RefPattern> memo_;
};

// The line around (x, y) along (dx, dy) for colour c, read with coordinates.
Line line_at(const Position& p, int x, int y, int dx, int dy, Color c) {
  Line l{};
  for (int side = -1; side <= 1; side += 2) {
    bool off = false;
    for (int k = 1; k <= 5; ++k) {
      const int xx = x + side * k * dx, yy = y + side * k * dy;
      off = off || xx < 0 || yy < 0 || xx >= p.size() || yy >= p.size();
      int v = 2;
      if (!off) {
        const Color s = p.stone(square_of(xx, yy));
        v = s == c ? 1 : s == kEmpty ? 0 : 2;
      }
      l[5 + side * k] = v;
    }
  }
  return l;
}

constexpr std::array<std::pair<int, int>, 4> kSteps = {{{1, 0}, {0, 1}, {1, 1}, {-1, 1}}};

// Every empty point's pattern, both colours, four directions, against the reference.
void expect_patterns_match(const Position& p, Reference& black_ref, Reference& white_ref) {
  for (int y = 0; y < p.size(); ++y)
    for (int x = 0; x < p.size(); ++x) {
      const int s = square_of(x, y);
      if (p.stone(s) != kEmpty) continue;
      for (Color c : {kBlack, kWhite})
        for (int d = 0; d < 4; ++d) {
          // kDirections[3] = kStride - 1 is (x - 1, y + 1).
          const auto [dx, dy] = kSteps[d];
          const Pattern want =
              (c == kBlack ? black_ref : white_ref).classify(line_at(p, x, y, dx, dy, c)).p;
          ASSERT_EQ(p.pattern(s, c, d), want)
              << "point " << to_text(Move{static_cast<std::uint16_t>(s)}) << " colour " << int(c)
              << " dir " << d << "\n"
              << p.to_string();
        }
    }
}

// --- known shapes ---------------------------------------------------------------------------

Pattern row_pattern(std::string_view row, int query_x, Rule rule = Rule::kFreestyle,
                    Color c = kBlack) {
  const Position p = setup({.size = 15, .rule = rule}, {row}, kBlack, 0, 7);
  return p.pattern(at(query_x, 7).sq, c, 0);
}

TEST(GomokuPatterns, KnownShapes) {
  // The query point is the '.' at the given x; the rest of the row is open board.
  EXPECT_EQ(row_pattern("...X.XX.", 7), Pattern::kFour);          // X_XX? -> O_OOO
  EXPECT_EQ(row_pattern("...XX..X", 6), Pattern::kFour);          // OO_OO
  EXPECT_EQ(row_pattern("....XX...", 6), Pattern::kFlexThree);    // _OOO_
  EXPECT_EQ(row_pattern("....XX.....", 7), Pattern::kFlexThree);  // _OO_O_
  EXPECT_EQ(row_pattern("....XXX....", 7), Pattern::kFlexFour);   // open four
  EXPECT_EQ(row_pattern("...OXXX....", 7), Pattern::kFour);       // blocked four
  EXPECT_EQ(row_pattern("...OXX.....", 6), Pattern::kThree);      // blocked three
  EXPECT_EQ(row_pattern("..O.XX..O..", 6), Pattern::kThree);      // O_OOO_O: no open four
  EXPECT_EQ(row_pattern("..O.XX.O...", 6), Pattern::kDead);       // four cells between stones
  EXPECT_EQ(row_pattern("....X......", 5), Pattern::kFlexTwo);    // _OO_ in open space
  EXPECT_EQ(row_pattern("...OX......", 5), Pattern::kTwo);        // blocked two
  EXPECT_EQ(row_pattern("...O.XX.O..", 4), Pattern::kDead);       // four cells of room
  EXPECT_EQ(row_pattern("...............", 7), Pattern::kNone);
  EXPECT_EQ(row_pattern("...XXXX....", 7), Pattern::kFive);
  EXPECT_EQ(row_pattern("...XXX.XX..", 6), Pattern::kFive);  // overline wins here
  EXPECT_EQ(row_pattern("...XXX.XX..", 6, Rule::kExactFive), Pattern::kOverline);
  EXPECT_EQ(row_pattern("XXXX.", 4, Rule::kExactFive), Pattern::kFive);  // at the edge
  // Exact five: X X X X _ X cannot become five at the gap (six), so the gap is no four point.
  EXPECT_EQ(row_pattern("..XXX..X...", 5, Rule::kExactFive), Pattern::kFour);
  EXPECT_EQ(row_pattern("..XXX..X...", 5), Pattern::kFlexFour);  // freestyle: two five points
  // From white's side the same row is all blocked.
  EXPECT_EQ(row_pattern("....XXX....", 7, Rule::kFreestyle, kWhite), Pattern::kNone);
  // Along other directions: a vertical open three and a diagonal four.
  const Position v =
      setup({}, {"X....", "X....", ".....", "..X..", "...X.", "....X"}, kBlack, 3, 3);
  EXPECT_EQ(v.pattern(at(3, 5).sq, kBlack, 1), Pattern::kFlexThree);
  EXPECT_EQ(v.pattern(at(8, 9).sq, kBlack, 2), Pattern::kFlexFour);
  EXPECT_EQ(v.threat(at(8, 9).sq, kBlack), Threat::kFlexFour);
  EXPECT_EQ(v.pattern(at(8, 9).sq, kBlack, 0), Pattern::kNone);
}

// The line keys read the cells five away as empty but for an exact table's own stones
// (Position::outer_, detail::outer_key): that is only right if the plain table never depends
// on them and the exact-five table never tells a blocked one from an empty one. It does
// depend on an own stone there.
TEST(GomokuPatterns, FiveOrMoreIgnoresTheCellsFiveAway) {
  const detail::Entry* plain = detail::pattern_table(false);
  const detail::Entry* exact = detail::pattern_table(true);
  int exact_differs = 0, normalised = 0;
  for (int key = 0; key < detail::kNumKeys; ++key) {
    ASSERT_EQ(plain[key], plain[detail::inner_key(key)]) << "key " << key;
    ASSERT_EQ(plain[key], plain[detail::outer_key(key, false)]) << "key " << key;
    ASSERT_EQ(exact[key], exact[detail::outer_key(key, true)]) << "key " << key;
    exact_differs += exact[key] != exact[detail::inner_key(key)];
    normalised += detail::outer_key(key, true) != key;
  }
  EXPECT_GT(exact_differs, 0);
  // The keys with a blocked cell at either end change: 1 - (2/3)^2 = 5/9 of them.
  EXPECT_EQ(normalised, detail::kNumKeys / 9 * 5);
}

TEST(GomokuPatterns, CaptureCountsPerPoint) {
  const Position p = setup({.size = 19, .rule = Rule::kCapture}, {"XOO.OOX"}, kBlack, 3, 3);
  EXPECT_EQ(p.capture_count(at(6, 3).sq, kBlack), 2);
  EXPECT_EQ(p.capture_count(at(6, 3).sq, kWhite), 0);
  const Position f = setup({}, {"XOO.OOX"}, kBlack, 3, 3);
  EXPECT_EQ(f.capture_count(at(6, 3).sq, kBlack), 0);  // no captures outside the variant
}

// --- the incremental state along random games ---------------------------------------------

// line_patterns (one load, for move ordering) reads the same four patterns as pattern().
void expect_packed_patterns_match(const Position& p) {
  for (int sq = 0; sq < kSquares; ++sq) {
    if (p.stone(sq) != kEmpty) continue;
    for (Color c : {kBlack, kWhite}) {
      const std::uint32_t packed = p.line_patterns(sq, c);
      for (int d = 0; d < 4; ++d)
        ASSERT_EQ((packed >> (8 * d)) & 0x0f, static_cast<std::uint32_t>(p.pattern(sq, c, d)))
            << "point " << sq << " colour " << int{c} << " direction " << d;
    }
  }
}

void random_games(Variant v, int games, std::uint64_t seed) {
  Rng rng(seed);
  const bool exact_black = v.rule == Rule::kExactFive || v.rule == Rule::kRenju;
  const bool exact_white = v.rule == Rule::kExactFive;
  Reference black_ref(exact_black), white_ref(exact_white);
  int captures_seen = 0, plies = 0;
  for (int g = 0; g < games; ++g) {
    Position p(v);
    // Play near the stones most of the time so that patterns and captures happen.
    while (!p.is_terminal()) {
      MoveList<Position> moves;
      if (rng.below(4) == 0 || p.candidate_moves(moves, 1) == 0) p.legal_moves(moves);
      ASSERT_GT(moves.size(), 0u);
      const Move m = moves[rng.below(moves.size())];
      const Position before = p;
      Position::Undo u;
      p.make(m, u);
      ++plies;
      if (u.num_captured) ++captures_seen;
      ASSERT_EQ(p.hash(), p.compute_hash()) << p.to_string();
      // The prefetch key is exact unless the move captured or a pending five changed.
      if (v.rule != Rule::kCapture) {
        ASSERT_EQ(before.hash_after(m), p.hash());
      }
      ASSERT_TRUE(p.pattern_state_consistent()) << p.to_string();
      if (plies % 3 == 0) expect_patterns_match(p, black_ref, white_ref);
      if (plies % 3 == 1) expect_packed_patterns_match(p);
      if (::testing::Test::HasFatalFailure()) return;
      p.unmake(m, u);
      ASSERT_TRUE(p == before) << "unmake did not restore the position\n" << p.to_string();
      ASSERT_EQ(p.hash(), before.hash());
      ASSERT_EQ(p.evaluate(), before.evaluate());
      p.make(m, u);
    }
  }
  if (v.rule == Rule::kCapture) {
    EXPECT_GT(captures_seen, 5);
  }
}

TEST(GomokuPatterns, IncrementalStateMatchesTheReferenceFreestyle) {
  random_games({.size = 15, .rule = Rule::kFreestyle}, 4, 1);
}
TEST(GomokuPatterns, IncrementalStateMatchesTheReferenceExactFive) {
  random_games({.size = 16, .rule = Rule::kExactFive}, 3, 2);
}
TEST(GomokuPatterns, IncrementalStateMatchesTheReferenceRenju) {
  random_games({.size = 15, .rule = Rule::kRenju}, 4, 3);
}
TEST(GomokuPatterns, IncrementalStateMatchesTheReferenceCapture) {
  random_games({.size = 19, .rule = Rule::kCapture}, 4, 4);
}
TEST(GomokuPatterns, IncrementalStateMatchesTheReferenceOnTheLargestBoard) {
  random_games({.size = 20, .rule = Rule::kFreestyle}, 2, 5);
}

TEST(GomokuPatterns, EvaluationIsFromTheSideToMove) {
  Position p;
  const int tempo = builtin_eval_weights(p.rule()).tempo;
  EXPECT_EQ(p.evaluate(), tempo);  // only the tempo on an empty board
  p.apply(at(7, 7));
  const int white_view = p.evaluate();
  EXPECT_LT(white_view, tempo);  // black's stone counts against white
  // Black to move with an open three: a winning four next move.
  Position three = setup({}, {"XXX"}, kBlack, 6, 7);
  EXPECT_GE(three.evaluate(), 10000);
  EXPECT_LT(three.evaluate(), 20000);
  Position against = setup({}, {"XXX"}, kWhite, 6, 7);
  EXPECT_LT(against.evaluate(), tempo - 300);
  Position four = setup({}, {"OXXXX"}, kBlack, 5, 7);
  EXPECT_GE(four.evaluate(), 14000);
  EXPECT_LT(four.evaluate(), 20000);
  Position open_four = setup({}, {".XXXX."}, kWhite, 5, 7);
  EXPECT_LE(open_four.evaluate(), -14000);
  EXPECT_GT(open_four.evaluate(), -20000);
}

}  // namespace
}  // namespace kibitz::gomoku
