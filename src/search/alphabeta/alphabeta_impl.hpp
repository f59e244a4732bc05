#pragma once
// Template bodies of AlphaBeta / ParallelSearch. Include only where a game is instantiated
// (src/engine/*.cpp): `template class AlphaBeta<G, E>; template class ParallelSearch<G, E>;`.
#include <algorithm>
#include <cmath>
#include <thread>

#include "search/alphabeta/alphabeta.hpp"
#include "search/alphabeta/move_picker.hpp"

namespace kibitz::search {

template <class G, class E>
requires AlphaBetaSetup<G, E> std::array < std::array<std::uint8_t, 64>,
64 > AlphaBeta<G, E>::reductions_ = [] {
  std::array<std::array<std::uint8_t, 64>, 64> r{};
  for (int d = 1; d < 64; ++d)
    for (int m = 1; m < 64; ++m)
      r[d][m] = static_cast<std::uint8_t>(
          std::max(0.0, Traits::kLmrBase + std::log(d) * std::log(m) / Traits::kLmrDivisor));
  return r;
}();

template <class G, class E>
requires AlphaBetaSetup<G, E> AlphaBeta<G, E>::AlphaBeta(TranspositionTable& tt,
                                                         const SearchOptions& options,
                                                         int thread_id, const E& eval)
    : tt_(tt), options_(options), thread_id_(thread_id), eval_(eval) {
  clear();
}

template <class G, class E>
requires AlphaBetaSetup<G, E>
void AlphaBeta<G, E>::clear() {
  killers_.clear();
  history_.clear();
  cont_history_.clear();
  capture_history_.clear();
  correction_.clear();
}

template <class G, class E>
requires AlphaBetaSetup<G, E> Score AlphaBeta<G, E>::corrected(Score raw, int ply)
const {
  if constexpr (kHasCorrection) {
    if (options_.correction_history && !is_mate(raw))
      return std::clamp(raw + correction_.get(mover_at(ply), Traits::correction_key(state_)),
                        -kMateBound + 1, kMateBound - 1);
  }
  (void)ply;
  return raw;
}

template <class G, class E>
requires AlphaBetaSetup<G, E>
int AlphaBeta<G, E>::quiet_stat(Move m, int ply) const {
  if (!options_.history) return 0;
  int v = history_.get(mover_at(ply), Traits::history_index(m));
  if constexpr (kHasCont) {
    if (use_cont()) {
      const int pt = Traits::piece_to(state_, m);
      v += (*cont_row_[ply + 1])[pt] + (*cont_row_[ply])[pt];
    }
  }
  return v;
}

template <class G, class E>
requires AlphaBetaSetup<G, E>
bool AlphaBeta<G, E>::is_quiet(Move m) const {
  if constexpr (requires { Traits::is_tactical(state_, m); }) {
    return !Traits::is_tactical(state_, m);
  } else {
    return true;
  }
}

template <class G, class E>
requires AlphaBetaSetup<G, E> std::uint64_t AlphaBeta<G, E>::total_nodes()
const {
  std::uint64_t n = nodes();
  for (const AlphaBeta* p : peers_)
    if (p != this) n += p->nodes();
  return n;
}

template <class G, class E>
requires AlphaBetaSetup<G, E>
void AlphaBeta<G, E>::count_node() {
  if (aborted_) return;  // nodes visited while unwinding are not searched
  const std::uint64_t n = nodes_.load(std::memory_order_relaxed) + 1;
  nodes_.store(n, std::memory_order_relaxed);
  // An external stop (UCI `stop`, `ponderhit` then the end of input) does not cut the main
  // thread's first iteration: the answer is always a searched move, as GUIs expect.
  if (budget_->stopped() && (depth_one_done_ || thread_id_ != 0)) {
    aborted_ = true;
    return;
  }
  if (thread_id_ != 0 || !depth_one_done_) return;
  // The main thread enforces the hard time limit and the node limit for everyone.
  // With helpers, summing their counters is checked every 256 nodes, not at every node.
  // The clock is read every 256 nodes too: some gomoku nodes cost seven times the average
  // (14 ms between reads at 1,024 nodes: BENCHMARKS.md, issue 23, twenty-first step).
  if (limits_->nodes &&
      (peers_.empty() ? n >= limits_->nodes : (n & 255) == 0 && total_nodes() >= limits_->nodes)) {
    budget_->request_stop();
    aborted_ = true;
  } else if ((n & 255) == 0 && budget_->hard_expired()) {
    budget_->request_stop();
    aborted_ = true;
  }
}

template <class G, class E>
requires AlphaBetaSetup<G, E> Score AlphaBeta<G, E>::game_over_score(int ply) {
  // A game decided on the board (a five, a mate) is scored by its returns; no_moves_result
  // is about a side left without moves, and knows nothing of a five already made.
  const auto r = state_.returns();
  const auto mine = r[mover_at(ply)];
  if (mine > 0) return mate_in(ply);
  if (mine < 0) return mated_in(ply);
  // A game over without a winner: where the game judges a side left without moves (renju
  // black whose every answer is forbidden), that verdict; else a draw.
  if constexpr (requires { Traits::no_moves_result(state_); }) return terminal_score(ply);
  return 0;
}

template <class G, class E>
requires AlphaBetaSetup<G, E> Score AlphaBeta<G, E>::terminal_score(int ply) {
  int result;
  if constexpr (requires { Traits::no_moves_result(state_); }) {
    result = Traits::no_moves_result(state_);
  } else {
    const auto r = state_.returns();
    result = r[mover_at(ply)] > 0 ? 1 : r[mover_at(ply)] < 0 ? -1 : 0;
  }
  return result > 0 ? mate_in(ply) : result < 0 ? mated_in(ply) : 0;
}

template <class G, class E>
requires AlphaBetaSetup<G, E>
void AlphaBeta<G, E>::update_quiet_stats(Move best, int depth, int ply,
                                         std::span<const Move> tried) {
  if (options_.killers) killers_.store(ply, best);
  if (options_.history) {
    const int bonus = ButterflyHistory<Traits::kHistorySize>::bonus(depth);
    const int side = mover_at(ply);
    history_.update(side, Traits::history_index(best), bonus);
    // The quiet moves searched before the cut-off did not cut: lower them.
    for (Move m : tried)
      if (m != best) history_.update(side, Traits::history_index(m), -bonus);
    if constexpr (kHasCont) {
      if (use_cont()) {
        auto& r1 = *cont_row_[ply + 1];
        auto& r2 = *cont_row_[ply];
        const int pt = Traits::piece_to(state_, best);
        ContHistory::update(r1, pt, bonus);
        ContHistory::update(r2, pt, bonus);
        for (Move m : tried)
          if (m != best) {
            const int q = Traits::piece_to(state_, m);
            ContHistory::update(r1, q, -bonus);
            ContHistory::update(r2, q, -bonus);
          }
      }
    }
  }
}

template <class G, class E>
requires AlphaBetaSetup<G, E>
void AlphaBeta<G, E>::update_capture_stats(Move best, int depth, int ply,
                                           std::span<const Move> tried) {
  if constexpr (kHasCaptureHistory) {
    if (!options_.capture_history) return;
    const int bonus = ButterflyHistory<capture_size()>::bonus(depth);
    const int side = mover_at(ply);
    if (best) capture_history_.update(side, Traits::capture_index(state_, best), bonus);
    for (Move m : tried)
      if (m != best) capture_history_.update(side, Traits::capture_index(state_, m), -bonus);
  } else {
    (void)best, (void)depth, (void)ply, (void)tried;
  }
}

template <class G, class E>
requires AlphaBetaSetup<G, E>
template <bool Pv>
Score AlphaBeta<G, E>::qsearch(Score alpha, Score beta, int ply) {
  count_node();
  ++stats_.qnodes;
  if (aborted_) return 0;
  if constexpr (Pv) pv_length_[ply] = ply;
  seldepth_ = std::max(seldepth_, ply);

  if constexpr (requires { Traits::is_search_draw(state_); }) {
    if (Traits::is_search_draw(state_)) return 0;
  } else {
    if (state_.is_terminal()) return game_over_score(ply);
  }
  bool in_check = false;
  if constexpr (HasNullMove<G>) in_check = state_.in_check();
  if (ply >= kMaxSearchPly - 1) return in_check ? 0 : evaluate();

  const std::uint64_t key = state_.hash();
  TTData tte;
  const bool tt_hit = options_.tt_cutoffs || options_.tt_move ? tt_.probe(key, tte) : false;
  const Score tt_score = tt_hit ? score_from_tt(tte.score, ply) : kNoScore;
  if (!Pv && tt_hit && options_.tt_cutoffs &&
      (tte.bound == Bound::kExact || (tte.bound == Bound::kLower && tt_score >= beta) ||
       (tte.bound == Bound::kUpper && tt_score <= alpha)))
    return tt_score;

  Score best = -kInfinite;
  Score stand_pat = -kInfinite;
  Score raw_eval = 0;  // what the table keeps: the evaluation before correction
  if (!in_check) {
    raw_eval = tt_hit ? tte.eval : evaluate();
    stand_pat = corrected(raw_eval, ply);
    // A TT score with a compatible bound is a better estimate than the static evaluation.
    if (tt_hit && tt_score != kNoScore &&
        (tte.bound == (tt_score > stand_pat ? Bound::kLower : Bound::kUpper) ||
         tte.bound == Bound::kExact))
      best = tt_score;
    else
      best = stand_pat;
    if (best >= beta) {
      if (!tt_hit) tt_.store(key, Move::none(), score_to_tt(best, ply), raw_eval, 0, Bound::kLower);
      return best;
    }
    alpha = std::max(alpha, best);
    // A game's cheap proof of a forced win where standing pat is not enough.
    if constexpr (requires { Traits::quiescence_win(state_); }) {
      if (const int plies = Traits::quiescence_win(state_)) {
        const Score win = mate_in(ply + plies);
        tt_.store(key, Move::none(), score_to_tt(win, ply), raw_eval, 0, Bound::kLower);
        return win;
      }
    }
  }

  const Score alpha_in = alpha;
  const Move tt_move = tt_hit ? tte.move_as<Move>() : Move::none();
  MovePicker<G, Traits::kHistorySize> picker(state_, options_, tt_move, history_, mover_at(ply),
                                             in_check, capture_row(ply));
  Move best_move = Move::none();
  int move_count = 0;
  bool quiet;
  typename G::Undo undo;
  for (Move m = picker.next(quiet); m; m = picker.next(quiet)) {
    ++move_count;
    if constexpr (requires { Traits::see_ge(state_, m, 0); }) {
      // Losing captures cannot raise the stand-pat score (not when escaping check).
      if (!in_check && options_.see && !Traits::see_ge(state_, m, 0)) continue;
    }
    if constexpr (requires { Traits::hash_after(state_, m); })
      tt_.prefetch(Traits::hash_after(state_, m));
    make(m, undo);
    const Score score = -qsearch<Pv>(-beta, -alpha, ply + 1);
    unmake(m, undo);
    if (aborted_) return 0;
    if (score > best) {
      best = score;
      if (score > alpha) {
        best_move = m;
        if constexpr (Pv) {
          pv_[ply][ply] = m;
          for (int i = ply + 1; i < pv_length_[ply + 1]; ++i) pv_[ply][i] = pv_[ply + 1][i];
          pv_length_[ply] = std::max(pv_length_[ply + 1], ply + 1);
        }
        if (score >= beta) break;
        alpha = score;
      }
    }
  }
  if (in_check && move_count == 0) return mated_in(ply);
  if constexpr (!requires { Traits::is_search_draw(state_); }) {
    if (move_count == 0 && best == -kInfinite) return terminal_score(ply);
  }
  const Bound bound = best >= beta              ? Bound::kLower
                      : (Pv && best > alpha_in) ? Bound::kExact
                                                : Bound::kUpper;
  tt_.store(key, best_move, score_to_tt(best, ply), raw_eval, 0, bound);
  return best;
}

template <class G, class E>
requires AlphaBetaSetup<G, E>
template <typename AlphaBeta<G, E>::Node NT>
Score AlphaBeta<G, E>::search(int depth, Score alpha, Score beta, int ply, bool cut_node) {
  constexpr bool kRoot = NT == Node::kRoot;
  constexpr bool kPv = NT != Node::kNonPv;

  if (depth <= 0) {
    if (options_.quiescence) return qsearch<kPv>(alpha, beta, ply);
    count_node();
    if constexpr (kPv) pv_length_[ply] = ply;
    return aborted_ ? 0 : evaluate();
  }
  count_node();
  if (aborted_) return 0;
  if constexpr (kPv) pv_length_[ply] = ply;
  seldepth_ = std::max(seldepth_, ply);

  bool in_check = false;
  if constexpr (HasNullMove<G>) in_check = state_.in_check();
  if constexpr (!kRoot) {
    if constexpr (requires { Traits::is_search_draw(state_); }) {
      if (Traits::is_search_draw(state_)) return 0;
    } else {
      if (state_.is_terminal()) return game_over_score(ply);
    }
    if (ply >= kMaxSearchPly - 1) return in_check ? 0 : evaluate();
    // Mate-distance pruning: no line from here beats a mate already found closer to the root.
    alpha = std::max(alpha, mated_in(ply));
    beta = std::min(beta, mate_in(ply + 1));
    if (alpha >= beta) return alpha;
  }
  // A singular-extension search of this node leaves one move out (and must not be taken
  // for the node itself: no table cut-off or store, no pruning before the moves).
  const Move excluded = excluded_[ply];
  if (!excluded) killers_.clear_ply(ply + 2);

  const std::uint64_t key = state_.hash();
  TTData tte;
  const bool tt_hit = options_.tt_cutoffs || options_.tt_move ? tt_.probe(key, tte) : false;
  if (tt_hit) ++stats_.tt_hits;
  const Score tt_score = tt_hit ? score_from_tt(tte.score, ply) : kNoScore;
  const Move tt_move =
      kRoot ? root_moves_[pv_index_].move : (tt_hit ? tte.move_as<Move>() : Move::none());
  if (!kPv && !excluded && tt_hit && options_.tt_cutoffs && tte.depth >= depth &&
      (tte.bound == Bound::kExact || (tte.bound == Bound::kLower && tt_score >= beta) ||
       (tte.bound == Bound::kUpper && tt_score <= alpha)))
    return tt_score;

  Score eval = kNoScore;
  Score raw_eval = 0;  // before correction: what the table keeps
  if (!in_check) {
    raw_eval = tt_hit ? tte.eval : evaluate();
    eval = corrected(raw_eval, ply);
    static_eval_[ply] = eval;
    if (tt_hit && (tte.bound == Bound::kExact ||
                   tte.bound == (tt_score > eval ? Bound::kLower : Bound::kUpper)))
      eval = tt_score;
  } else {
    static_eval_[ply] = kNoScore;
  }

  // Improving: our static evaluation rose since our previous move; prune less where it did.
  bool improving = false;
  constexpr bool kImproving = requires { Traits::kImprovingPruning; };
  if constexpr (kImproving) {
    if (options_.improving && !in_check && ply >= 2 && static_eval_[ply - 2] != kNoScore)
      improving = static_eval_[ply] > static_eval_[ply - 2];
  }
  const bool use_improving = kImproving && options_.improving;

  typename G::Undo undo;
  if constexpr (!kPv) {
    // Reverse futility: far enough above beta that a shallow search will not fall below it.
    if (options_.reverse_futility && !in_check && !excluded &&
        depth <= Traits::kReverseFutilityDepth && !is_mate(beta) &&
        eval - Traits::kReverseFutilityMargin * (depth - (improving ? 1 : 0)) >= beta)
      return eval;

    // Null move: pass; if a reduced search still fails high the position is good enough.
    if constexpr (HasNullMove<G>) {
      bool zugzwang_safe = true;
      if constexpr (requires { Traits::null_move_safe(state_); })
        zugzwang_safe = Traits::null_move_safe(state_);
      if (options_.null_move && !in_check && !excluded && depth >= options_.null_min_depth &&
          eval >= beta && !is_mate(beta) && !null_move_at_[ply] && ply >= null_disabled_from_ply_ &&
          zugzwang_safe) {
        ++stats_.null_tries;
        const int r = Traits::kNullMoveBase + depth / Traits::kNullMoveDepthDivisor +
                      std::min((eval - beta) / 200, Traits::kNullMoveEvalCap);
        if constexpr (kHasCont) cont_row_[ply + 2] = cont_history_.none();
        eval_.make_null(state_);
        state_.make_null(undo);
        null_move_at_[ply + 1] = true;
        Score score = -search<Node::kNonPv>(depth - 1 - r, -beta, -beta + 1, ply + 1, !cut_node);
        null_move_at_[ply + 1] = false;
        state_.unmake_null(undo);
        eval_.unmake_null(state_);
        if (aborted_) return 0;
        if (score >= beta) {
          if (is_mate(score)) score = beta;  // unproven mates from a null move
          if (depth < options_.null_verify_depth || null_disabled_from_ply_ > 0) {
            ++stats_.null_cutoffs;
            return score;
          }
          // Verification at high depth: the same reduced search without null moves below.
          null_disabled_from_ply_ = ply + 3 * (depth - r) / 4;
          const Score v = search<Node::kNonPv>(depth - r, beta - 1, beta, ply, false);
          null_disabled_from_ply_ = 0;
          if (aborted_) return 0;
          if (v >= beta) {
            ++stats_.null_cutoffs;
            return score;
          }
        }
      }
    }

    // ProbCut: a capture that wins enough by SEE, and beats beta by a margin in quiescence
    // and then at reduced depth, is taken as a cut-off here.
    if constexpr (requires { Traits::kProbCutMargin; }) {
      const Score pc_beta = beta + Traits::kProbCutMargin;
      if (options_.probcut && !in_check && !excluded && depth >= 5 && !is_mate(beta) &&
          !(tt_hit && tte.depth >= depth - 3 && tt_score != kNoScore && tt_score < pc_beta)) {
        MovePicker<G, Traits::kHistorySize> pc(state_, options_, tt_move, history_, mover_at(ply),
                                               false, capture_row(ply));
        bool tactical_quiet;
        for (Move m = pc.next(tactical_quiet); m; m = pc.next(tactical_quiet)) {
          // Captures only: with the static eval far above beta a quiet move passes the SEE
          // test too, and a cut on it is a second null move that hides the opponent's tactics.
          if (tactical_quiet || !Traits::see_ge(state_, m, pc_beta - static_eval_[ply])) continue;
          set_cont_row(ply, m);
          make(m, undo);
          Score v = -qsearch<false>(-pc_beta, -pc_beta + 1, ply + 1);
          if (v >= pc_beta)
            v = -search<Node::kNonPv>(depth - 4, -pc_beta, -pc_beta + 1, ply + 1, !cut_node);
          unmake(m, undo);
          if (aborted_) return 0;
          if (v >= pc_beta) {
            tt_.store(key, m, score_to_tt(v, ply), raw_eval, depth - 3, Bound::kLower);
            return v;
          }
        }
      }
    }
  }

  // Internal iterative reduction: a node expected to matter but without a TT move is searched
  // one ply shallower first; the next iteration finds the move in the table.
  if constexpr (!kRoot) {
    if (options_.iir && depth >= 4 && !tt_move && (kPv || cut_node)) --depth;
  }

  const Score alpha_in = alpha;
  Score best = -kInfinite;
  Move best_move = Move::none();
  int move_count = 0;
  FixedVector<Move, 64> quiets_tried;
  FixedVector<Move, 32> captures_tried;

  MovePicker<G, Traits::kHistorySize> picker(
      state_, options_, kRoot ? Move::none() : tt_move, killers_.first(ply), killers_.second(ply),
      history_, mover_at(ply), use_cont() ? cont_row_[ply + 1]->data() : nullptr,
      use_cont() ? cont_row_[ply]->data() : nullptr, capture_row(ply));
  std::size_t root_index = pv_index_;
  bool quiet = false;
  constexpr bool kGameLateMoveLimit = requires { Traits::late_move_limit(state_, depth); };
  int late_limit = 0;
  if constexpr (kGameLateMoveLimit) late_limit = Traits::late_move_limit(state_, depth);
  for (;;) {
    Move m;
    if constexpr (kRoot) {
      if (root_index >= root_moves_.size()) break;
      m = root_moves_[root_index++].move;
      quiet = is_quiet(m);
    } else {
      m = picker.next(quiet);
      if (!m) break;
      if (m == excluded) continue;
    }
    ++move_count;
    // Late move pruning: at shallow non-PV nodes, once a move avoids mate, late quiet moves
    // that do not give check are not searched at all. A game that tells a checking move
    // before playing it (Traits::gives_check) prunes without make / unmake.
    constexpr bool kCheckBeforeMake = requires { Traits::gives_check(state_, m); };
    bool gives_check = false;
    const auto prune_late = [&] {
      if constexpr (kGameLateMoveLimit) {
        // The game's own move-count limit, at every depth and (below the root's children)
        // at PV nodes too: its move ordering is good enough to trust.
        return !kRoot && (!kPv || ply >= 2) && options_.late_move_pruning && quiet && !in_check &&
               !gives_check && best > -kMateBound && move_count > late_limit;
      } else {
        const int limit = !use_improving || improving ? 3 + depth * depth : 2 + depth * depth / 2;
        return !kPv && options_.late_move_pruning && quiet && !in_check && !gives_check &&
               depth <= 3 && best > -kMateBound && move_count > limit;
      }
    };
    // Futility and SEE pruning, decided before the move is made (SEE needs the position
    // before it); a move that gives check is still searched.
    bool prune_unless_check = false;
    int lmr_depth = 0;  // set where pruning applies: not in check, a move avoiding mate found
    if constexpr (!kRoot) {
      if (!in_check && best > -kMateBound) {
        lmr_depth =
            std::max(0, depth - 1 - reductions_[std::min(depth, 63)][std::min(move_count, 63)]);
        if constexpr (requires { Traits::kFutilityBase; }) {
          if (options_.futility && quiet && lmr_depth <= Traits::kFutilityDepth &&
              static_eval_[ply] + Traits::kFutilityBase + Traits::kFutilityPerPly * lmr_depth <=
                  alpha)
            prune_unless_check = true;
        }
        if constexpr (requires { Traits::kSeePruneQuiet; }) {
          if (options_.see_pruning) {
            if (quiet) {
              if (!prune_unless_check && lmr_depth <= Traits::kSeePruneDepth &&
                  !Traits::see_ge(state_, m, -Traits::kSeePruneQuiet * lmr_depth * lmr_depth))
                prune_unless_check = true;
            } else if (depth <= Traits::kSeePruneDepth &&
                       !Traits::see_ge(state_, m, -Traits::kSeePruneCapture * depth)) {
              prune_unless_check = true;  // a checking sacrifice may be a mating attack
            }
          }
        }
      }
    }
    // Singular extension: the TT move, searched from the table at nearly this depth, is
    // extended when every other move fails well below its score; when even the others beat
    // beta, the node is cut (multi-cut).
    int singular_extension = 0;
    if constexpr (!kRoot && requires { Traits::kSingularMinDepth; }) {
      if (options_.singular && m == tt_move && !excluded && depth >= Traits::kSingularMinDepth &&
          tt_hit && tte.depth >= depth - 3 && tte.bound != Bound::kUpper && tt_score != kNoScore &&
          !is_mate(tt_score) && ply < 2 * root_depth_) {
        const Score s_beta = tt_score - 2 * depth;
        excluded_[ply] = m;
        const Score v = search<Node::kNonPv>((depth - 1) / 2, s_beta - 1, s_beta, ply, cut_node);
        excluded_[ply] = Move::none();
        if (aborted_) return 0;
        if (v < s_beta)
          singular_extension = 1;
        else if (s_beta >= beta)
          return s_beta;
        else if (tt_score >= beta)
          singular_extension = -1;  // not singular, and expected to cut anyway: search less
      }
    }
    const int cont_stat = quiet && use_cont() ? quiet_stat(m, ply) : 0;  // for LMR, pre-move
    // History pruning: a shallow quiet move whose butterfly and continuation histories sum
    // far below zero has kept failing here; it is skipped unless it gives check.
    if constexpr (!kRoot && requires { Traits::kHistoryPruneScale; }) {
      if (options_.history_pruning && quiet && !in_check && best > -kMateBound && use_cont() &&
          lmr_depth <= Traits::kHistoryPruneDepth &&
          cont_stat < -Traits::kHistoryPruneScale * depth)
        prune_unless_check = true;
    }
    const bool pre_pruned = prune_unless_check;
    if constexpr (kCheckBeforeMake) {
      gives_check = Traits::gives_check(state_, m);
      if (pre_pruned && !gives_check) continue;
      if (prune_late()) continue;
      // A game that can tell the child's key cheaply overlaps the table's cache miss with
      // make(), which for gomoku is the costly part of a node.
      if constexpr (requires { Traits::hash_after(state_, m); })
        tt_.prefetch(Traits::hash_after(state_, m));
      set_cont_row(ply, m);
      make(m, undo);
    } else {
      set_cont_row(ply, m);  // before make (piece_to reads the move's piece); a pruned
                             // move's row is overwritten by the next move's
      make(m, undo);
      if constexpr (HasNullMove<G>) gives_check = state_.in_check();
      if ((pre_pruned && !gives_check) || prune_late()) {
        unmake(m, undo);
        continue;
      }
    }
    const std::uint64_t nodes_before = kRoot ? nodes() : 0;
    const int extension =
        singular_extension
            ? singular_extension
            : (options_.check_extension && gives_check && ply < 2 * root_depth_ ? 1 : 0);
    const int new_depth = depth - 1 + extension;
    Score score;
    if (move_count == 1) {
      score = -search < kPv
                  ? Node::kPv
                  : Node::kNonPv > (new_depth, -beta, -alpha, ply + 1, kPv ? false : !cut_node);
    } else {
      int r = 0;
      if (options_.lmr && depth >= options_.lmr_min_depth &&
          move_count > options_.lmr_min_moves + (kRoot ? 1 : 0) && quiet && !gives_check &&
          !in_check) {
        r = reductions_[std::min(depth, 63)][std::min(move_count, 63)];
        if (kPv) --r;
        if (cut_node) ++r;
        if (use_improving && !improving) ++r;
        if (killers_.is_killer(ply, m)) --r;
        if (use_cont())
          r -= cont_stat / 12288;
        else if (options_.history)
          r -= history_.get(mover_at(ply), Traits::history_index(m)) / 8192;
        r = std::clamp(r, 0, new_depth - 1);
      }
      if (r > 0) {
        ++stats_.lmr_reductions;
        score = -search<Node::kNonPv>(new_depth - r, -alpha - 1, -alpha, ply + 1, true);
        if (score > alpha) {
          ++stats_.lmr_researches;
          score = options_.pvs
                      ? -search<Node::kNonPv>(new_depth, -alpha - 1, -alpha, ply + 1, !cut_node)
                  : -search < kPv ? Node::kPv
                                  : Node::kNonPv > (new_depth, -beta, -alpha, ply + 1, false);
        }
      } else if (options_.pvs) {
        score = -search<Node::kNonPv>(new_depth, -alpha - 1, -alpha, ply + 1, !cut_node);
      } else {
        score = -search < kPv
                    ? Node::kPv
                    : Node::kNonPv > (new_depth, -beta, -alpha, ply + 1, kPv ? false : !cut_node);
      }
      // PVS: a null-window fail high inside the window is re-searched with the full window.
      if (kPv && options_.pvs && score > alpha && (kRoot || score < beta))
        score = -search<Node::kPv>(new_depth, -beta, -alpha, ply + 1, false);
    }
    unmake(m, undo);
    if (aborted_) return 0;

    if constexpr (kRoot) {
      RootMove& rm = root_moves_[root_index - 1];
      rm.nodes += nodes() - nodes_before;
      if (score > alpha && pv_index_ == 0) iteration_best_ = m;
      if (move_count == 1 || score > alpha) {
        rm.score = score;
        rm.seldepth = seldepth_;
        rm.pv.clear();
        rm.pv.push_back(m);
        for (int i = ply + 1; i < pv_length_[ply + 1]; ++i) rm.pv.push_back(pv_[ply + 1][i]);
      } else {
        rm.score = -kInfinite;  // not a PV move this iteration: keep the previous order
      }
    }

    if (score > best) {
      best = score;
      if (score > alpha) {
        best_move = m;
        if constexpr (kPv && !kRoot) {
          pv_[ply][ply] = m;
          for (int i = ply + 1; i < pv_length_[ply + 1]; ++i) pv_[ply][i] = pv_[ply + 1][i];
          pv_length_[ply] = std::max(pv_length_[ply + 1], ply + 1);
        }
        if (score >= beta) {
          ++stats_.cutoffs;
          if (move_count == 1) ++stats_.first_move_cutoffs;
          if (quiet) update_quiet_stats(m, depth, ply, quiets_tried);
          update_capture_stats(quiet ? Move::none() : m, depth, ply, captures_tried);
          break;
        }
        alpha = score;
      }
    }
    if (m != best_move) {
      if (quiet && !quiets_tried.full())
        quiets_tried.push_back(m);
      else if (!quiet && capture_row(ply) && !captures_tried.full())
        captures_tried.push_back(m);  // only where capture history learns from them
    }
  }

  if (move_count == 0) return excluded ? alpha : terminal_score(ply);
  if (excluded) return best;  // the node's own entry stays as it was

  const Bound bound = best >= beta             ? Bound::kLower
                      : kPv && best > alpha_in ? Bound::kExact
                                               : Bound::kUpper;
  if constexpr (!kRoot) {
    tt_.store(key, best_move, score_to_tt(best, ply), raw_eval, depth, bound);
  } else {
    if (pv_index_ == 0 && best_move)
      tt_.store(key, best_move, score_to_tt(best, ply), raw_eval, depth,
                best >= beta ? Bound::kLower : Bound::kExact);
  }
  // Correction history learns from a quiet (or no) best move where the search's bound says
  // which way the static evaluation erred.
  if constexpr (kHasCorrection) {
    if (options_.correction_history && !in_check && (!best_move || is_quiet(best_move)) &&
        !is_mate(best) && !(bound == Bound::kLower && best <= static_eval_[ply]) &&
        !(bound == Bound::kUpper && best >= static_eval_[ply]))
      correction_.update(mover_at(ply), Traits::correction_key(state_), best - raw_eval, depth);
  }
  return best;
}

template <class G, class E>
requires AlphaBetaSetup<G, E>
void AlphaBeta<G, E>::sort_root(std::size_t from) {
  std::stable_sort(root_moves_.begin() + static_cast<std::ptrdiff_t>(from), root_moves_.end(),
                   [](const RootMove& a, const RootMove& b) {
                     return a.score != b.score ? a.score > b.score : a.previous > b.previous;
                   });
}

template <class G, class E>
requires AlphaBetaSetup<G, E>
void AlphaBeta<G, E>::report(int depth, const TimeBudget& budget, int pv_index, Bound bound) const {
  if (!info_ || !*info_) return;
  const std::uint64_t nodes = peers_.empty() ? this->nodes() : total_nodes();
  const int hashfull = tt_.hashfull();
  const auto lines =
      std::min<std::size_t>(static_cast<std::size_t>(options_.multipv), root_moves_.size());
  for (std::size_t i = 0; i < lines; ++i) {
    if (pv_index >= 0 && static_cast<int>(i) != pv_index) continue;
    const RootMove& rm = root_moves_[i];
    // Lines not yet searched at this depth report the previous iteration.
    const bool updated = static_cast<int>(i) <= pv_index || pv_index < 0;
    PvInfo<Move> line;
    line.depth = updated ? depth : std::max(1, depth - 1);
    // The deepest ply reached, never reported below the nominal depth: mate-distance pruning
    // and table cut-offs can end every line early (a mate in one at depth 6 reached ply 1).
    line.seldepth = std::max(rm.seldepth, line.depth);
    line.multipv = static_cast<int>(i) + 1;
    line.score = rm.score == -kInfinite ? rm.previous : rm.score;
    line.bound = bound;
    line.nodes = nodes;
    line.time_ms = budget.elapsed_ms();
    line.hashfull = hashfull;
    line.pv = std::span<const Move>(rm.pv.data(), rm.pv.size());
    (*info_)(line);
  }
}

template <class G, class E>
requires AlphaBetaSetup<G, E> SearchResult<typename G::Move> AlphaBeta<G, E>::run(
    const G& root, const SearchLimits& limits, TimeBudget& budget,
    std::span<const Move> searchmoves, const InfoCallback<Move>* info) {
  state_ = root;
  eval_.reset(state_);
  root_player_ = root.current_player() & 1;
  budget_ = &budget;
  limits_ = &limits;
  info_ = thread_id_ == 0 ? info : nullptr;
  aborted_ = false;
  depth_one_done_ = false;
  nodes_.store(0, std::memory_order_relaxed);
  stats_ = {};
  null_disabled_from_ply_ = 0;
  null_move_at_.fill(false);
  killers_.clear();
  history_.age();
  cont_history_.age();
  capture_history_.age();
  cont_row_.fill(cont_history_.none());
  excluded_.fill(Move::none());

  SearchResult<Move> result;
  MoveList<G> legal;
  root.legal_moves(legal);
  root_moves_.clear();
  for (Move m : legal)
    if (searchmoves.empty() ||
        std::find(searchmoves.begin(), searchmoves.end(), m) != searchmoves.end()) {
      RootMove rm;
      rm.move = m;
      rm.pv.push_back(m);
      root_moves_.push_back(rm);
    }
  if (root_moves_.empty()) {
    result.score = legal.empty() ? terminal_score(0) : 0;
    return result;
  }
  // Start from the TT move if there is one (a previous search or the other PV lines).
  TTData tte;
  if (tt_.probe(state_.hash(), tte)) {
    const Move m = tte.move_as<Move>();
    auto it = std::find_if(root_moves_.begin(), root_moves_.end(),
                           [&](const RootMove& rm) { return rm.move == m; });
    if (it != root_moves_.end()) std::rotate(root_moves_.begin(), it, it + 1);
  }
  result.best = root_moves_[0].move;

  // A root move's line becomes the answer (its move, expected reply, score and PV).
  const auto answer_with = [&result](const RootMove& rm) {
    result.best = rm.move;
    result.ponder = rm.pv.size() > 1 ? rm.pv[1] : Move::none();
    result.score = rm.score;
    result.pv.assign(rm.pv.begin(), rm.pv.end());
  };
  const int max_depth =
      limits.depth > 0 ? std::min(limits.depth, kMaxSearchPly - 1) : kMaxSearchPly - 1;
  const std::size_t multipv =
      std::min<std::size_t>(std::max(1, options_.multipv), root_moves_.size());
  Move last_best = Move::none();
  int stable_iterations = 0;
  for (int depth = 1 + (thread_id_ > 0 ? thread_id_ & 1 : 0); depth <= max_depth; ++depth) {
    root_depth_ = depth;
    iteration_best_ = Move::none();
    for (RootMove& rm : root_moves_) rm.previous = rm.score;
    for (pv_index_ = 0; pv_index_ < multipv && !aborted_; ++pv_index_) {
      seldepth_ = 0;
      Score alpha = -kInfinite, beta = kInfinite;
      const Score previous = root_moves_[pv_index_].previous;
      Score delta = options_.aspiration_delta;
      if (options_.aspiration && depth >= options_.aspiration_min_depth && previous != -kInfinite &&
          !is_mate(previous)) {
        alpha = std::max(previous - delta, -kInfinite);
        beta = std::min(previous + delta, kInfinite);
      }
      for (;;) {
        const Score score = search<Node::kRoot>(depth, alpha, beta, 0, false);
        sort_root(pv_index_);
        if (aborted_) break;
        if (score <= alpha) {
          if (budget.elapsed_ms() > 3000) report(depth, budget, int(pv_index_), Bound::kUpper);
          beta = (alpha + beta) / 2;
          alpha = std::max(score - delta, -kInfinite);
        } else if (score >= beta) {
          if (budget.elapsed_ms() > 3000) report(depth, budget, int(pv_index_), Bound::kLower);
          beta = std::min(score + delta, kInfinite);
        } else {
          break;
        }
        delta += delta;
        if (delta > 1000) alpha = -kInfinite, beta = kInfinite;  // the seed's safety valve
      }
      // Lines above this one keep their order; this one is final for the iteration.
      std::stable_sort(root_moves_.begin(),
                       root_moves_.begin() + static_cast<std::ptrdiff_t>(pv_index_ + 1),
                       [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
    }
    if (aborted_) {
      // An unfinished iteration still counts where a root move raised alpha in it: searched
      // in full at the new depth, it is no worse than the previous iteration's best (the
      // first move searched), and it is what the deeper search saw.
      if (iteration_best_ && depth_one_done_) {
        const auto it =
            std::find_if(root_moves_.begin(), root_moves_.end(),
                         [&](const RootMove& rm) { return rm.move == iteration_best_; });
        if (it != root_moves_.end()) answer_with(*it);
      }
      break;
    }
    depth_one_done_ = true;

    // A completed iteration: it becomes the answer.
    const RootMove& best = root_moves_[0];
    answer_with(best);
    result.depth = depth;
    result.seldepth = std::max(best.seldepth, depth);
    result.nodes_per_depth.push_back(nodes());
    report(depth, budget, -1, Bound::kExact);

    if (thread_id_ != 0) {
      if (budget.stopped()) break;
      continue;
    }
    stable_iterations = best.move == last_best ? stable_iterations + 1 : 0;
    last_best = best.move;
    if (limits.mate > 0 && best.score >= kMateBound && mate_moves(best.score) <= limits.mate) break;
    if (limits.nodes && total_nodes() >= limits.nodes) break;
    // Soft time: stop earlier when the best move is stable, later while it keeps changing
    // (a fixed move time, soft == hard, is used in full).
    if (!budget.is_unlimited() && budget.soft_ms() < budget.hard_ms()) {
      double scale = stable_iterations >= 4 ? 0.5 : stable_iterations == 0 ? 1.4 : 1.0;
      // Node share: a best move that took nearly all the effort is clear, one that took
      // little of it is contested; the soft target shrinks with it (never past the target:
      // an iteration started late may run to the hard limit).
      if constexpr (requires { Traits::kNodeShareTime; }) {
        if (options_.node_time && depth >= 6 && nodes() > 0) {
          const double share = static_cast<double>(best.nodes) / static_cast<double>(nodes());
          scale *= std::max(0.5, 2.0 * (1.0 - share) + 0.4);
        }
      }
      if (budget.elapsed_ms() >= static_cast<double>(budget.soft_ms()) * scale) break;
    }
    if (budget.soft_expired()) break;
  }
  result.nodes = nodes();
  result.stats = stats_;
  result.stats.nodes = nodes();
  result.time_ms = budget.elapsed_ms();
  result.exceeded = budget.exceeded();
  return result;
}

// ---------------------------------------------------------------------------------------------

template <class G, class E>
requires AlphaBetaSetup<G, E> ParallelSearch<G, E>::ParallelSearch(TranspositionTable& tt,
                                                                   const SearchOptions& options,
                                                                   const E& eval)
    : tt_(tt), eval_(eval) {
  set_options(options);
}

template <class G, class E>
requires AlphaBetaSetup<G, E>
void ParallelSearch<G, E>::set_options(const SearchOptions& options) {
  options_ = options;
  const auto threads = static_cast<std::size_t>(std::clamp(options.threads, 1, 1024));
  owned_.resize(std::min(owned_.size(), threads));
  while (owned_.size() < threads)
    owned_.push_back(
        std::make_unique<AlphaBeta<G, E>>(tt_, options_, static_cast<int>(owned_.size()), eval_));
  workers_.clear();
  for (auto& w : owned_) workers_.push_back(w.get());
  for (auto* w : workers_) {
    w->set_options(options_);
    w->set_peers(threads > 1 ? std::span<AlphaBeta<G, E>* const>(workers_)
                             : std::span<AlphaBeta<G, E>* const>());
  }
}

template <class G, class E>
requires AlphaBetaSetup<G, E>
void ParallelSearch<G, E>::set_evaluator(const E& eval) {
  eval_ = eval;
  owned_.clear();
  set_options(options_);
}

template <class G, class E>
requires AlphaBetaSetup<G, E>
void ParallelSearch<G, E>::clear() {
  for (auto* w : workers_) w->clear();
}

template <class G, class E>
requires AlphaBetaSetup<G, E> SearchResult<typename G::Move> ParallelSearch<G, E>::run(
    const G& root, const SearchLimits& limits, TimeBudget& budget,
    std::span<const Move> searchmoves, const InfoCallback<Move>* info) {
  tt_.new_search();
  std::vector<std::thread> helpers;
  for (std::size_t i = 1; i < workers_.size(); ++i)
    helpers.emplace_back([&, i] { workers_[i]->run(root, limits, budget, searchmoves); });
  SearchResult<Move> result = workers_[0]->run(root, limits, budget, searchmoves, info);
  // The main thread decided: stop the helpers (without marking the clock as exceeded).
  budget.request_stop();
  for (auto& t : helpers) t.join();
  for (std::size_t i = 1; i < workers_.size(); ++i) {
    SearchStats helper = workers_[i]->stats();
    helper.nodes = workers_[i]->nodes();
    result.stats.add(helper);
    result.nodes += helper.nodes;
  }
  return result;
}

}  // namespace kibitz::search
