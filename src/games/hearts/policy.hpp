#pragma once
// Hand-written Hearts play: the `rule` bot (the baseline, and the search's fallback and
// prior) and the fast biased policy the search's rollouts use. Both look only at what the
// player to move may know — its own hand and the public play — never at other hands, so a
// rollout inside a sampled world does not play "double dummy".
#include <array>

#include "core/rng.hpp"
#include "games/hearts/belief.hpp"
#include "games/hearts/state.hpp"

namespace kibitz::hearts {

// The knobs of the rollout policy (configs/hearts.yaml, "rollout").
struct PolicyKnobs {
  double epsilon = 0.1;         // probability of a uniformly random legal card instead
  bool avoid_queen = true;      // never play Q♠ on a trick we may win unless forced
  bool block_shooter = true;    // moon defence: take a point trick from a seat that has them all
  bool shed_void_suits = true;  // lead suits the opponents are (shown) void in only when safe
};

// Three cards to pass (Q♠ and A♠/K♠ without enough low spades to guard them, high hearts,
// short clubs/diamonds to void a suit, then the highest cards).
CardSet rule_pass(const Observation& o);

// The rule bot's card for the seat of `o` (its turn): duck under the winning card when the
// trick holds points, win cheap tricks when last to play, throw Q♠ / A♠ / K♠ / high hearts
// when void, lead low in the suit where the opponents hold the most higher cards, never lead
// spades holding Q♠ (and flush it with low spades when it is out), moon defence when one
// opponent has taken every point so far. Deterministic.
Card rule_play(const Observation& o);

// The same judgement for the player to move in a full state, from its own hand and the
// public play only, with epsilon-random choices: the rollout policy. No allocation.
Card policy_play(const State& s, Rng& rng, const PolicyKnobs& knobs = {});

// Shooting the moon: the player to move plays to take every point (leads cards nobody can
// beat, hearts first; wins tricks with its highest card, or its cheapest winner when last;
// sheds low non-point cards when void), and plays policy_play once another seat has taken a
// point. The search's rollouts try it for the searching seat beside the normal policy.
Card shoot_play(const State& s, Rng& rng, const PolicyKnobs& knobs = {});
// No seat but `seat` has taken a point this hand (a moon for `seat` is still possible).
bool moon_alive(const State& s, int seat);

// A uniformly random legal card / pass.
Card random_play(const Observation& o, Rng& rng);
CardSet random_pass(const Observation& o, Rng& rng);

// The seat (other than `seat`) that took every point so far when at least `min_points`
// points have been taken, or -1: the moon threat the rule bot and the search defend against.
int moon_threat(const State& s, int seat, int min_points = 10);

}  // namespace kibitz::hearts
