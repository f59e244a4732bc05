#pragma once
// Staged move picking for the generic alpha-beta: the TT move before anything is generated,
// then tactical moves by MVV-LVA (losing ones by SEE deferred), the two killers, quiet moves
// by history, and finally the losing tacticals. Cut nodes usually stop before the quiet moves
// are generated. Games without staged generation get one list ordered TT move, killers,
// history. Selection is a partial selection sort: only as many moves are ordered as are
// searched.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "api/concepts.hpp"
#include "core/fixed_vector.hpp"
#include "search/common/history.hpp"
#include "search/common/limits.hpp"

namespace kibitz::search {

template <class G>
inline constexpr bool kStagedGeneration = requires(const G& s, MoveList<G>& buf) {
  SearchTraits<G>::generate_tactical(s, buf);
  SearchTraits<G>::generate_quiet(s, buf);
};

template <class G, int HistorySize>
class MovePicker {
 public:
  using Move = typename G::Move;
  using Traits = SearchTraits<G>;

  // Main search. `killers` may be none; `tt_move` must be validated here before use.
  // `cont1` / `cont2`: the continuation-history rows of the moves one and two plies back
  // (null: not used), indexed by Traits::piece_to. `captures`: the side to move's capture
  // history (null: not used), indexed by Traits::capture_index.
  MovePicker(const G& s, const SearchOptions& options, Move tt_move, Move killer1, Move killer2,
             const ButterflyHistory<HistorySize>& history, int side,
             const std::int16_t* cont1 = nullptr, const std::int16_t* cont2 = nullptr,
             const std::int32_t* captures = nullptr)
      : s_(s),
        options_(options),
        history_(history),
        side_(side),
        killer1_(killer1),
        killer2_(killer2),
        cont1_(cont1),
        cont2_(cont2),
        captures_(captures) {
    tt_move_ = valid(tt_move) ? tt_move : Move::none();
    stage_ = tt_move_ ? kTT : kGenTactical;
  }
  // Quiescence: the TT move if tactical, then tactical moves only (all moves in check).
  MovePicker(const G& s, const SearchOptions& options, Move tt_move,
             const ButterflyHistory<HistorySize>& history, int side, bool in_check,
             const std::int32_t* captures = nullptr)
      : s_(s),
        options_(options),
        history_(history),
        side_(side),
        killer1_(Move::none()),
        killer2_(Move::none()),
        captures_(captures),
        quiescence_(!in_check) {
    tt_move_ = valid(tt_move) && (in_check || !is_quiet(tt_move)) ? tt_move : Move::none();
    stage_ = tt_move_ ? kTT : kGenTactical;
  }

  // The next move, or none when done. `quiet` tells whether it came from a quiet stage.
  Move next(bool& quiet) {
    for (;;) {
      switch (stage_) {
        case kTT:
          stage_ = kGenTactical;
          quiet = is_quiet(tt_move_);
          return tt_move_;
        case kGenTactical:
          if constexpr (kStagedGeneration<G>) {
            // A game may keep quiescence narrower than its tactical stage (gomoku: fours
            // are tactical for ordering, but a quiescence over every four explodes).
            if constexpr (requires { Traits::generate_quiescence(s_, list_); }) {
              if (quiescence_)
                Traits::generate_quiescence(s_, list_);
              else
                Traits::generate_tactical(s_, list_);
            } else {
              Traits::generate_tactical(s_, list_);
            }
            score_tactical();
            stage_ = kGoodTactical;
          } else {
            if (quiescence_) return Move::none();
            s_.legal_moves(list_);
            score_all();
            stage_ = kQuiet;
          }
          index_ = 0;
          break;
        case kGoodTactical:
          while (index_ < list_.size()) {
            const Move m = pick_best();
            if (m == tt_move_) continue;
            if constexpr (requires { Traits::see_ge(s_, m, 0); }) {
              if (options_.see && !quiescence_ && !Traits::see_ge(s_, m, 0)) {
                bad_.push_back(m);
                continue;
              }
            }
            quiet = false;
            return m;
          }
          if (quiescence_) return Move::none();
          stage_ = kKiller1;
          break;
        case kKiller1:
          stage_ = kKiller2;
          if (killer_ok(killer1_)) {
            quiet = true;
            return killer1_;
          }
          break;
        case kKiller2:
          stage_ = kGenQuiet;
          if (killer2_ != killer1_ && killer_ok(killer2_)) {
            quiet = true;
            return killer2_;
          }
          break;
        case kGenQuiet:
          if constexpr (kStagedGeneration<G>) Traits::generate_quiet(s_, list_);
          score_quiet();
          index_ = 0;
          stage_ = kQuiet;
          break;
        case kQuiet:
          while (index_ < list_.size()) {
            const Move m = pick_best();
            if (m == tt_move_ || (staged_killers() && (m == killer1_ || m == killer2_))) continue;
            quiet = is_quiet(m);
            return m;
          }
          stage_ = kBadTactical;
          index_ = 0;
          break;
        case kBadTactical:
          if (index_ < bad_.size()) {
            quiet = false;
            return bad_[index_++];
          }
          return Move::none();
      }
    }
  }

