#pragma once
// Hearts hooks for the generic searches over sampled worlds (search/imperfect): the rollout
// policy and the exact pruning of touching cards.
#include "api/concepts.hpp"
#include "games/hearts/policy.hpp"
#include "games/hearts/state.hpp"

namespace kibitz {

template <>
struct SearchTraits<hearts::State> : DefaultSearchTraits<hearts::State> {
  using State = hearts::State;

  static hearts::Card rollout_move(const State& s, Rng& rng) { return hearts::policy_play(s, rng); }

  // Two cards of one suit in the mover's hand are interchangeable when every card ranked
  // between them is gone (played in a finished trick) and they score the same: whatever
  // happens after one is played happens after the other. Keeps the lowest of each run (the
  // moves come lowest first).
  static void prune_equivalent(const State& s, MoveList<State>& moves) {
    const hearts::CardSet gone = s.played() - s.table();
    const bool jd = s.options().jd_bonus;
    std::size_t kept = 0;
    hearts::Card prev = hearts::Card::none();
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const hearts::Card c = moves[i];
      const bool same_run = prev.valid() && prev.suit() == c.suit() &&
                            hearts::card_points(prev, jd) == hearts::card_points(c, jd) &&
                            (hearts::CardSet(((std::uint64_t{1} << c.index()) - 1) &
                                             ~((std::uint64_t{2} << prev.index()) - 1)) -
                             gone)
                                .empty();
      prev = c;
      if (!same_run) moves[kept++] = c;
    }
    moves.resize(kept);
  }
};

}  // namespace kibitz
