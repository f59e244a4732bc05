#pragma once
// Candidate order sets for the RM+ search: for one power in a movement phase, a handful of
// diverse, legal, coordinated order sets (one order per unit) to choose among.
//
// Where they come from, in this order, duplicates dropped:
//   1. the heuristic bot's plan (supply centres valued by distance, supports of moves into
//      contested centres, convoys, holds where a centre is threatened);
//   2. the same planner with its centre values perturbed (noise growing with each try), which
//      keeps the coordination (no self-bounces, supports that match their moves, convoys with
//      their fleets) while changing the targets;
//   3. variations of the plan that change one unit's order to another legal one (a hold or a
//      move into a province no other own unit is heading for), turning the supports of that
//      unit's old move into holds.
// A policy network can replace all of this (generate_candidates_neural).
#include <functional>
#include <vector>

#include "core/rng.hpp"
#include "games/diplomacy/bots.hpp"
#include "games/diplomacy/map.hpp"
#include "games/diplomacy/orders.hpp"
#include "games/diplomacy/state.hpp"

namespace kibitz::diplomacy {

using OrderSet = std::vector<Order>;

// The policy network hook: a score (log-probability-like, higher is better) for one order.
using PolicyHook = std::function<double(const State&, PowerId, const Order&)>;

class CandidateGenerator {
 public:
  explicit CandidateGenerator(const Map& map) : map_(map), planner_(map), gen_(map) {}

  // Up to `count` candidate sets for `power` (none when it has no unit); the first is the
  // heuristic plan. Deterministic given the rng.
  void generate(const State& s, PowerId power, int count, Rng& rng, std::vector<OrderSet>& out);

  // With a policy: for every unit its `per_unit` best-scored legal orders; sets are drawn by
  // sampling each unit's order in proportion to exp(score), keeping the most likely set first
  // and dropping duplicates and sets with two own moves into one province.
  void generate_neural(const State& s, PowerId power, int count, const PolicyHook& policy, Rng& rng,
                       std::vector<OrderSet>& out);

  // The sum of the policy's scores of a set's orders.
  static double policy_score(const State& s, PowerId power, const OrderSet& set,
                             const PolicyHook& policy);

 private:
  bool add_unique(OrderSet set, std::vector<OrderSet>& out) const;
  // One unit's order changed (see above); false when no legal variation was found.
  bool vary(const State& s, PowerId power, const OrderSet& base, Rng& rng, OrderSet& out);

  const Map& map_;
  HeuristicBot planner_;
  OrderGenerator gen_;
  std::vector<Order> buf_;
};

}  // namespace kibitz::diplomacy
