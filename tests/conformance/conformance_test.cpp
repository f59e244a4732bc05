// The generic conformance checks, instantiated for every game this build has.
#include "conformance/game_conformance.hpp"

#include <gtest/gtest.h>

#include "games/chess/movegen.hpp"
#include "games/chess/notation.hpp"
#include "games/chess/position.hpp"
#include "games/go/board.hpp"
#include "games/gomoku/position.hpp"
#include "games/hearts/belief.hpp"
#include "games/hearts/state.hpp"
#include "support/tictactoe.hpp"

namespace kibitz::testing {
namespace {

// Counts complete games by walking the whole tree with make/unmake.
void count_games(TicTacToe& s, std::array<std::uint64_t, 3>& by_result) {
  if (s.is_terminal()) {
    const int w = s.winner();
    ++by_result[w < 0 ? 2 : w];
    return;
  }
  MoveList<TicTacToe> moves;
  s.legal_moves(moves);
  for (auto m : moves) {
    TicTacToe::Undo u;
    s.make(m, u);
    count_games(s, by_result);
    s.unmake(m, u);
  }
}

TEST(Conformance, TicTacToe) { check_game_conformance(TicTacToe{}, {.playouts = 200}); }

TEST(Conformance, TicTacToeGameCountIsKnown) {
  TicTacToe s;
  std::array<std::uint64_t, 3> by_result{};
  count_games(s, by_result);
  EXPECT_EQ(by_result[0], 131184u);  // X wins
  EXPECT_EQ(by_result[1], 77904u);   // O wins
  EXPECT_EQ(by_result[2], 46080u);   // draws
  EXPECT_EQ(by_result[0] + by_result[1] + by_result[2], 255168u);
}

TEST(Conformance, ChessFromTheStart) {
  check_game_conformance(chess::Position{}, {.playouts = 40, .seed = 7});
}

TEST(Conformance, ChessFromTacticalPositions) {
  for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                          "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"}) {
    SCOPED_TRACE(fen);
    check_game_conformance(*chess::Position::from_fen(fen), {.playouts = 20, .seed = 11});
  }
}

TEST(Conformance, GomokuFreestyle15) {
  check_game_conformance(gomoku::Position({.size = 15, .rule = gomoku::Rule::kFreestyle}),
                         {.playouts = 30, .seed = 3});
}

TEST(Conformance, GomokuRenju15) {
  check_game_conformance(gomoku::Position({.size = 15, .rule = gomoku::Rule::kRenju}),
                         {.playouts = 30, .seed = 5});
}

TEST(Conformance, GomokuCapture19) {
  check_game_conformance(gomoku::Position({.size = 19, .rule = gomoku::Rule::kCapture}),
                         {.playouts = 20, .seed = 7});
}

// Go playouts end by two passes or at the rules' move cap (3 x points, at most 1023 plies);
// the checker's duplicate test is quadratic in the move list, so 19x19 runs fewer playouts.
TEST(Conformance, Go9) {
  check_game_conformance(go::Position(go::Rules{.size = 9}), {.playouts = 100, .seed = 3});
}

TEST(Conformance, Go13) {
  check_game_conformance(go::Position(go::Rules{.size = 13}), {.playouts = 30, .seed = 5});
}

TEST(Conformance, Go19) {
  check_game_conformance(go::Position(go::Rules{.size = 19}), {.playouts = 8, .seed = 7});
}

TEST(Conformance, Go9SuicideNoSuperko) {
  check_game_conformance(
      go::Position(go::Rules{.size = 9, .allow_suicide = true, .superko = false}),
      {.playouts = 50, .seed = 9});
}

// Hearts: hands with and without passing (each playout replays the same deal; the seeds of
// the deals differ per test), and worlds sampled for any seat along the way are full states
// that agree with everything that seat has seen.
static_assert(ImperfectInfo<hearts::State>);

TEST(Conformance, HeartsHands) {
  Rng rng(13);
  for (int hand = 0; hand < 8; ++hand)
    check_game_conformance(hearts::State(hearts::random_deal(rng), hearts::pass_dir_for_hand(hand)),
                           {.playouts = 12, .seed = static_cast<std::uint64_t>(hand)});
}

TEST(Conformance, HeartsSampledWorldsKeepWhatTheSeatSaw) {
  Rng rng(17);
  for (int hand = 0; hand < 12; ++hand) {
    hearts::State s(hearts::random_deal(rng), hearts::pass_dir_for_hand(hand));
    while (!s.is_terminal()) {
      const int seat = static_cast<int>(rng.below(4));
      const hearts::State w = s.sample_world(seat, rng);
      ASSERT_EQ(w.hand(seat), s.hand(seat));
      // Before 2C is led, who holds it (and so leads) is hidden from the other seats.
      if (s.num_plays() > 0 || s.phase() == hearts::Phase::kPass ||
          s.hand(seat).contains(hearts::kTwoOfClubs)) {
        ASSERT_EQ(w.current_player(), s.current_player());
      }
      ASSERT_EQ(w.played(), s.played());
      ASSERT_EQ(w.hash(), w.compute_hash());
      for (int p = 0; p < 4; ++p) ASSERT_EQ(w.hand(p).size(), s.hand(p).size());
      const auto seen = s.information_state(seat);
      const auto again = w.information_state(seat);
      for (int p = 0; p < 4; ++p) ASSERT_EQ(seen.excluded(p), again.excluded(p));
      MoveList<hearts::State> moves;
      s.legal_moves(moves);
      s.apply(moves[rng.below(moves.size())]);
    }
  }
}

TEST(Conformance, ChessStagesPartitionTheLegalMovesAlongPlayouts) {
  Rng rng(5);
  for (int game = 0; game < 30; ++game) {
    chess::Position p;
    while (!p.is_terminal()) {
      MoveList<chess::Position> all, tactical, quiet;
      chess::generate<chess::GenType::kAll>(p, all);
      chess::generate<chess::GenType::kTactical>(p, tactical);
      chess::generate<chess::GenType::kQuiet>(p, quiet);
      ASSERT_EQ(all.size(), tactical.size() + quiet.size()) << p.fen();
      for (auto m : tactical) {
        ASSERT_TRUE(all.contains(m)) << p.fen();
        ASSERT_TRUE(m.is_tactical());
      }
      for (auto m : quiet) {
        ASSERT_TRUE(all.contains(m)) << p.fen();
        ASSERT_FALSE(m.is_tactical());
      }
      p.apply(all[rng.below(all.size())]);
    }
  }
}

TEST(Conformance, ChessSerialisationRoundTripsAlongPlayouts) {
  // Every position reached re-reads from its FEN with the same key, and every move played
  // re-reads from its SAN and UCI spelling.
  Rng rng(9);
  for (int game = 0; game < 20; ++game) {
    chess::Position p;
    while (!p.is_terminal()) {
      auto again = chess::Position::from_fen(p.fen());
      ASSERT_TRUE(again) << p.fen() << ": " << again.error().message;
      ASSERT_EQ(again->fen(), p.fen());
      ASSERT_EQ(again->hash(), p.hash()) << p.fen();
      MoveList<chess::Position> moves;
      p.legal_moves(moves);
      const chess::Move m = moves[rng.below(moves.size())];
      ASSERT_EQ(*chess::parse_san(p, chess::to_san(p, m)), m) << p.fen();
      ASSERT_EQ(*chess::parse_uci(p, chess::to_uci(m)), m) << p.fen();
      p.apply(m);
    }
  }
}

}  // namespace
}  // namespace kibitz::testing
