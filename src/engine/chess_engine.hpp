#pragma once
// The chess engine: the generic alpha-beta engine instantiated for chess::Position (with the
// chess search hooks of games/chess/search_traits.hpp), and the fixed bench.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/alphabeta_engine.hpp"
#include "games/chess/position.hpp"
#include "games/chess/search_traits.hpp"

namespace kibitz::engine {

using ChessEngine = AlphaBetaEngine<chess::Position>;
extern template class AlphaBetaEngine<chess::Position>;

// `kibitz bench` / UCI `bench`: fixed positions searched to a fixed depth from a cleared
// table, one thread unless asked; the total node count is the signature (deterministic).
struct BenchOptions {
  int depth = 11;
  std::int64_t movetime_ms = 0;  // instead of the depth: this long per position
  std::size_t hash_mb = 16;
  int threads = 1;
  search::SearchOptions search;
};
struct BenchPosition {
  std::string fen;
  std::uint64_t nodes = 0;
  std::int64_t time_ms = 0;
  int depth = 0;
  std::string best;
  std::vector<std::uint64_t> nodes_per_depth;  // cumulative, per completed iteration
};
struct BenchReport {
  std::vector<BenchPosition> positions;
  std::uint64_t nodes = 0;
  std::int64_t time_ms = 0;
  search::SearchStats stats;
  std::uint64_t nps() const {
    return time_ms > 0 ? nodes * 1000 / static_cast<std::uint64_t>(time_ms) : nodes * 1000;
  }
  // Geometric mean over positions of nodes(d) / nodes(d - 1) at the last completed depth.
  double effective_branching_factor() const;
};
std::vector<std::string_view> chess_bench_fens();
// `progress` (optional) is called after each position.
BenchReport run_chess_bench(const BenchOptions& options,
                            const std::function<void(const BenchPosition&)>& progress = {});

}  // namespace kibitz::engine
