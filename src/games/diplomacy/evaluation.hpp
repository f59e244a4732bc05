#pragma once
// Position evaluation for the Diplomacy search: what a state is worth to one power, in supply
// centres. The heuristic counts what the power holds and what it can take or lose next phase;
// a value network can be blended in through a hook (rm_evaluate_blended). cooperation_penalty
// charges order sets that spend our units on other powers' moves: without press nobody
// promised anything back.
#include <functional>
#include <span>

#include "games/diplomacy/bots.hpp"
#include "games/diplomacy/map.hpp"
#include "games/diplomacy/orders.hpp"
#include "games/diplomacy/state.hpp"

namespace kibitz::diplomacy {

struct EvalWeights {
  double centre = 1.0;      // each supply centre owned
  double unit = 0.25;       // each unit (what takes and holds centres next year)
  double reach = 0.3;       // each centre not ours, not held by another power, one of our
                            // units can move into (at most one per unit)
  double threat = 0.35;     // each owned centre another power's unit can move into while no
                            // unit of ours stands on it
  double leader = 0.15;     // per centre the strongest other power has more than we have
  double solo = 40.0;       // owning more than half the centres
  double eliminated = -20;  // no centre and no unit
  // Supports and convoys of other powers' units in our own order set (cooperation_penalty).
  double cooperation = 0.5;
};

// The value network hook: the expected share of the centres `power` ends with, in [0, 1].
using ValueHook = std::function<double(const State&, PowerId)>;

class Evaluator {
 public:
  explicit Evaluator(const Map& map, EvalWeights w = {}) : map_(map), w_(w), gen_(map) {}

  // The heuristic value of `s` to `power`, in centres.
  double heuristic(const State& s, PowerId power);
  // The heuristic, blended with the value network when one is given: (1 - blend) * heuristic
  // + blend * value * centres on the map.
  double blended(const State& s, PowerId power, const ValueHook* value, double blend);
  // weights.cooperation per support or convoy of another power's unit among `orders`.
  double cooperation_penalty(const State& s, PowerId power, std::span<const Order> orders) const;

  const EvalWeights& weights() const { return w_; }

 private:
  const Map& map_;
  EvalWeights w_;
  OrderGenerator gen_;
};

}  // namespace kibitz::diplomacy
