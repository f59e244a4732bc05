// The 3x3 shape table: hand-checked shapes, and the same answer under every board symmetry
// and with the colours swapped, on random positions.
#include "games/go/patterns.hpp"

#include <gtest/gtest.h>

#include "core/rng.hpp"
#include "games/go/search_traits.hpp"
#include "unit/go/go_test_util.hpp"

namespace kibitz::go {
namespace {

using testing::diagram;
using testing::pt;

TEST(GoPatterns, EmptySurroundingsAreNoShape) {
  const Position p(Rules{.size = 9});
  EXPECT_FALSE(is_shape_move(p, pt("E5"), kBlack));
  EXPECT_FALSE(is_shape_move(p, pt("E5"), kWhite));
  EXPECT_FALSE(is_shape_move(p, pt("A1"), kBlack));
}

TEST(GoPatterns, CutMattersToBothSides) {
  // C3 cuts O's two stones apart (for X) or connects them (for O).
  const Position p = diagram({".....",  //
                              ".XO..",  //
                              ".O...",  //
                              ".....",  //
                              "....."});
  EXPECT_TRUE(is_shape_move(p, pt("C3", 5), kBlack));
  EXPECT_TRUE(is_shape_move(p, pt("C3", 5), kWhite));
  EXPECT_FALSE(is_shape_move(p, pt("D2", 5), kBlack));
}

TEST(GoPatterns, ThinHaneIsForTheHaningSideOnly) {
  // X's hane at C3 under O's two stones; for O, C3 is no shape of its own.
  const Position p = diagram({".....",  //
                              ".XOO.",  //
                              ".....",  //
                              ".....",  //
                              "....."});
  EXPECT_TRUE(is_shape_move(p, pt("C3", 5), kBlack));
  EXPECT_FALSE(is_shape_move(p, pt("C3", 5), kWhite));
}

TEST(GoPatterns, EdgeShapes) {
  // Sagari: C1 descends under X's C2 next to O's D2 (a first-line move for either side).
  const Position p = diagram({".....",  //
                              ".....",  //
                              ".....",  //
                              "..XO.",  //
                              "....."});
  EXPECT_TRUE(is_shape_move(p, pt("C1", 5), kBlack));
  EXPECT_TRUE(is_shape_move(p, pt("C1", 5), kWhite));
  // Under a lone stone there is nothing to answer.
  const Position lone = diagram({".....",  //
                                 ".....",  //
                                 ".....",  //
                                 "..X..",  //
                                 "....."});
  EXPECT_FALSE(is_shape_move(lone, pt("C1", 5), kBlack));
  EXPECT_FALSE(is_shape_move(lone, pt("C1", 5), kWhite));
}

// A position with the colours of every stone swapped and the other side to move.
Position swapped(const Position& p) {
  Position q(p.rules());
  for (int y = 0; y < p.size(); ++y)
    for (int x = 0; x < p.size(); ++x) {
      const int sq = point_of(x, y);
      if (p.at(sq) <= kWhite) {
        EXPECT_TRUE(q.place_stone(opponent(p.at(sq)), sq));
      }
    }
  q.set_to_move(opponent(p.to_move()));
  return q;
}

TEST(GoPatterns, SameAnswerUnderSymmetriesAndColourSwap) {
  Rng rng(7);
  int matches = 0, checked = 0;
  for (const int size : {5, 9, 13}) {
    for (int game = 0; game < 20; ++game) {
      Position p(Rules{.size = size});
      const int plies = static_cast<int>(rng.below(static_cast<std::uint64_t>(size * size)));
      for (int i = 0; i < plies && !p.is_terminal(); ++i) p.apply(playout_move(p, rng));
      if (p.is_terminal()) continue;
      const Position sw = swapped(p);
      for (const std::uint16_t sq : p.empty_points()) {
        for (const Color c : {kBlack, kWhite}) {
          const bool m = is_shape_move(p, sq, c);
          matches += m;
          ++checked;
          ASSERT_EQ(is_shape_move(sw, sq, opponent(c)), m) << p.to_string();
          for (int t = 1; t < 8; ++t)
            ASSERT_EQ(is_shape_move(p.transformed(t), transform_point(sq, t, size), c), m)
                << "transform " << t << "\n"
                << p.to_string();
        }
      }
    }
  }
  // Shapes are common but far from everywhere.
  EXPECT_GT(matches, checked / 50);
  EXPECT_LT(matches, checked / 2);
}

}  // namespace
}  // namespace kibitz::go
