// The magic attack tables against slow ray walking, and the between/line tables.
#include <gtest/gtest.h>

#include "core/rng.hpp"
#include "games/chess/bitboard.hpp"

namespace kibitz::chess {
namespace {

TEST(Bitboard, MagicSliderAttacksMatchRayWalking) {
  Rng rng(3);
  for (Square s = 0; s < 64; ++s) {
    for (int i = 0; i < 2000; ++i) {
      const Bitboard occ = rng.next() & rng.next();  // about a quarter of squares occupied
      ASSERT_EQ(rook_attacks(s, occ), slow_slider_attacks(kRook, s, occ)) << s;
      ASSERT_EQ(bishop_attacks(s, occ), slow_slider_attacks(kBishop, s, occ)) << s;
      ASSERT_EQ(queen_attacks(s, occ), slow_slider_attacks(kQueen, s, occ)) << s;
    }
  }
}

TEST(Bitboard, StoredMagicsAreWhatTheSeededSearchFinds) {
  // Rooks a1..h8, then bishops, from one generator: the order the constants were made in.
  Rng rng(kMagicSeed);
  for (PieceType pt : {kRook, kBishop})
    for (Square s = 0; s < 64; ++s)
      ASSERT_EQ(find_magic(pt, s, rng), stored_magic(pt, s)) << int(pt) << " " << s;
}

TEST(Bitboard, LeaperTables) {
  EXPECT_EQ(popcount(knight_attacks(0)), 2);   // a1
  EXPECT_EQ(popcount(knight_attacks(27)), 8);  // d4
  EXPECT_EQ(popcount(king_attacks(0)), 3);
  EXPECT_EQ(popcount(king_attacks(36)), 8);
  EXPECT_EQ(pawn_attacks(kWhite, 8), bb(17));            // a2 attacks b3
  EXPECT_EQ(pawn_attacks(kBlack, 55), bb(46));           // h7 attacks g6
  EXPECT_EQ(pawn_attacks(kWhite, 12), bb(19) | bb(21));  // e2 attacks d3, f3
}

TEST(Bitboard, BetweenAndLine) {
  EXPECT_EQ(between(0, 63), bb(9) | bb(18) | bb(27) | bb(36) | bb(45) | bb(54));  // a1-h8
  EXPECT_EQ(between(4, 7), bb(5) | bb(6));                                        // e1-h1
  EXPECT_EQ(between(0, 17), 0u);                 // a1-b3: not on a line
  EXPECT_EQ(between(0, 1), 0u);                  // adjacent
  EXPECT_EQ(line(0, 9), 0x8040201008040201ull);  // the long diagonal
  EXPECT_EQ(line(8, 10), kRank2);
  EXPECT_EQ(line(0, 17), 0u);
  for (Square a = 0; a < 64; ++a)
    for (Square b = 0; b < 64; ++b) {
      ASSERT_EQ(between(a, b), between(b, a));
      ASSERT_EQ(between(a, b) & ~line(a, b), 0u);
    }
}

}  // namespace
}  // namespace kibitz::chess
