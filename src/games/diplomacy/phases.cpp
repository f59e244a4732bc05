#include "games/diplomacy/phases.hpp"

#include <algorithm>

namespace kibitz::diplomacy {

namespace {

void clear_retreat_fields(State& s) {
  s.dislodged.fill(Unit{});
  s.attacker_from.fill(kNoProvince);
  s.contested.reset();
}

// A retreat the rules allow: to a neighbouring location the unit could move to, not occupied,
// not where the attacker came from, not left empty by a standoff. check_order() refuses the
// others already; this keeps the resolver right for callers that skip it.
bool retreat_allowed(const Map& map, const State& s, ProvinceId from, const Order& o) {
  const Unit& u = s.dislodged[from];
  if (o.target >= map.num_locations()) return false;
  const ProvinceId t = map.province_of(o.target);
  const bool adjacent = u.type == UnitType::kArmy ? map.army_adjacent(from, t)
                                                  : map.fleet_adjacent(u.location, o.target);
  return adjacent && !s.occupied(t) && t != s.attacker_from[from] && !s.contested.test(t);
}

// Moves from p to each province over land or sea, either unit type: the 2023 rules' civil
// disorder distance (DATC 6.J.10: an army's distance may cross water).
void neighbours_any(const Map& map, ProvinceId p, ProvinceSet& out) {
  out = map.army_neighbours(p) | map.fleet_reach(map.location(p));
  for (const LocationId c : map.coasts(p)) out |= map.fleet_reach(c);
}

// Distance from every province to the nearest centre `power` owns (kMaxProvinces: none).
void owned_centre_distances(const Map& map, const State& s, PowerId power,
                            std::array<int, kMaxProvinces>& dist) {
  const int np = map.num_provinces();
  dist.fill(static_cast<int>(kMaxProvinces));
  std::array<ProvinceId, kMaxProvinces> queue{};
  int head = 0, tail = 0;
  for (int p = 0; p < np; ++p)
    if (map.is_supply_centre(static_cast<ProvinceId>(p)) && s.owner[p] == power) {
      dist[p] = 0;
      queue[tail++] = static_cast<ProvinceId>(p);
    }
  ProvinceSet next;
  while (head < tail) {
    const ProvinceId p = queue[head++];
    neighbours_any(map, p, next);
    for (int q = 0; q < np; ++q)
      if (next.test(q) && dist[q] > dist[p] + 1) {
        dist[q] = dist[p] + 1;
        queue[tail++] = static_cast<ProvinceId>(q);
      }
  }
}

// Removes `count` units of `power` from `s` by the civil disorder order, marking them.
void civil_disorder(const Map& map, State& s, PowerId power, int count, ProvinceSet& removed) {
  std::array<int, kMaxProvinces> dist;
  owned_centre_distances(map, s, power, dist);
  std::array<ProvinceId, kMaxProvinces> units{};
  int n = 0;
  for (int p = 0; p < map.num_provinces(); ++p)
    if (s.units[p].power == power) units[n++] = static_cast<ProvinceId>(p);
  // Farthest first; then fleets before armies; then alphabetical by the province's name.
  std::sort(units.begin(), units.begin() + n, [&](ProvinceId a, ProvinceId b) {
    if (dist[a] != dist[b]) return dist[a] > dist[b];
    const bool fa = s.units[a].type == UnitType::kFleet, fb = s.units[b].type == UnitType::kFleet;
    if (fa != fb) return fa;
    return map.full_name(a) < map.full_name(b);
  });
  for (int k = 0; k < std::min(count, n); ++k) {
    s.remove(units[k]);
    removed.set(units[k]);
  }
}

bool free_owned_home(const Map& map, const State& s, PowerId power) {
  for (int p = 0; p < map.num_provinces(); ++p)
    if (map.homes(power).test(p) && s.owner[p] == power && !s.occupied(static_cast<ProvinceId>(p)))
      return true;
  return false;
}

}  // namespace

int adjustment_count(const Map& map, const State& s, PowerId power) {
  return count_centres(map, s, power) - count_units(map, s, power);
}

bool adjustments_needed(const Map& map, const State& s) {
  for (PowerId w = 0; w < map.num_powers(); ++w) {
    const int n = adjustment_count(map, s, w);
    if (n < 0 || (n > 0 && free_owned_home(map, s, w))) return true;
  }
  return false;
}

void finish_fall(const Map& map, State& s) {
  for (int p = 0; p < map.num_provinces(); ++p)
    if (map.is_supply_centre(static_cast<ProvinceId>(p)) && s.units[p].exists())
      s.owner[p] = s.units[p].power;
  clear_retreat_fields(s);
  if (adjustments_needed(map, s)) {
    s.phase = Phase{Season::kWinter, PhaseType::kAdjustment, s.phase.year};
  } else {
    s.phase = Phase{Season::kSpring, PhaseType::kMovement, s.phase.year + 1};
  }
}

std::optional<PowerId> solo_winner(const Map& map, const State& s) {
  for (PowerId w = 0; w < map.num_powers(); ++w)
    if (2 * count_centres(map, s, w) > map.num_supply_centres()) return w;
  return std::nullopt;
}

bool power_alive(const Map& map, const State& s, PowerId power) {
  for (int p = 0; p < map.num_provinces(); ++p)
    if (s.units[p].power == power || s.dislodged[p].power == power || s.owner[p] == power)
      return true;
  return false;
}

int powers_alive(const Map& map, const State& s) {
  int n = 0;
  for (PowerId w = 0; w < map.num_powers(); ++w)
    n += count_centres(map, s, w) > 0 || count_units(map, s, w) > 0;
  return n;
}

void resolve_retreats(const Map& map, const State& s, std::span<const Order> orders,
                      RetreatResult& out) {
  const int np = map.num_provinces();
  out.num_orders = static_cast<int>(std::min(orders.size(), kMaxProvinces));
  out.disbanded.reset();
  // By dislodged unit's province: the order that counts (the first one given), or -1.
  std::array<int, kMaxProvinces> chosen;
  chosen.fill(-1);
  std::array<std::uint8_t, kMaxProvinces> arrivals{};  // retreats into each province
  for (int k = 0; k < out.num_orders; ++k) {
    const Order& o = orders[k];
    out.orders[k] = o;
    out.succeeded[k] = false;
    if (o.location >= map.num_locations()) continue;
    const ProvinceId p = map.province_of(o.location);
    if (!s.dislodged[p].exists() || chosen[p] >= 0) continue;
    if (o.type == OrderType::kDisband) {
      chosen[p] = k;
    } else if (o.type == OrderType::kRetreat && retreat_allowed(map, s, p, o)) {
      chosen[p] = k;
      ++arrivals[map.province_of(o.target)];
    }
  }
  State& next = out.next;
  next = s;
  clear_retreat_fields(next);
  for (int p = 0; p < np; ++p) {
    if (!s.dislodged[p].exists()) continue;
    const int k = chosen[p];
    if (k >= 0 && orders[k].type == OrderType::kRetreat &&
        arrivals[map.province_of(orders[k].target)] == 1) {
      Unit u = s.dislodged[p];
      u.location = orders[k].target;
      next.place(u, map);
      out.succeeded[k] = true;
    } else {
      // Disbanded: as ordered, bounced with another retreat, or without a (legal) order.
      if (k >= 0 && orders[k].type == OrderType::kDisband) out.succeeded[k] = true;
      out.disbanded.set(p);
    }
  }
  if (s.phase.season == Season::kSpring) {
    next.phase = Phase{Season::kFall, PhaseType::kMovement, s.phase.year};
  } else {
    finish_fall(map, next);
  }
}

void resolve_adjustments(const Map& map, const State& s, std::span<const Order> orders,
                         AdjustmentResult& out) {
  out.num_orders = static_cast<int>(std::min(orders.size(), kMaxProvinces));
  out.built.reset();
  out.civil_disorder.reset();
  State& next = out.next;
  next = s;
  clear_retreat_fields(next);
  // Builds (> 0) or disbands (< 0) each power may still make, counted on the phase's state.
  std::array<int, kMaxPowers> left{};
  for (PowerId w = 0; w < map.num_powers(); ++w) left[w] = adjustment_count(map, s, w);
  for (int k = 0; k < out.num_orders; ++k) {
    const Order& o = orders[k];
    out.orders[k] = o;
    bool ok = false;
    if (o.type == OrderType::kWaive) {
      // A waive uses up a build of the power that gave it.
      if (o.power < map.num_powers() && left[o.power] > 0) {
        --left[o.power];
        ok = true;
      }
    } else if (o.location < map.num_locations()) {
      const ProvinceId p = map.province_of(o.location);
      if (o.type == OrderType::kBuild) {
        const PowerId w = map.home_power(p);
        const bool type_fits =
            o.unit == UnitType::kArmy
                ? !map.is_sea(p)
                : o.unit == UnitType::kFleet && !map.is_land(p) &&
                      (!map.has_coasts(p) || map.coast_of(o.location) != Coast::kNone);
        ok = w < map.num_powers() && (o.power == kNoPower || o.power == w) && left[w] > 0 &&
             s.owner[p] == w && !next.occupied(p) && type_fits;
        if (ok) {
          --left[w];
          Unit u{o.unit, w, o.unit == UnitType::kArmy ? map.location(p) : o.location};
          next.place(u, map);
          out.built.set(p);
        }
      } else if (o.type == OrderType::kDisband) {
        const Unit& u = next.units[p];
        // One by one in the order given (DATC 6.J.1); a unit already removed is not there.
        ok = u.exists() && (o.power == kNoPower || o.power == u.power) && left[u.power] < 0 &&
             !out.built.test(p);
        if (ok) {
          ++left[u.power];
          next.remove(p);
        }
      }
    }
    out.succeeded[k] = ok;
  }
  for (PowerId w = 0; w < map.num_powers(); ++w)
    if (left[w] < 0) civil_disorder(map, next, w, -left[w], out.civil_disorder);
  next.phase = Phase{Season::kSpring, PhaseType::kMovement, s.phase.year + 1};
}

const State& PhaseResolver::resolve(const State& s, std::span<const Order> orders) {
  switch (s.phase.type) {
    case PhaseType::kMovement:
      adjudicator_.resolve_movement(s, orders, movement_);
      return movement_.next;
    case PhaseType::kRetreat:
      resolve_retreats(map_, s, orders, retreat_);
      return retreat_.next;
    case PhaseType::kAdjustment:
      break;
  }
  resolve_adjustments(map_, s, orders, adjustment_);
  return adjustment_.next;
}

}  // namespace kibitz::diplomacy
