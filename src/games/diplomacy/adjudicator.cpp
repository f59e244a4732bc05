#include "games/diplomacy/adjudicator.hpp"

#include "games/diplomacy/phases.hpp"

namespace kibitz::diplomacy {

namespace {

bool is_move(const Order& o) { return o.type == OrderType::kMove; }

}  // namespace

bool Adjudicator::head_to_head(int i) const {
  if (!is_move(order_[i]) || convoyed_[i]) return false;
  const int j = opponent(i);
  return j >= 0 && is_move(order_[j]) && !convoyed_[j] && dst_[j] == src_[i];
}

// A chain of fleets whose convoy orders match move i and succeed (fleets not dislodged),
// from the army's coast to its destination.
bool Adjudicator::path(int i) {
  if (no_convoy_[i]) return false;
  const ProvinceId from = src_[i], to = dst_[i];
  const int np = map_.num_provinces();
  const auto matching = [&](int q) {
    const int c = order_at_[q];
    return c >= 0 && order_[c].type == OrderType::kConvoy && aux_[c] == from && dst_[c] == to;
  };
  std::array<ProvinceId, kMaxProvinces> stack;
  int top = 0;
  ProvinceSet seen;
  for (int q = 0; q < np; ++q)
    if (map_.is_sea(static_cast<ProvinceId>(q)) &&
        map_.fleet_reaches(static_cast<LocationId>(q), from) && matching(q)) {
      seen.set(q);
      if (resolve(order_at_[q])) stack[top++] = static_cast<ProvinceId>(q);
    }
  while (top > 0) {
    const ProvinceId q = stack[--top];
    if (map_.fleet_reaches(q, to)) return true;
    const ProvinceSet& reach = map_.fleet_reach(q);
    for (int r = 0; r < np; ++r)
      if (reach.test(r) && !seen.test(r) && map_.is_sea(static_cast<ProvinceId>(r)) &&
          matching(r)) {
        seen.set(r);
        if (resolve(order_at_[r])) stack[top++] = static_cast<ProvinceId>(r);
      }
  }
  return false;
}

int Adjudicator::support_count(int i, PowerId exclude) {
  int n = 0;
  for (int s = sup_head_[i]; s >= 0; s = sup_next_[s])
    if (power_[s] != exclude && resolve(s)) ++n;
  return n;
}

int Adjudicator::attack_strength(int i) {
  if (convoyed_[i] && !path(i)) return 0;
  const int j = opponent(i);
  if (j < 0 || (is_move(order_[j]) && !head_to_head(i) && resolve(j)))
    return 1 + support_count(i, kNoPower);
  if (power_[j] == power_[i]) return 0;  // no self-dislodgement
  return 1 + support_count(i, power_[j]);
}

int Adjudicator::prevent_strength(int i) {
  if (convoyed_[i] && !path(i)) return 0;
  if (head_to_head(i) && resolve(opponent(i))) return 0;
  return 1 + support_count(i, kNoPower);
}

int Adjudicator::hold_strength(ProvinceId p) {
  const int j = order_at_[p];
  if (j < 0) return 0;
  if (is_move(order_[j])) return resolve(j) ? 0 : 1;
  return 1 + support_count(j, kNoPower);
}

bool Adjudicator::dislodged(ProvinceId p) {
  for (int k = move_head_[p]; k >= 0; k = move_next_[k])
    if (resolve(k)) return true;
  return false;
}

bool Adjudicator::adjudicate(int i) {
  const Order& o = order_[i];
  switch (o.type) {
    case OrderType::kMove: {
      if (convoyed_[i] && !path(i)) return false;
      const int attack = attack_strength(i);
      if (head_to_head(i)) {
        if (attack <= defend_strength(opponent(i))) return false;
      } else if (attack <= hold_strength(dst_[i])) {
        return false;
      }
      for (int k = move_head_[dst_[i]]; k >= 0; k = move_next_[k])
        if (k != i && attack <= prevent_strength(k)) return false;
      return true;
    }
    case OrderType::kSupport: {
      // Void supports were never linked and are failed before resolution starts.
      const ProvinceId target = dst_[i];  // supported move's destination, or the held province
      for (int k = move_head_[src_[i]]; k >= 0; k = move_next_[k]) {
        if (power_[k] == power_[i]) continue;  // a power does not cut its own support
        if (src_[k] == target && o.target != kNoLocation) continue;
        if (convoyed_[k] && !path(k)) continue;
        return false;  // cut
      }
      return !dislodged(src_[i]);
    }
    default:  // hold, convoy: succeeds when the unit is not dislodged
      return !dislodged(src_[i]);
  }
}

bool Adjudicator::backup_rule(int old_count) {
  bool convoy = false, progress = false;
  for (int d = old_count; d < dep_count_; ++d) {
    const int c = deps_[d];
    if (order_[c].type != OrderType::kConvoy) continue;
    const int a = order_at_[aux_[c]];
    if (a >= 0 && convoyed_[a] && dst_[a] == dst_[c] && !no_convoy_[a]) {
      no_convoy_[a] = true;  // Szykman: the convoyed army holds
      convoy = progress = true;
    }
  }
  for (int d = old_count; d < dep_count_; ++d) {
    const int k = deps_[d];
    if (!convoy && is_move(order_[k])) {
      result_[k] = true;  // circular movement
      status_[k] = Status::kResolved;
      progress = true;
    } else {
      status_[k] = Status::kUnresolved;
    }
  }
  dep_count_ = old_count;
  return progress;
}

void Adjudicator::add_dependency(int i, int from) {
  for (int d = from; d < dep_count_; ++d)
    if (deps_[d] == i) return;
  deps_[dep_count_++] = i;
}

bool Adjudicator::resolve(int i) {
  if (status_[i] == Status::kResolved) return result_[i];
  if (status_[i] == Status::kGuessing) {
    add_dependency(i, 0);
    return result_[i];
  }
  const int old_count = dep_count_;
  result_[i] = false;
  status_[i] = Status::kGuessing;
  const bool first = adjudicate(i);
  if (dep_count_ == old_count) {
    if (status_[i] != Status::kResolved) {
      result_[i] = first;
      status_[i] = Status::kResolved;
    }
    return result_[i];
  }
  if (deps_[old_count] != i) {
    // Depends on the guess of another order further up: stay a guess, listed.
    add_dependency(i, old_count);
    result_[i] = first;
    return first;
  }
  // i's own guess came back to it: try the other guess.
  for (int d = old_count; d < dep_count_; ++d) status_[deps_[d]] = Status::kUnresolved;
  dep_count_ = old_count;
  result_[i] = true;
  status_[i] = Status::kGuessing;
  const bool second = adjudicate(i);
  if (first == second) {
    for (int d = old_count; d < dep_count_; ++d) status_[deps_[d]] = Status::kUnresolved;
    dep_count_ = old_count;
    result_[i] = first;
    status_[i] = Status::kResolved;
    return first;
  }
  // Both guesses consistent, or neither: the backup rule decides, then resolve again.
  // The cycle's members are the dependencies of the second try; i itself is among them.
  add_dependency(i, old_count);
  if (!backup_rule(old_count) && status_[i] != Status::kResolved) {
    // Nothing left for the backup rule to change (cannot happen on the standard rules'
    // paradoxes; a guard against looping): the order fails.
    result_[i] = false;
    status_[i] = Status::kResolved;
  }
  return resolve(i);
}

void Adjudicator::resolve_movement(const State& s, std::span<const Order> orders,
                                   MovementResult& out) {
  const Map& m = map_;
  const int np = m.num_provinces();
  n_ = 0;
  dep_count_ = 0;
  order_at_.fill(-1);
  out.num_orders = 0;

  // Unit orders: the first order for each unit; other orders fail.
  int given_index = 0;
  const auto valid = [&](LocationId l) { return l < m.num_locations(); };
  for (const Order& given : orders) {
    if (out.num_orders >= static_cast<int>(kMaxProvinces)) break;  // more orders than units
    const int slot = out.num_orders++;
    out.orders[slot] = given;
    out.succeeded[slot] = false;
    const int gi = given_index++;
    if (!valid(given.location)) continue;
    const ProvinceId p = m.province_of(given.location);
    if (!s.units[p].exists() || order_at_[p] >= 0) continue;
    Order o = given;
    // Defensive: what effective_order never returns is resolved as a hold (a move nowhere or
    // into its own province, a support or convoy naming no unit, a non-movement order).
    const bool bad =
        (o.type == OrderType::kMove && (!valid(o.target) || m.province_of(o.target) == p)) ||
        ((o.type == OrderType::kSupport || o.type == OrderType::kConvoy) && !valid(o.aux)) ||
        (o.type == OrderType::kConvoy && !valid(o.target)) ||
        (o.type != OrderType::kHold && o.type != OrderType::kMove &&
         o.type != OrderType::kSupport && o.type != OrderType::kConvoy);
    if (bad) {
      o = Order{};
      o.type = OrderType::kHold;
      o.unit = s.units[p].type;
      o.location = s.units[p].location;
    }
    const int i = n_++;
    order_at_[p] = i;
    order_[i] = o;
    given_[i] = gi;
  }
  for (int p = 0; p < np; ++p) {
    if (!s.units[p].exists() || order_at_[p] >= 0) continue;
    Order hold;
    hold.type = OrderType::kHold;
    hold.unit = s.units[p].type;
    hold.location = s.units[p].location;
    hold.power = s.units[p].power;
    const int slot = out.num_orders++;
    out.orders[slot] = hold;
    out.succeeded[slot] = false;
    const int i = n_++;
    order_at_[p] = i;
    order_[i] = hold;
    given_[i] = slot;
  }

  move_head_.fill(-1);
  for (int i = 0; i < n_; ++i) {
    const Order& o = order_[i];
    src_[i] = m.province_of(o.location);
    power_[i] = s.units[src_[i]].power;
    aux_[i] = o.aux < m.num_locations() ? m.province_of(o.aux) : kNoProvince;
    dst_[i] = o.target < m.num_locations() ? m.province_of(o.target) : aux_[i];
    convoyed_[i] = false;
    no_convoy_[i] = false;
    status_[i] = Status::kUnresolved;
    result_[i] = false;
    sup_head_[i] = -1;
    sup_next_[i] = -1;
    move_next_[i] = -1;
    if (o.type == OrderType::kMove) {
      move_next_[i] = move_head_[dst_[i]];
      move_head_[dst_[i]] = i;
    }
  }
  // Which army moves go by convoy: VIA, not adjacent, or (2023 rules) a fleet of the army's
  // own power ordered to convoy it that lies on a minimal route of the fleets at sea.
  for (int i = 0; i < n_; ++i) {
    const Order& o = order_[i];
    if (o.type != OrderType::kMove || s.units[src_[i]].type != UnitType::kArmy) continue;
    if (o.via_convoy || !m.army_adjacent(src_[i], dst_[i])) {
      convoyed_[i] = true;
      continue;
    }
    for (int c = 0; c < n_ && !convoyed_[i]; ++c) {
      if (order_[c].type != OrderType::kConvoy || power_[c] != power_[i] || aux_[c] != src_[i] ||
          dst_[c] != dst_[i] || !m.is_sea(src_[c]))
        continue;
      if (convoy_order_possible(m, s, src_[c], src_[i], dst_[i])) convoyed_[i] = true;
    }
  }
  // Supports that match what the supported unit was ordered to do; the others are void.
  for (int i = 0; i < n_; ++i) {
    const Order& o = order_[i];
    if (o.type != OrderType::kSupport) continue;
    const int j = aux_[i] != kNoProvince ? order_at_[aux_[i]] : -1;
    bool matches = false;
    if (j >= 0) {
      if (o.target == kNoLocation) {
        matches = !is_move(order_[j]);
        dst_[i] = aux_[i];
      } else {
        // A coast named in the support must be the move's (DATC 6.B.9).
        matches = is_move(order_[j]) && dst_[j] == dst_[i] &&
                  (m.coast_of(o.target) == Coast::kNone || o.target == order_[j].target);
      }
    }
    if (matches) {
      sup_next_[i] = sup_head_[j];
      sup_head_[j] = i;
    } else {
      result_[i] = false;
      status_[i] = Status::kResolved;
    }
  }

  for (int i = 0; i < n_; ++i) resolve(i);

  // Outcome.
  out.dislodged.reset();
  out.standoff.reset();
  out.attacker_from.fill(kNoProvince);
  State& next = out.next;
  next = s;
  for (int p = 0; p < np; ++p) {
    next.dislodged[p] = Unit{};
    next.attacker_from[p] = kNoProvince;
  }
  next.contested.reset();
  for (int i = 0; i < n_; ++i) {
    out.succeeded[given_[i]] = result_[i];
    if (is_move(order_[i]) && result_[i]) {
      const ProvinceId t = dst_[i];
      const int j = order_at_[t];
      if (j >= 0 && !(is_move(order_[j]) && result_[j])) {
        out.dislodged.set(t);
        // A unit dislodged by a convoyed army may retreat to where the army came from (DATC
        // 4.A.5, 6.H.11): there is no province it is barred from.
        out.attacker_from[t] = convoyed_[i] ? kNoProvince : src_[i];
      }
    }
  }
  for (int i = 0; i < n_; ++i)
    if (order_[i].type == OrderType::kHold || order_[i].type == OrderType::kConvoy)
      out.succeeded[given_[i]] = !out.dislodged.test(src_[i]);
  // Move the units: first lift every mover and dislodged unit, then place the movers.
  for (int p = 0; p < np; ++p)
    if (out.dislodged.test(p)) next.dislodge(static_cast<ProvinceId>(p), out.attacker_from[p]);
  for (int i = 0; i < n_; ++i)
    if (is_move(order_[i]) && result_[i]) next.units[src_[i]] = Unit{};
  for (int i = 0; i < n_; ++i)
    if (is_move(order_[i]) && result_[i]) {
      Unit u = s.units[src_[i]];
      u.location = order_[i].target;
      next.units[dst_[i]] = u;
    }
  // Standoffs: some move into the province (not a convoyed army without a route, nor the loser
  // of a head-to-head battle), none succeeded, and it is empty now.
  for (int i = 0; i < n_; ++i) {
    if (!is_move(order_[i])) continue;
    const ProvinceId t = dst_[i];
    if (next.units[t].exists() || result_[i]) continue;
    if (convoyed_[i] && !path(i)) continue;                 // never arrived
    if (head_to_head(i) && result_[opponent(i)]) continue;  // lost a head-to-head battle
    out.standoff.set(t);
  }

  // Phase: a retreat phase when someone was dislodged; otherwise spring goes to fall, and the
  // fall ends with the ownership update (phases.hpp).
  if (out.dislodged.any()) {
    next.contested = out.standoff;
    next.phase.type = PhaseType::kRetreat;
  } else if (s.phase.season == Season::kSpring) {
    next.phase.season = Season::kFall;
  } else {
    finish_fall(m, next);
  }
}

void resolve_movement(const Map& map, const State& s, std::span<const Order> orders,
                      MovementResult& out) {
  Adjudicator adj(map);
  adj.resolve_movement(s, orders, out);
}

}  // namespace kibitz::diplomacy