 private:
  enum Stage : std::uint8_t {
    kTT,
    kGenTactical,
    kGoodTactical,
    kKiller1,
    kKiller2,
    kGenQuiet,
    kQuiet,
    kBadTactical
  };

  static constexpr bool staged_killers() { return kStagedGeneration<G>; }

  bool valid(Move m) const {
    if (!m || !options_.tt_move) return false;
    if constexpr (requires { Traits::is_legal(s_, m); }) {
      return Traits::is_legal(s_, m);
    } else {
      return false;  // without a cheap legality test the TT move is ranked first in its list
    }
  }
  bool is_quiet(Move m) const {
    if constexpr (requires { Traits::is_tactical(s_, m); }) {
      return !Traits::is_tactical(s_, m);
    } else {
      return true;
    }
  }
  bool killer_ok(Move k) const {
    if constexpr (kStagedGeneration<G>) {
      if (!options_.killers || !k || k == tt_move_ || !is_quiet(k)) return false;
      if constexpr (requires { Traits::is_legal(s_, k); }) return Traits::is_legal(s_, k);
    }
    return false;  // unstaged: killers are ranked inside the single list instead
  }

  void score_tactical() {
    for (std::size_t i = 0; i < list_.size(); ++i) {
      int v = 0;
      if constexpr (requires { Traits::mvv_lva(s_, list_[i]); })
        if (options_.mvv_lva) v = Traits::mvv_lva(s_, list_[i]);
      // Capture history reorders captures of about the same MVV-LVA value (one step of
      // victim value, 16, weighs 1024; the history is within +-16384, so +-2048 here).
      if constexpr (requires { Traits::capture_index(s_, list_[i]); }) {
        if (captures_) v = v * 64 + captures_[Traits::capture_index(s_, list_[i])] / 8;
      }
      scores_[i] = v;
    }
  }
  int history_score(Move m) const {
    return options_.history ? history_.get(side_, Traits::history_index(m)) : 0;
  }
  void score_quiet() {
    for (std::size_t i = 0; i < list_.size(); ++i) {
      scores_[i] = history_score(list_[i]);
      // A game's static knowledge of a quiet move (gomoku: the pattern it makes) ranks it
      // before history has learnt anything.
      if constexpr (requires { Traits::quiet_value(s_, list_[i]); })
        scores_[i] += Traits::quiet_value(s_, list_[i]);
      if constexpr (requires { Traits::piece_to(s_, list_[i]); }) {
        if (cont1_) {
          const int pt = Traits::piece_to(s_, list_[i]);
          scores_[i] += cont1_[pt] + cont2_[pt];
        }
      }
    }
  }
  // Unstaged games: one list; the TT move and killers are ranked first here.
  void score_all() {
    for (std::size_t i = 0; i < list_.size(); ++i) {
      const Move m = list_[i];
      if (options_.tt_move && m == raw_tt_move_) {
        scores_[i] = 1 << 30;
      } else if (options_.killers && (m == killer1_ || m == killer2_)) {
        scores_[i] = (1 << 29) - (m == killer1_ ? 0 : 1);
      } else {
        scores_[i] = history_score(m);
      }
    }
  }
  // Moves the best-scored remaining move to index_ and returns it (the first of equal scores).
  // One maximum over score * 2^32 + (2^32 - 1 - i): the same choice as a compare-and-keep
  // scan, but a reduction the compiler vectorises rather than a chain of dependent moves.
  Move pick_best() {
    std::int64_t top = std::numeric_limits<std::int64_t>::min();
    for (std::size_t i = index_; i < list_.size(); ++i)
      top = std::max(top,
                     static_cast<std::int64_t>(
                         (static_cast<std::uint64_t>(static_cast<std::int64_t>(scores_[i])) << 32) |
                         (0xffffffffu - static_cast<std::uint32_t>(i))));
    const std::size_t best = 0xffffffffu - static_cast<std::uint32_t>(top);
    if (best != index_) {
      std::swap(list_[best], list_[index_]);
      std::swap(scores_[best], scores_[index_]);
    }
    return list_[index_++];
  }

  const G& s_;
  const SearchOptions& options_;
  const ButterflyHistory<HistorySize>& history_;
  int side_;
  Move tt_move_ = Move::none();
  Move raw_tt_move_;  // unvalidated; unstaged games rank it first inside the list
  Move killer1_, killer2_;
  const std::int16_t* cont1_ = nullptr;
  const std::int16_t* cont2_ = nullptr;
  const std::int32_t* captures_ = nullptr;
  bool quiescence_ = false;
  Stage stage_ = kGenTactical;
  std::size_t index_ = 0;
  MoveList<G> list_;
  std::array<int, G::kMaxMoves> scores_;
  FixedVector<Move, G::kMaxMoves> bad_;
};

}  // namespace kibitz::search
