// Static exchange evaluation on hand-checked positions, and against a recursive formulation
// of the same exchange rules over the captures of random playouts.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/rng.hpp"
#include "games/chess/movegen.hpp"
#include "games/chess/notation.hpp"
#include "unit/chess/fen.hpp"

namespace kibitz::chess {
namespace {

Move uci(const Position& p, const char* text) { return *parse_uci(p, text); }

// The exact exchange value, found through see_ge (which must be monotone in the threshold).
int see_value(const Position& p, Move m) {
  int lo = -30000, hi = 30000;  // see_ge(lo) holds, see_ge(hi) does not
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    (p.see_ge(m, mid) ? lo : hi) = mid;
  }
  return lo;
}

TEST(See, PawnTakesDefendedKnight) {
  const Position p = P("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1");
  const Move m = uci(p, "d4e5");
  EXPECT_TRUE(p.see_ge(m, 0));
  EXPECT_TRUE(p.see_ge(m, 220));  // 320 won, 100 lost
  EXPECT_FALSE(p.see_ge(m, 221));
}

TEST(See, QueenTakesPawnDefendedByPawn) {
  const Position p = P("4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1");
  const Move m = uci(p, "e1e5");
  EXPECT_FALSE(p.see_ge(m, 0));
  EXPECT_EQ(see_value(p, m), 100 - 950);
}

TEST(See, UndefendedCaptureWinsThePiece) {
  const Position p = P("4k3/8/8/4r3/8/8/8/4QK2 w - - 0 1");
  EXPECT_EQ(see_value(p, uci(p, "e1e5")), 500);
}

TEST(See, XRayRookBehindRook) {
  // Rxe5 Rxe5 Rxe5: the e1 rook joins once e2 has gone.
  const Position p = P("4k3/4r3/8/4p3/8/8/4R3/4R1K1 w - - 0 1");
  EXPECT_EQ(see_value(p, uci(p, "e2e5")), 100);
  // Without the second rook the pawn costs a rook.
  const Position q = P("4k3/4r3/8/4p3/8/8/4R3/6K1 w - - 0 1");
  EXPECT_EQ(see_value(q, uci(q, "e2e5")), 100 - 500);
}

TEST(See, XRayThroughQueenAndBishop) {
  // Bxd5 cxd5 Qxd5: the a2 queen stands behind the bishop on the diagonal.
  const Position p = P("4k3/8/2p5/3p4/8/1B6/Q7/4K3 w - - 0 1");
  EXPECT_EQ(see_value(p, uci(p, "b3d5")), 100 - 330 + 100);
}

TEST(See, EnPassant) {
  const Position p = P("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
  EXPECT_EQ(see_value(p, uci(p, "e5d6")), 100);
  const Position q = P("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1");
  EXPECT_EQ(see_value(q, uci(q, "e5d6")), 0);
  // The captured pawn leaves d5: the d1 rook now sees d6 and wins the recapturing pawn too.
  const Position r = P("4k3/2p5/8/3pP3/8/8/8/3RK3 w - d6 0 1");
  EXPECT_EQ(see_value(r, uci(r, "e5d6")), 100);
}

TEST(See, QuietMoveValueIsWhatTheOpponentWins) {
  const Position p = P("4k3/8/3p4/8/8/5N2/8/4K3 w - - 0 1");
  EXPECT_EQ(see_value(p, uci(p, "f3e5")), -320);
  EXPECT_EQ(see_value(p, uci(p, "f3g5")), 0);
  EXPECT_TRUE(p.see_ge(uci(p, "f3g5"), 0));
  EXPECT_FALSE(p.see_ge(uci(p, "f3e5"), 0));
}

TEST(See, Promotions) {
  const Position p = P("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(see_value(p, uci(p, "b7b8q")), 850);
  EXPECT_EQ(see_value(p, uci(p, "b7b8n")), 220);
  const Position q = P("2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(see_value(q, uci(q, "b7b8q")), 850 - 950);  // the rook takes the new queen
  EXPECT_EQ(see_value(q, uci(q, "b7c8q")), 500 + 850);
  // A recapture that promotes: after Rc8 the b7 pawn takes and becomes a queen.
  const Position r = P("3rk3/1P6/8/8/8/8/8/4K3 b - - 0 1");
  EXPECT_EQ(see_value(r, uci(r, "d8c8")), -(500 + 850));
  EXPECT_FALSE(r.see_ge(uci(r, "d8c8"), -500));
}

TEST(See, KingRecapturesOnlyAnUndefendedSquare) {
  // The bishop on b3 also covers e6, so Kxe6 is illegal and the rook keeps the pawn.
  const Position p = P("8/5k2/4p3/8/8/1B6/8/4R1K1 w - - 0 1");
  EXPECT_EQ(see_value(p, uci(p, "e1e6")), 100);
  const Position q = P("8/5k2/4p3/8/8/8/8/4R1K1 w - - 0 1");
  EXPECT_EQ(see_value(q, uci(q, "e1e6")), 100 - 500);
}

TEST(See, CastlingIsNeutral) {
  const Position p = P("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
  EXPECT_TRUE(p.see_ge(Move(4, 6, Move::kCastleKing), 0));
  EXPECT_FALSE(p.see_ge(Move(4, 6, Move::kCastleKing), 1));
}

TEST(NonPawnMaterial, CountsPiecesButNotPawnsOrKing) {
  const Position p = P("4k3/pppppppp/8/8/8/8/8/4KN2 w - - 0 1");
  EXPECT_TRUE(p.has_non_pawn_material(kWhite));
  EXPECT_FALSE(p.has_non_pawn_material(kBlack));
  EXPECT_TRUE(Position().has_non_pawn_material(kBlack));
}

// The same rules written recursively: the side to move may capture on `to` with its least
// valuable attacker or stand pat; the king only when nothing defends the square.
constexpr int kValue[6] = {100, 320, 330, 500, 950, 20000};

int exchange(const Position& p, Square to, Bitboard occ, Color side, int on_square) {
  const Bitboard attackers = p.attackers_to(to, occ) & occ;
  const Bitboard mine = attackers & p.pieces(side);
  if (!mine) return 0;
  int pt = kPawn;
  while (!(mine & p.pieces(PieceType(pt)))) ++pt;
  if (pt == kKing && (attackers & p.pieces(~side))) return 0;
  const Square from = lsb(mine & p.pieces(PieceType(pt)));
  int gain = on_square, next = kValue[pt];
  if (pt == kPawn && (rank_of(to) == 0 || rank_of(to) == 7)) {
    gain += kValue[kQueen] - kValue[kPawn];
    next = kValue[kQueen];
  }
  return std::max(0, gain - exchange(p, to, occ ^ bb(from), ~side, next));
}

int reference_see(const Position& p, Move m) {
  if (m.is_castling()) return 0;
  const Square to = m.to();
  Bitboard occ = p.pieces() ^ bb(m.from());
  int gain = p.piece_on(to) == kNoPiece ? 0 : kValue[type_of(p.piece_on(to))];
  if (m.is_en_passant()) {
    occ ^= bb(p.side_to_move() == kWhite ? to - 8 : to + 8);
    gain = kValue[kPawn];
  }
  int on_square = kValue[type_of(p.piece_on(m.from()))];
  if (m.is_promotion()) {
    gain += kValue[m.promotion()] - kValue[kPawn];
    on_square = kValue[m.promotion()];
  }
  return gain - exchange(p, to, occ | bb(to), ~p.side_to_move(), on_square);
}

TEST(See, MatchesRecursiveReferenceAlongRandomPlayouts) {
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
  };
  Rng rng(7);
  long checked = 0, mismatches = 0;
  for (const char* fen : fens) {
    for (int game = 0; game < 20; ++game) {
      Position pos = P(fen);
      for (int ply = 0; ply < 120; ++ply) {
        MoveList<Position> moves;
        if (pos.legal_moves(moves) == 0) break;
        for (Move m : moves) {
          const int want = reference_see(pos, m);
          const int got = see_value(pos, m);
          ++checked;
          if (got != want && ++mismatches <= 10)
            ADD_FAILURE() << pos.fen() << " " << to_uci(m) << ": see " << got << ", reference "
                          << want;
        }
        pos.apply(moves[rng.below(moves.size())]);
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(checked, 50000);
}

}  // namespace
}  // namespace kibitz::chess
