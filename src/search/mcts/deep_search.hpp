#pragma once
// Uncertainty-triggered recursive deep search (the Go design, seeds/001): a position whose
// standard search leaves it uncertain is looked up in a cache of earlier deep analyses; on a
// miss it is searched with many more visits, and the most promising children of that search
// are analysed the same way (looked up first, searched deeply on a miss, stored) down to a
// maximum recursion depth. The children's deeper values refine the parent's move values,
// and the move is chosen from the refined values.
//
// Written once against the Game concept and a Cache (duck-typed, see below); the Go engine
// supplies a cache over the persistent position database (engine/go_deep.cpp).
//
// Required of Cache (every member may be called from several threads at once):
//   std::optional<CachedAnalysis<Move>> lookup(const G&)          an exact (symmetry) match
//   StoreOutcome store(const G&, const DeepAnalysis<Move>&, int depth)   keeps an analysis
//   std::vector<std::pair<Move, float>> similar(const G&, const MctsResult<Move>&)
//       a prior hint from approximate neighbours (empty: none)
// Bodies are in deep_search_impl.hpp (include it where DeepSearch<G, Cache> is instantiated).
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/time_budget.hpp"
#include "search/mcts/mcts.hpp"

namespace kibitz::search {

struct DeepSearchOptions {
  std::uint64_t standard_visits = 800;  // a child's own search when the tree has fewer visits
  double uncertainty_threshold = 0.35;  // query the cache above this
  double deep_offset = 0.05;            // deep search above threshold + offset
  std::uint64_t deep_visits = 10000;    // deep_mcts.max_visits
  // Convergence: the deep search runs in chunks of convergence_check_visits and stops early
  // when, from one chunk to the next, the root visit distribution moved by less than
  // policy_convergence (total variation distance) and the best move's value by less than
  // value_convergence. 0 disables either test (both 0: always the full budget).
  double policy_convergence = 0.05;
  double value_convergence = 0.02;
  std::uint64_t convergence_check_visits = 1000;
  int max_recursion_depth = 2;  // the deepest level a deep search runs at (the root is 0)
  int top_children = 3;         // children analysed per deep search (selective analysis)
  int force_top_n = 1;          // of them, the most visited always (then by uncertainty x value)
  // A refined child value (its own deep or cached analysis) counts as this many visits at
  // most when blended with the parent's statistics for that move.
  double refine_weight_cap = 1e9;
  // Moves eligible for the final choice: at least this fraction of the most visited move's
  // visits (the refined values are compared among them).
  double robust_fraction = 0.3;
  int workers = 1;              // children of the root searched in parallel
  int threads = 1;              // threads of each deep MCTS
  double ann_blend_weight = 0;  // weight of a similar() hint in the deep search's priors (0: off)
  std::uint64_t nodes_per_visit = 80;  // arena per deep search: visits * this (+ slack)
  std::uint64_t seed = 0x44454550ull;
  MctsOptions mcts;  // the base options of every search (selection, RAVE, ...)
};

// A cached analysis: the move it chose (in the position's own orientation) and its value.
template <class Move>
struct CachedAnalysis {
  Move move{};
  double winrate = 0.5;  // of the move, for the side to move
  std::uint32_t deep_visits = 0;
  int contexts = 0;  // contexts the position has
};

struct StoreOutcome {
  bool stored = false;
  bool new_position = false;
  int contexts = 0;
};

enum class DeepSource : std::uint8_t { kStandard, kCached, kDeep };

template <class Move>
struct DeepAnalysis {
  MctsResult<Move> result;   // the deepest search of the position (the standard one otherwise)
  Move move{};               // the chosen move
  double value = 0.5;        // its (refined) value for the side to move
  double uncertainty = 1.0;  // of the standard search that decided what to do
  DeepSource source = DeepSource::kStandard;
  int contexts = 0;                 // kCached: the position's stored contexts
  std::uint32_t cached_visits = 0;  // kCached: deep_visits of the context used
  int depth = 0;                    // recursion level of this analysis
  int deepest = 0;                  // deepest level a deep search reached below (and at) it
  bool converged = false;           // the deep search stopped early by the convergence tests
  bool hinted = false;              // the priors took an approximate-neighbour hint
  int refined_children = 0;         // children whose deeper analysis refined a move value
  std::uint64_t playouts = 0;       // all searches of this analysis and below
};

// The statistics block of the seed.
struct DeepStats {
  std::atomic<std::uint64_t> moves{0};
  std::atomic<std::uint64_t> rag_queries{0};
  std::atomic<std::uint64_t> rag_hits{0};
  std::atomic<std::uint64_t> exact_matches{0};
  std::atomic<std::uint64_t> deep_searches{0};
  std::atomic<std::uint64_t> recursive_searches{0};
  std::atomic<std::uint64_t> positions_stored{0};
  std::atomic<std::uint64_t> contexts_added{0};
  std::atomic<std::uint64_t> ann_hints{0};
  std::atomic<std::uint64_t> converged_early{0};
  std::atomic<int> deepest{0};
  std::atomic<std::uint64_t> uncertainty_millis{0};  // sum of uncertainty * 1000 (for the mean)
  void reset() {
    for (auto* c :
         {&moves, &rag_queries, &rag_hits, &exact_matches, &deep_searches, &recursive_searches,
          &positions_stored, &contexts_added, &ann_hints, &converged_early, &uncertainty_millis})
      c->store(0);
    deepest.store(0);
  }
};

template <class G, class Cache>
requires Game<G>
class DeepSearch {
 public:
  using Move = typename G::Move;
  using Result = MctsResult<Move>;
  using Analysis = DeepAnalysis<Move>;
  // Trace lines (the seed's "→ Deep search (depth=1, unc=0.43)"), with their nesting level.
  using Trace = std::function<void(int level, std::string_view line)>;
  using MoveText = std::function<std::string(const Move&)>;

