#pragma once
// The chess engine: the generic alpha-beta engine instantiated for chess::Position (with the
// chess search hooks of games/chess/search_traits.hpp) and the evaluator that runs the network
// when one is loaded (games/chess/nnue.hpp), and the fixed bench.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/alphabeta_engine.hpp"
#include "engine/bench.hpp"
#include "games/chess/nnue.hpp"
#include "games/chess/position.hpp"
#include "games/chess/search_traits.hpp"

namespace kibitz::engine {

using ChessEngine = AlphaBetaEngine<chess::Position, chess::nnue::SearchEval>;
extern template class AlphaBetaEngine<chess::Position, chess::nnue::SearchEval>;

// The positions of `kibitz bench` / UCI `bench` (searched through the engine contract:
// engine/bench.hpp, run_engine_bench).
std::vector<std::string_view> chess_bench_fens();

}  // namespace kibitz::engine
