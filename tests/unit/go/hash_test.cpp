// Random playouts: the incremental hash, chains and liberties agree with values recomputed
// from scratch; the symmetry hash is the same for all 8 transforms of a position and tells
// different positions apart.
#include <gtest/gtest.h>

#include <set>

#include "core/rng.hpp"
#include "unit/go/go_test_util.hpp"

namespace kibitz::go {
namespace {

using testing::expect_consistent;

// A random legal move, pass only now and then so that boards fill up and captures happen.
Move random_move(const Position& p, Rng& rng) {
  MoveList<Position> moves;
  const std::size_t n = p.legal_moves(moves);
  if (n > 1 && rng.below(20) != 0) return moves[rng.below(n - 1)];
  return moves[rng.below(n)];
}

TEST(GoHash, IncrementalEqualsRecomputedAlongPlayouts) {
  Rng rng(11);
  for (const Rules rules :
       {Rules{.size = 9}, Rules{.size = 13}, Rules{.size = 19, .max_moves = 400},
        Rules{.size = 9, .allow_suicide = true, .superko = false}}) {
    for (int game = 0; game < 4; ++game) {
      Position p(rules);
      int plies = 0;
      while (!p.is_terminal()) {
        p.apply(random_move(p, rng));
        ASSERT_EQ(p.hash(), p.compute_hash()) << "ply " << plies << "\n" << p.to_string();
        if (++plies % 7 == 0) {
          expect_consistent(p);
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
      expect_consistent(p);
    }
  }
}

TEST(GoHash, LegalMovesAgreeWithCheckAndCaptureCountsAddUp) {
  Rng rng(5);
  for (int game = 0; game < 6; ++game) {
    Position p(Rules{.size = 9});
    while (!p.is_terminal()) {
      MoveList<Position> moves;
      p.legal_moves(moves);
      for (int y = 0; y < 9; ++y)
        for (int x = 0; x < 9; ++x)
          ASSERT_EQ(moves.contains(Move::at(x, y)), p.is_legal(Move::at(x, y)));
      const int stones = p.stones_on_board();
      const int taken = p.captured(kBlack) + p.captured(kWhite);
      const Move m = moves[rng.below(moves.size())];
      p.apply(m);
      const int now_taken = p.captured(kBlack) + p.captured(kWhite);
      ASSERT_EQ(p.stones_on_board(), stones + (m.is_pass() ? 0 : 1) - (now_taken - taken));
    }
  }
}

TEST(GoHash, SuperkoNeverLetsABoardRepeat) {
  // Small boards make captures and recaptures common. Every board after a stone is played
  // must be new, and superko must actually have refused moves along the way.
  Rng rng(17);
  int refused = 0;
  for (const bool suicide : {false, true}) {
    for (int game = 0; game < 200; ++game) {
      Position p(Rules{.size = 5, .allow_suicide = suicide});
      std::set<std::uint64_t> seen = {p.stone_hash()};
      while (!p.is_terminal()) {
        for (const std::uint16_t sq : p.empty_points())
          refused += p.check(Move{sq}) == Illegal::kSuperko;
        const Move m = random_move(p, rng);
        p.apply(m);
        if (!m.is_pass()) {
          ASSERT_TRUE(seen.insert(p.stone_hash()).second) << p.to_string();
        }
      }
    }
  }
  EXPECT_GT(refused, 0);
}

TEST(GoSymmetry, TransformsFormTheDihedralGroup) {
  for (const int n : {9, 13, 19}) {
    for (int t = 0; t < 8; ++t) {
      std::set<int> image;
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) image.insert(transform_point(point_of(x, y), t, n));
      EXPECT_EQ(static_cast<int>(image.size()), n * n);
      EXPECT_EQ(*image.begin(), point_of(0, 0));
      EXPECT_EQ(*image.rbegin(), point_of(n - 1, n - 1));
    }
    // The 8 images of an asymmetric point are all different.
    std::set<int> orbit;
    for (int t = 0; t < 8; ++t) orbit.insert(transform_point(point_of(1, 3), t, n));
    EXPECT_EQ(orbit.size(), 8u);
    EXPECT_EQ(transform_point(kPass, 5, n), kPass);
  }
  EXPECT_EQ(transform_point(point_of(2, 0), 1, 9), point_of(0, 2));  // transpose
  EXPECT_EQ(transform_point(point_of(2, 0), 2, 9), point_of(6, 0));  // mirror x
  EXPECT_EQ(transform_point(point_of(2, 0), 4, 9), point_of(2, 8));  // mirror y
}

TEST(GoSymmetry, SymHashIsInvariantUnderAllTransforms) {
  Rng rng(21);
  int checked = 0;
  for (const int n : {9, 13, 19}) {
    for (int game = 0; game < 3; ++game) {
      // Superko off: a transformed position has no history, and its legal moves must then be
      // exactly the transformed legal moves.
      Position p(Rules{.size = n, .superko = false, .max_moves = 150});
      std::uint64_t previous = p.sym_hash();
      while (!p.is_terminal()) {
        const int stones = p.stones_on_board();
        p.apply(random_move(p, rng));
        const std::uint64_t s = p.sym_hash();
        // A new stone count cannot be a symmetric copy of the position before.
        if (p.stones_on_board() != stones) {
          ASSERT_NE(s, previous);
        }
        previous = s;
        if (p.moves_played() % 10 != 0) continue;
        MoveList<Position> moves;
        p.legal_moves(moves);
        for (int t = 0; t < Position::kNumSymmetries; ++t) {
          const Position q = p.transformed(t);
          ASSERT_EQ(q.sym_hash(), s) << "transform " << t << "\n" << p.to_string();
          ASSERT_EQ(q.hash(), q.compute_hash());
          ASSERT_EQ(q.stones_on_board(), p.stones_on_board());
          ASSERT_EQ(q.area(), p.area());
          ASSERT_EQ(q.to_move(), p.to_move());
          expect_consistent(q);
          MoveList<Position> qm;
          q.legal_moves(qm);
          ASSERT_EQ(qm.size(), moves.size());
          for (const Move m : moves) ASSERT_TRUE(qm.contains(transform_move(m, t, n)));
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(GoSymmetry, DifferentPositionsUsuallyDiffer) {
  // Along random games positions repeat rarely; distinct boards (up to symmetry) must give
  // distinct sym_hash values, and the hash equals the least transformed key.
  Rng rng(3);
  std::set<std::uint64_t> hashes;
  std::set<std::string> boards;
  for (int game = 0; game < 20; ++game) {
    Position p(Rules{.size = 9, .max_moves = 40});
    while (!p.is_terminal()) {
      p.apply(random_move(p, rng));
      std::uint64_t least = ~std::uint64_t{0};
      std::string canonical;
      for (int t = 0; t < 8; ++t) {
        const Position q = p.transformed(t);
        least = std::min(least, q.hash());
        const std::string text = q.to_string() + char('0' + q.to_move()) +
                                 std::to_string(q.ko_point()) + std::to_string(q.passes());
        if (canonical.empty() || text < canonical) canonical = text;
      }
      ASSERT_EQ(p.sym_hash(), least);
      hashes.insert(p.sym_hash());
      boards.insert(canonical);
    }
  }
  EXPECT_GT(boards.size(), 500u);
  EXPECT_EQ(hashes.size(), boards.size());
  // Symmetric openings meet: the 4 corner 3-3 points are one position.
  std::set<std::uint64_t> corners;
  for (const auto& [x, y] : {std::pair{2, 2}, {6, 2}, {2, 6}, {6, 6}}) {
    Position p(Rules{.size = 9});
    p.apply(Move::at(x, y));
    corners.insert(p.sym_hash());
  }
  EXPECT_EQ(corners.size(), 1u);
}

}  // namespace
}  // namespace kibitz::go
