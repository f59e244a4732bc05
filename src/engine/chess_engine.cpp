#include "engine/chess_engine.hpp"

#include <cmath>

#include "engine/alphabeta_engine_impl.hpp"
#include "engine/generic_mcts.hpp"
#include "games/chess/chess_game.hpp"
#include "games/chess/notation.hpp"

namespace kibitz::search {
template class AlphaBeta<chess::Position, chess::nnue::SearchEval>;
template class ParallelSearch<chess::Position, chess::nnue::SearchEval>;
}  // namespace kibitz::search

namespace kibitz::engine {

template class AlphaBetaEngine<chess::Position, chess::nnue::SearchEval>;

std::vector<std::string_view> chess_bench_fens() {
  // Opening, middlegame, tactical and endgame positions (the standard perft positions and
  // well-known test positions), so every part of the search is exercised.
  return {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
      "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
      "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
      "r2q1rk1/ppp2ppp/2n1bn2/2bpp3/4P3/2PP1NN1/PP2BPPP/R1BQ1RK1 b - - 3 9",
      "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
      "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
      "8/5pk1/6p1/7p/7P/6P1/5PK1/4R3 w - - 0 40",
  };
}

Result<MctsAnswer> chess_mcts(std::string_view text, const MctsRequest& r) {
  return generic_mcts<chess::Position>(
      text, r, chess::parse_position_text,
      [](const chess::Position&, chess::Move m) { return chess::to_uci(m); });
}

}  // namespace kibitz::engine
