#pragma once
// The chess engine: the generic alpha-beta engine instantiated for chess::Position (with the
// chess search hooks of games/chess/search_traits.hpp), and the fixed bench.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/alphabeta_engine.hpp"
#include "engine/bench.hpp"
#include "games/chess/position.hpp"
#include "games/chess/search_traits.hpp"

namespace kibitz::engine {

using ChessEngine = AlphaBetaEngine<chess::Position>;
extern template class AlphaBetaEngine<chess::Position>;

// `kibitz bench` / UCI `bench` over fixed chess positions (engine/bench.hpp).
std::vector<std::string_view> chess_bench_fens();
// `progress` (optional) is called after each position.
BenchReport run_chess_bench(const BenchOptions& options,
                            const std::function<void(const BenchPosition&)>& progress = {});

}  // namespace kibitz::engine
