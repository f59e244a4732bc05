#pragma once
// `kibitz bench`: fixed positions of a game searched to a fixed depth from a cleared table, one
// thread unless asked; the total node count is the game's signature (deterministic: it
// changes only when the search or evaluation does), nodes/second its speed figure.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "search/common/limits.hpp"

namespace kibitz::engine {

struct BenchOptions {
  int depth = 11;
  std::int64_t movetime_ms = 0;  // instead of the depth: this long per position
  std::size_t hash_mb = 16;
  int threads = 1;
  std::uint64_t playouts = 0;  // MCTS games (Go): playouts per position
  search::SearchOptions search;
};
// What `kibitz bench` asks of a game's bench (the registry entry's hook).
struct BenchRequest {
  BenchOptions options;   // depth 0: the game's default
  bool pipeline = false;  // gomoku with a movetime: the whole engine, not the alpha-beta alone
  bool plain = false;     // the plain baseline search
  std::vector<std::string> disable;  // techniques switched off
  bool verbose = false;
  std::string go_playouts = "rules";        // Go: the playout policy
  std::vector<std::string> engine_options;  // chess: NAME=VALUE words, set after the others
  std::string rule;                         // gomoku: the positions' rule (empty: freestyle)
};
struct BenchPosition {
  std::string position;  // FEN (chess) or the moves played (gomoku)
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
  std::uint64_t signature = 0;  // the deterministic figure a golden test checks (Go: tree nodes)
  search::SearchStats stats;
  std::uint64_t nps() const {
    return time_ms > 0 ? nodes * 1000 / static_cast<std::uint64_t>(time_ms) : nodes * 1000;
  }
  void add(BenchPosition p, const search::SearchStats& s) {
    nodes += p.nodes;
    time_ms += p.time_ms;
    stats.add(s);
    positions.push_back(std::move(p));
  }
  // Geometric mean over positions of nodes(d) / nodes(d - 1) at the last completed depth.
  double effective_branching_factor() const;
  // The median depth completed (the --movetime figure).
  int median_depth() const;
};

class AnyEngine;
struct EngineLimits;

// The bench over the one engine contract: each position (a position text) searched under
// `limits` from a cleared table (new_game), its nodes, time, depth, best move, nodes per
// iteration and counters added to the report. A position the engine refuses is skipped.
BenchReport run_engine_bench(AnyEngine& engine, std::span<const std::string_view> positions,
                             const EngineLimits& limits,
                             const std::function<void(const BenchPosition&)>& progress = {});

}  // namespace kibitz::engine
