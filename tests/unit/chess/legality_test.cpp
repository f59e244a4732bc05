// Position::is_legal (the fast check the search runs on TT and killer moves) against the slow
// oracle that generates every legal move and searches the list: legal moves, random 16-bit
// values, and moves legal in related positions (what a TT key collision hands the search).
#include <gtest/gtest.h>

#include <vector>

#include "core/rng.hpp"
#include "games/chess/movegen.hpp"
#include "games/chess/notation.hpp"

namespace kibitz::chess {
namespace {

// The old implementation, kept as the oracle.
bool is_legal_slow(const Position& pos, Move m) {
  if (m.is_none()) return false;
  MoveList<Position> moves;
  pos.legal_moves(moves);
  return moves.contains(m);
}

// The CPW perft positions plus positions aimed at the tricky cases: en passant that uncovers
// a check along the rank, en passant as the only evasion, castling through attacks, pins.
const char* kFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/8/8/KPp4r/8/8/8/7k w - c6 0 1",       // bxc6 e.p. exposes the king on the rank
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",     // exd3 e.p. captures the checking pawn
    "8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1",     // e.p. pinned along the rank by the queen
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",      // castling, nothing in the way
    "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1",    // f2 rook: f1 attacked, queen side fine
    "r3k2r/8/8/8/8/8/8/1R2K1R1 b kq - 0 1",  // b8 attacked (allowed), g8 attacked (not)
    "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1",     // pinned knight
    "4k3/4r3/8/8/8/8/4Q3/4K3 w - - 0 1",     // queen pinned on the file
    "3qk3/8/8/8/8/8/8/3RK3 w - - 0 1",
};

struct Tally {
  long checked = 0, legal = 0, mismatches = 0;
};

void check(const Position& pos, const MoveList<Position>& legal, Move m, Tally& t) {
  const bool want = m.is_none() ? false : legal.contains(m);
  const bool got = pos.is_legal(m);
  ++t.checked;
  t.legal += want;
  if (got != want && ++t.mismatches <= 10)
    ADD_FAILURE() << pos.fen() << " move " << to_uci(m) << " (raw " << m.raw() << ", flag "
                  << m.flag() << "): is_legal " << got << ", oracle " << want;
}

TEST(Legality, OracleAgreesOnKnownCases) {
  auto p = *Position::from_fen("8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
  EXPECT_FALSE(p.is_legal(Move(33, 42, Move::kEnPassant)));
  EXPECT_FALSE(is_legal_slow(p, Move(33, 42, Move::kEnPassant)));
  p = *Position::from_fen("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
  EXPECT_TRUE(p.is_legal(Move(28, 19, Move::kEnPassant)));
  p = *Position::from_fen("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
  EXPECT_FALSE(p.is_legal(Move(4, 6, Move::kCastleKing)));
  EXPECT_TRUE(p.is_legal(Move(4, 2, Move::kCastleQueen)));  // d1, c1 are safe
  p = *Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
  EXPECT_TRUE(p.is_legal(Move(4, 6, Move::kCastleKing)));
  EXPECT_TRUE(p.is_legal(Move(4, 2, Move::kCastleQueen)));
  EXPECT_FALSE(p.is_legal(Move(4, 6, Move::kQuiet)));  // right squares, wrong flag
  EXPECT_FALSE(p.is_legal(Move::none()));
  p = Position();
  EXPECT_TRUE(p.is_legal(Move(12, 28, Move::kDoublePush)));
  EXPECT_FALSE(p.is_legal(Move(12, 28, Move::kQuiet)));
  EXPECT_FALSE(p.is_legal(Move(12, 20, Move::kDoublePush)));
  EXPECT_FALSE(p.is_legal(Move(6, 21, Move::kCapture)));  // Nf3 flagged as a capture
}

// Random playouts from every FEN; at each position the legal moves, random move values, and
// the moves of the parent, of a sibling, and of a pool from all recent positions.
TEST(Legality, FastCheckMatchesOracleAlongRandomPlayouts) {
  Rng rng(20240611);
  Tally t;
  long positions = 0;
  std::vector<Move> pool;  // moves legal somewhere recently: realistic TT collisions
  std::size_t pool_next = 0;
  constexpr std::size_t kPool = 512;
  for (const char* fen : kFens) {
    const Position root = *Position::from_fen(fen);
    for (int game = 0; game < 12; ++game) {
      Position pos = root;
      MoveList<Position> parent_moves, legal;
      for (int ply = 0; ply < 160; ++ply) {
        pos.legal_moves(legal);
        ++positions;
        for (Move m : legal) check(pos, legal, m, t);
        for (Move m : parent_moves) check(pos, legal, m, t);
        for (Move m : pool) check(pos, legal, m, t);
        for (int i = 0; i < 64; ++i)
          check(pos, legal,
                Move(static_cast<Square>(rng.below(64)), static_cast<Square>(rng.below(64)),
                     static_cast<int>(rng.below(16))),
                t);
        // Random values from our own pieces: far more of them pass the first filters.
        Bitboard own = pos.pieces(pos.side_to_move());
        for (int i = 0; i < 64; ++i) {
          Bitboard b = own;
          for (auto k = rng.below(static_cast<std::uint64_t>(popcount(own))); k > 0; --k)
            b &= b - 1;
          check(pos, legal,
                Move(lsb(b), static_cast<Square>(rng.below(64)), static_cast<int>(rng.below(16))),
                t);
        }
        for (Move m : legal) {
          if (pool.size() < kPool)
            pool.push_back(m);
          else
            pool[pool_next++ % kPool] = m;
        }
        if (legal.empty()) break;
        // A sibling: the position after another move from the same parent.
        if (legal.size() > 1) {
          Position sibling = pos;
          sibling.apply(legal[rng.below(legal.size())]);
          MoveList<Position> sibling_legal, here;
          sibling.legal_moves(sibling_legal);
          const Move chosen = legal[rng.below(legal.size())];
          Position next = pos;
          next.apply(chosen);
          next.legal_moves(here);
          for (Move m : sibling_legal) check(next, here, m, t);
        }
        parent_moves = legal;
        pos.apply(legal[rng.below(legal.size())]);
      }
    }
  }
  EXPECT_EQ(t.mismatches, 0);
  EXPECT_GT(positions, 10000);
  EXPECT_GT(t.legal, 500000);
  RecordProperty("checked", std::to_string(t.checked));
  std::printf("[ legality ] %ld positions, %ld moves checked (%ld legal), %ld mismatches\n",
              positions, t.checked, t.legal, t.mismatches);
}

// The oracle itself (its old role as Position::is_legal) stays honest on a small tree.
TEST(Legality, SlowOracleAcceptsExactlyTheGeneratedMoves) {
  const Position pos = *Position::from_fen(kFens[1]);
  MoveList<Position> legal;
  pos.legal_moves(legal);
  for (Move m : legal) EXPECT_TRUE(is_legal_slow(pos, m));
  EXPECT_FALSE(is_legal_slow(pos, Move::none()));
}

}  // namespace
}  // namespace kibitz::chess
