// Game-ending rules and make/unmake details, on positions whose answers are known.
#include <gtest/gtest.h>

#include <random>

#include "games/chess/movegen.hpp"
#include "games/chess/notation.hpp"
#include "unit/chess/fen.hpp"

namespace kibitz::chess {
namespace {

void play(Position& p, std::initializer_list<const char*> sans) {
  for (const char* s : sans) {
    auto m = parse_san(p, s);
    ASSERT_TRUE(m) << s << ": " << m.error().message;
    p.apply(*m);
  }
}

TEST(Rules, Checkmate) {
  Position p;
  play(p, {"f3", "e5", "g4", "Qh4#"});
  EXPECT_EQ(p.outcome(), Outcome::kCheckmate);
  EXPECT_TRUE(p.is_terminal());
  EXPECT_EQ(p.returns()[kWhite], -1.0);
  EXPECT_EQ(p.returns()[kBlack], 1.0);
}

TEST(Rules, Stalemate) {
  const Position p = P("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  EXPECT_EQ(p.outcome(), Outcome::kStalemate);
  EXPECT_EQ(p.returns()[kWhite], 0.0);
}

TEST(Rules, FiftyMoveRuleButMateTakesPrecedence) {
  EXPECT_EQ(P("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").outcome(), Outcome::kOngoing);
  EXPECT_EQ(P("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").outcome(), Outcome::kFiftyMoves);
  // Mate delivered on the hundredth reversible ply is still mate.
  Position p = P("7k/8/6K1/8/8/8/8/R7 w - - 99 80");
  play(p, {"Ra8#"});
  EXPECT_EQ(p.outcome(), Outcome::kCheckmate);
}

TEST(Rules, ThreefoldRepetition) {
  Position p;
  play(p, {"Nf3", "Nf6", "Ng1", "Ng8"});
  EXPECT_EQ(p.repetitions(), 1);
  EXPECT_EQ(p.outcome(), Outcome::kOngoing);
  play(p, {"Nf3", "Nf6", "Ng1"});
  EXPECT_EQ(p.outcome(), Outcome::kOngoing);
  play(p, {"Ng8"});
  EXPECT_EQ(p.repetitions(), 2);
  EXPECT_EQ(p.outcome(), Outcome::kThreefold);
}

TEST(Rules, RepetitionNeedsTheSameCastlingRights) {
  // The king's trip loses castling rights, so the position after it is not a repetition.
  Position p = P("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  play(p, {"Kf1", "Kf8", "Ke1", "Ke8"});
  EXPECT_EQ(p.repetitions(), 0);
  play(p, {"Kf1", "Kf8", "Ke1", "Ke8"});
  EXPECT_EQ(p.repetitions(), 1);
}

TEST(Rules, InsufficientMaterial) {
  EXPECT_EQ(P("4k3/8/8/8/8/8/8/4K3 w - - 0 1").outcome(), Outcome::kInsufficientMaterial);
  EXPECT_EQ(P("4k3/8/8/8/8/8/8/4KN2 w - - 0 1").outcome(), Outcome::kInsufficientMaterial);
  EXPECT_EQ(P("4k3/8/8/8/8/8/8/4KB2 b - - 0 1").outcome(), Outcome::kInsufficientMaterial);
  // Bishops all on light squares (f1, c8... c8 is light? c8 = file 2 rank 7: light).
  EXPECT_EQ(P("2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1").outcome(), Outcome::kInsufficientMaterial);
  // Opposite-coloured bishops, two knights, a pawn: mate is still possible.
  EXPECT_EQ(P("3bk3/8/8/8/8/8/8/4KB2 w - - 0 1").outcome(), Outcome::kOngoing);
  EXPECT_EQ(P("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1").outcome(), Outcome::kOngoing);
  EXPECT_EQ(P("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").outcome(), Outcome::kOngoing);
}

TEST(Rules, MakeUnmakeRestoresEverything) {
  Position p = P("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1");
  const std::string fen = p.fen();
  MoveList<Position> moves;
  p.legal_moves(moves);
  for (Move m : moves) {
    Position::Undo u;
    p.make(m, u);
    EXPECT_EQ(p.hash(), p.compute_hash()) << to_uci(m);
    p.unmake(m, u);
    EXPECT_EQ(p.fen(), fen) << to_uci(m);
  }
}

TEST(Rules, EnPassantSquareAndHalfmoveClock) {
  Position p;
  play(p, {"e4"});
  EXPECT_EQ(p.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  play(p, {"Nf6", "Nc3"});
  EXPECT_EQ(p.halfmove_clock(), 2);
  EXPECT_EQ(p.fullmove_number(), 2);
  play(p, {"d5", "e5", "Ne4", "d4", "c5"});
  // The square is recorded after every double push (FEN convention), capturable or not.
  EXPECT_EQ(p.ep_square(), make_square(2, 5));  // c6
}

TEST(Rules, EnPassantThatWouldExposeTheKingIsIllegal) {
  // The classic rank pin: capturing en passant removes both pawns from the fifth rank.
  const Position p = P("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
  auto m = parse_uci(p, "e5d6");
  EXPECT_FALSE(m);
  const Position free = P("8/8/8/K2pP3/8/8/8/7k w - d6 0 1");
  EXPECT_TRUE(parse_uci(free, "e5d6"));
}

TEST(Rules, NullMove) {
  Position p = P("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  const std::uint64_t key = p.hash();
  Position::Undo u;
  p.make_null(u);
  EXPECT_EQ(p.side_to_move(), kBlack);
  EXPECT_EQ(p.ep_square(), kNoSquare);
  EXPECT_EQ(p.hash(), p.compute_hash());
  p.unmake_null(u);
  EXPECT_EQ(p.hash(), key);
  EXPECT_EQ(p.fen(), "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
}

// What make/unmake and the null move keep (the checkers), and what the search is told before a
// move (gives_check, the prefetch key), against values computed from scratch along seeded
// random games from the perft positions (castling, en passant and promotion checks included).
TEST(Rules, CheckersGivesCheckAndKeyAfterMatchAFreshPosition) {
  const char* starts[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "5k2/8/8/8/8/8/8/4K2R w K - 0 1",  // O-O checks with the rook
  };
  std::mt19937 rng(2911);
  int checks = 0, exact_keys = 0;
  for (int game = 0; game < 60; ++game) {
    Position p = P(starts[game % std::size(starts)]);
    for (int ply = 0; ply < 120 && !p.is_terminal(); ++ply) {
      MoveList<Position> moves;
      p.legal_moves(moves);
      for (Move m : moves) {  // every move's check, told before and seen after
        const bool told = p.gives_check(m);
        Position::Undo u;
        p.make(m, u);
        ASSERT_EQ(told, p.in_check()) << p.fen() << " after " << to_uci(m);
        p.unmake(m, u);
      }
      ASSERT_EQ(p.checkers(), P(p.fen().c_str()).checkers()) << "unmake kept " << p.fen();
      const Move m = moves[rng() % moves.size()];
      const std::uint8_t rights = p.castling_rights();
      const bool plain = p.ep_square() == kNoSquare && !m.is_castling() && !m.is_promotion() &&
                         !m.is_en_passant() && m.flag() != Move::kDoublePush;
      const std::uint64_t guess = p.key_after(m);
      Position::Undo u;
      p.make(m, u);
      ASSERT_EQ(p.checkers(), P(p.fen().c_str()).checkers()) << p.fen();
      checks += p.in_check();
      if (plain && p.castling_rights() == rights) {
        ASSERT_EQ(guess, p.hash()) << to_uci(m);
        ++exact_keys;
      }
      if (!p.in_check() && rng() % 4 == 0) {
        const Bitboard before = p.checkers();
        Position::Undo n;
        p.make_null(n);
        ASSERT_EQ(p.checkers(), P(p.fen().c_str()).checkers()) << p.fen();
        p.unmake_null(n);
        ASSERT_EQ(p.checkers(), before);
      }
    }
  }
  EXPECT_GT(checks, 50);  // the walks do reach checks
  EXPECT_GT(exact_keys, 1000);
}

TEST(Rules, EvasionsOnlyInCheck) {
  // Double check: only king moves.
  const Position dbl = P("4k3/8/8/8/8/3n4/8/r3K3 w - - 0 1");
  MoveList<Position> moves;
  dbl.legal_moves(moves);
  ASSERT_FALSE(moves.empty());
  for (Move m : moves) EXPECT_EQ(m.from(), dbl.king_square(kWhite));
  MoveList<Position> evasions;
  generate<GenType::kEvasions>(dbl, evasions);
  EXPECT_EQ(evasions, moves);
  // Every generated move leaves the mover out of check, along a random walk.
  Position p;
  play(p, {"e4", "f5", "Qh5+"});
  p.legal_moves(moves);
  ASSERT_EQ(moves.size(), 1u);  // only g6 blocks; f7 is covered by the queen
  EXPECT_EQ(to_san(p, moves[0]), "g6");
  for (Move m : moves) {
    Position q = p;
    q.apply(m);
    EXPECT_FALSE(q.is_attacked(q.king_square(kBlack), kWhite, q.pieces()));
  }
}

}  // namespace
}  // namespace kibitz::chess