  DeepSearch(Cache& cache, const DeepSearchOptions& options, DeepStats& stats);

  void set_trace(Trace trace, MoveText move_text);
  const DeepSearchOptions& options() const { return options_; }
  void set_options(const DeepSearchOptions& options) { options_ = options; }
  double deep_threshold() const { return options_.uncertainty_threshold + options_.deep_offset; }

  // The decision for a position after its standard search `standard` (the engine's own,
  // with its reused tree): cached analysis, deep search, or the standard result, by the
  // standard search's uncertainty. `max_depth` overrides options().max_recursion_depth (the
  // adaptive depth; -1: the option). The budget's hard limit bounds all the deep work (a
  // deep search cut short still gives its best answer; children not started are skipped).
  // `tree` (optional): the tree the standard search ran on (its root is pos); the root's deep
  // search then continues it instead of starting afresh, so the standard visits count and the
  // deep statistics stay in the caller's tree for the moves after.
  Analysis decide(const G& pos, const Result& standard, TimeBudget& budget, int max_depth = -1,
                  Mcts<G>* tree = nullptr);

  // A deep search of `pos` at recursion level `depth` (< max_depth recurses into children),
  // without a cache lookup for `pos` itself. Public for tests and benchmarks.
  // `tree` (optional) as for decide(); a prior hint given to it is cleared again at the end.
  Analysis deep(const G& pos, int depth, int max_depth, TimeBudget& budget,
                Mcts<G>* tree = nullptr);

 private:
  // The child's uncertainty: from the tree when the child has standard_visits there, else
  // from a standard search of its own (whose playouts are added to `playouts`).
  double child_uncertainty(const Mcts<G>& tree, std::uint32_t node, const G& child,
                           TimeBudget& budget, std::uint64_t& playouts);
  void trace(int level, const std::string& line) const;
  std::string text(const Move& m) const;

  Cache& cache_;
  DeepSearchOptions options_;
  DeepStats& stats_;
  Trace trace_;
  MoveText move_text_;
  std::atomic<std::uint64_t> searches_{0};  // seeds of successive deep searches
};

}  // namespace kibitz::search
