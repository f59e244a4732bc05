#pragma once
// An alpha-beta engine a protocol adapter drives: owns the transposition table and the Lazy
// SMP search, turns "go" parameters (clock, movetime, depth, nodes, mate, infinite, ponder)
// into one TimeBudget, runs the search on its own thread and reports through callbacks.
// Protocol-neutral: UCI today, Gomocup for gomoku (same template, another game).
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "core/time_manager.hpp"
#include "search/alphabeta/alphabeta.hpp"
#include "search/alphabeta/evaluator.hpp"

namespace kibitz::engine {

struct GoParams {
  search::SearchLimits limits;        // depth / nodes / mate
  TimeBudget::Millis time_left = -1;  // the mover's clock; -1 = no clock
  TimeBudget::Millis increment = 0;
  int moves_to_go = 0;
  TimeBudget::Millis movetime = 0;  // 0 = none
  bool infinite = false;            // until stop (bestmove only after stop)
  bool ponder = false;              // no clock until start_clock (ponderhit), or stop
};

// E: the leaf evaluator (search/alphabeta/evaluator.hpp); the game's own evaluate() by default.
template <class G, class E = search::GameEval<G>>
class AlphaBetaEngine {
 public:
  using Move = typename G::Move;
  using Result = search::SearchResult<Move>;
  using InfoCallback = search::InfoCallback<Move>;
  using DoneCallback = std::function<void(const Result&)>;

  explicit AlphaBetaEngine(std::size_t hash_mb = 16);
  ~AlphaBetaEngine();
  AlphaBetaEngine(const AlphaBetaEngine&) = delete;
  AlphaBetaEngine& operator=(const AlphaBetaEngine&) = delete;

  // Settings; the ones that reallocate (hash, threads) wait for a running search to end.
  void set_hash_mb(std::size_t mb);
  std::size_t hash_mb() const { return tt_.megabytes(); }
  void clear_hash();
  void new_game();  // clears the table, killers and history
  void set_options(const search::SearchOptions& options);
  const search::SearchOptions& options() const { return options_; }
  // A new evaluator for the searches from now on (every thread's copy is replaced; the
  // history tables and the transposition table, which keeps static values, start afresh).
  void set_evaluator(const E& eval);
  void set_move_overhead_ms(TimeBudget::Millis ms) { move_overhead_ms_ = ms; }
  TimeBudget::Millis move_overhead_ms() const { return move_overhead_ms_; }

  // Starts searching `root` on the engine's thread and returns at once; `on_done` gets the
  // answer (after stop in infinite / ponder mode). A running search is stopped first.
  void go(const G& root, const GoParams& params, std::vector<Move> searchmoves,
          InfoCallback on_info, DoneCallback on_done);
  void stop();                                    // any thread
  void stop_search() { budget_.request_stop(); }  // any thread: ends a synchronous search()
  // Any thread, during a synchronous search(): (re)starts its clock from `params`' limits
  // (a ponder search's ponderhit: the pondered move was played, the clock now runs).
  void start_clock(const GoParams& params);
  void wait();  // until the running search (if any) has reported
  bool searching() const;

  // Synchronous search on the calling thread (bench, tests, matches).
  Result search(const G& root, const GoParams& params, std::span<const Move> searchmoves = {},
                const InfoCallback* on_info = nullptr);

 private:
  ClockAllocation allocation(const GoParams& params) const;
  void configure_budget(const G& root, const GoParams& params);

  search::TranspositionTable tt_;
  search::SearchOptions options_;
  search::ParallelSearch<G, E> search_;
  TimeBudget budget_;
  TimeBudget::Millis move_overhead_ms_ = 30;
  std::size_t root_moves_ = 0;

  mutable std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_requested_ = false;
  bool running_ = false;
  std::thread thread_;
};

}  // namespace kibitz::engine
