#pragma once
// Bodies of AlphaBetaEngine<G, E>; included where a game is instantiated.
#include <algorithm>

#include "engine/alphabeta_engine.hpp"
#include "search/alphabeta/alphabeta_impl.hpp"

namespace kibitz::engine {

template <class G, class E>
AlphaBetaEngine<G, E>::AlphaBetaEngine(std::size_t hash_mb)
    : tt_(hash_mb), options_(search::default_options<G>()), search_(tt_, options_) {}

template <class G, class E>
AlphaBetaEngine<G, E>::~AlphaBetaEngine() {
  stop();
  wait();
}

template <class G, class E>
void AlphaBetaEngine<G, E>::set_hash_mb(std::size_t mb) {
  wait();
  tt_.resize(mb);
}

template <class G, class E>
void AlphaBetaEngine<G, E>::clear_hash() {
  wait();
  tt_.clear();
}

template <class G, class E>
void AlphaBetaEngine<G, E>::new_game() {
  wait();
  tt_.clear();
  search_.clear();
}

template <class G, class E>
void AlphaBetaEngine<G, E>::set_options(const search::SearchOptions& options) {
  wait();
  options_ = options;
  search_.set_options(options_);
}

template <class G, class E>
void AlphaBetaEngine<G, E>::set_evaluator(const E& eval) {
  wait();
  tt_.clear();  // its entries keep static values of the old evaluator
  search_.set_evaluator(eval);
}

template <class G, class E>
bool AlphaBetaEngine<G, E>::searching() const {
  std::lock_guard lock(mutex_);
  return running_;
}

template <class G, class E>
ClockAllocation AlphaBetaEngine<G, E>::allocation(const GoParams& params) const {
  using Millis = TimeBudget::Millis;
  Millis soft = TimeBudget::kUnlimited, hard = TimeBudget::kUnlimited;
  if (params.time_left >= 0) {
    const ClockAllocation a = plan_move_time(MoverClock{.left_ms = params.time_left,
                                                        .increment_ms = params.increment,
                                                        .moves_to_go = params.moves_to_go,
                                                        .period_ms = 0,
                                                        .period_moves = 0,
                                                        .move_cap_ms = -1},
                                             TimePolicy{.reserve_ms = move_overhead_ms_});
    soft = a.soft_ms;
    hard = a.hard_ms;
    // One legal move: answer quickly, there is nothing to choose.
    if (root_moves_ == 1) soft = hard = std::min<Millis>(hard, 20);
  }
  if (params.movetime > 0) {
    // A fixed move time is used in full.
    hard = std::min(hard, std::max<Millis>(1, params.movetime - move_overhead_ms_));
    soft = hard;
  }
  return {soft, hard};
}

template <class G, class E>
void AlphaBetaEngine<G, E>::configure_budget(const G& root, const GoParams& params) {
  MoveList<G> moves;
  root_moves_ = root.legal_moves(moves);
  const ClockAllocation a = allocation(params);
  if (params.infinite || params.ponder)
    budget_.start(TimeBudget::kUnlimited, TimeBudget::kUnlimited);
  else
    budget_.start(a.soft_ms, a.hard_ms);
}

template <class G, class E>
typename AlphaBetaEngine<G, E>::Result AlphaBetaEngine<G, E>::search(
    const G& root, const GoParams& params, std::span<const Move> searchmoves,
    const InfoCallback* on_info) {
  wait();
  configure_budget(root, params);
  return search_.run(root, params.limits, budget_, searchmoves, on_info);
}

template <class G, class E>
void AlphaBetaEngine<G, E>::go(const G& root, const GoParams& params, std::vector<Move> searchmoves,
                               InfoCallback on_info, DoneCallback on_done) {
  stop();
  wait();
  {
    std::lock_guard lock(mutex_);
    stop_requested_ = false;
    running_ = true;
  }
  configure_budget(root, params);
  thread_ = std::thread([this, root, params, searchmoves = std::move(searchmoves),
                         on_info = std::move(on_info), on_done = std::move(on_done)] {
    Result result = search_.run(root, params.limits, budget_, searchmoves, &on_info);
    {
      // In infinite and ponder mode the answer waits for stop (a ponderhit is the engine
      // contract's: engine/any_engine.hpp, which searches synchronously).
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [&] { return stop_requested_ || !(params.infinite || params.ponder); });
    }
    if (on_done) on_done(result);
    std::lock_guard lock(mutex_);
    running_ = false;
  });
}

template <class G, class E>
void AlphaBetaEngine<G, E>::stop() {
  {
    std::lock_guard lock(mutex_);
    if (!running_) return;
    stop_requested_ = true;
  }
  budget_.request_stop();
  cv_.notify_all();
}

template <class G, class E>
void AlphaBetaEngine<G, E>::start_clock(const GoParams& params) {
  const ClockAllocation a = allocation(params);
  budget_.retarget(a.soft_ms, a.hard_ms);
}

template <class G, class E>
void AlphaBetaEngine<G, E>::wait() {
  if (thread_.joinable()) thread_.join();
}

}  // namespace kibitz::engine
