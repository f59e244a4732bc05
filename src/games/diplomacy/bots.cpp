#include "games/diplomacy/bots.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace kibitz::diplomacy {

namespace {

template <class F>
void for_each_location(const LocationSet& set, F&& f) {
  for (std::size_t i = set._Find_first(); i < set.size(); i = set._Find_next(i))
    f(static_cast<LocationId>(i));
}

Order base_order(OrderType type, const Unit& u) {
  Order o;
  o.type = type;
  o.unit = u.type;
  o.location = u.location;
  return o;
}

// Where a unit can give support: any province it could move to without a convoy.
const ProvinceSet& support_reach(const Map& map, const Unit& u) {
  return u.type == UnitType::kArmy ? map.army_neighbours(map.province_of(u.location))
                                   : map.fleet_reach(u.location);
}

int builds_of(const Map& map, const State& s, PowerId power) {
  return count_centres(map, s, power) - count_units(map, s, power);
}

}  // namespace

// --- OrderGenerator

void OrderGenerator::set_state(const State& s) {
  s_ = &s;
  // What is precomputed depends only on the units: the powers of a phase share it (Unit is
  // three bytes, no padding, so the arrays compare as bytes).
  static_assert(sizeof(Unit) == 3);
  if (have_units_ && std::memcmp(units_.data(), s.units.data(), sizeof units_) == 0) return;
  have_units_ = true;
  have_convoys_ = false;
  units_ = s.units;
  const int n = map_.num_provinces();
  std::fill_n(chain_.begin(), n, std::int8_t{-1});
  std::fill_n(touch_.begin(), n, std::uint64_t{0});
  const auto fleet_at_sea = [&](ProvinceId q) {
    return map_.is_sea(q) && s.units[q].exists() && s.units[q].type == UnitType::kFleet;
  };
  // Chains of fleets at sea: connected components over fleet edges between sea provinces.
  std::array<ProvinceId, kMaxProvinces> stack;
  int chains = 0;
  for (int q0 = 0; q0 < n && chains < 64; ++q0) {
    const auto q = static_cast<ProvinceId>(q0);
    if (chain_[q] >= 0 || !fleet_at_sea(q)) continue;
    const std::uint64_t bit = std::uint64_t{1} << chains;
    ProvinceSet& coasts = chain_coasts_[chains];
    coasts.reset();
    chain_[q] = static_cast<std::int8_t>(chains);
    int top = 0;
    stack[top++] = q;
    while (top > 0) {
      const ProvinceId r = stack[--top];
      for_each_province(map_.fleet_reach(r), [&](ProvinceId c) {
        if (map_.is_coastal(c)) {
          touch_[c] |= bit;
          coasts.set(c);
        } else if (chain_[c] < 0 && fleet_at_sea(c)) {
          chain_[c] = static_cast<std::int8_t>(chains);
          stack[top++] = c;
        }
      });
    }
    ++chains;
  }
  std::fill_n(reach_.begin(), n, ProvinceSet{});
  std::fill_n(movers_.begin(), n, ProvinceSet{});
  occupied_.reset();
  for (int q0 = 0; q0 < n; ++q0) {
    const auto q = static_cast<ProvinceId>(q0);
    const Unit& u = s.units[q];
    if (!u.exists()) continue;
    occupied_.set(q);
    ProvinceSet& r = reach_[q];
    if (u.type == UnitType::kArmy) {
      r = map_.army_neighbours(q);
      if (touch_[q] != 0) {
        for (std::uint64_t bits = touch_[q]; bits != 0; bits &= bits - 1)
          r |= chain_coasts_[std::countr_zero(bits)];
        r.reset(q);
      }
    } else {
      r = map_.fleet_reach(u.location);
    }
    for_each_province(r, [&](ProvinceId t) { movers_[t].set(q); });
  }
}

namespace {

// The k-th member (from 0, in id order) of a set with more than k members.
ProvinceId nth_province(const ProvinceSet& set, std::size_t k) {
  std::size_t i = set._Find_first();
  for (; k > 0; --k) i = set._Find_next(i);
  return static_cast<ProvinceId>(i);
}

LocationId nth_location(const LocationSet& set, std::size_t k) {
  std::size_t i = set._Find_first();
  for (; k > 0; --k) i = set._Find_next(i);
  return static_cast<LocationId>(i);
}

}  // namespace

std::size_t OrderGenerator::count_unit_orders(ProvinceId p) const {
  const State& s = *s_;
  const Unit& u = s.units[p];
  if (s.phase.type != PhaseType::kMovement || !u.exists()) {
    std::vector<Order>& tmp = scratch_;
    tmp.clear();
    unit_orders(p, tmp);
    return tmp.size();
  }
  std::size_t n = 1;  // hold
  n += u.type == UnitType::kArmy ? reach_[p].count() : map_.fleet_neighbours(u.location).count();
  const ProvinceSet& can = support_reach(map_, u);
  n += (can & occupied_).count();
  for_each_province(can, [&](ProvinceId t) { n += movers_[t].count() - movers_[t].test(p); });
  if (u.type == UnitType::kFleet && map_.is_sea(p) && chain_[p] >= 0) {
    compute_convoys();
    for (int a = 0; a < num_convoy_armies_; ++a) n += convoy_targets(p, a).count();
  }
  return n;
}

Order OrderGenerator::unit_order(ProvinceId p, std::size_t k) const {
  const State& s = *s_;
  const Unit& u = s.units[p];
  if (s.phase.type != PhaseType::kMovement || !u.exists()) {
    scratch_.clear();
    unit_orders(p, scratch_);
    return scratch_[k];
  }
  if (k == 0) return base_order(OrderType::kHold, u);
  --k;
  Order o = base_order(OrderType::kMove, u);
  if (u.type == UnitType::kArmy) {
    const std::size_t m = reach_[p].count();
    if (k < m) {
      o.target = map_.location(nth_province(reach_[p], k));
      return o;
    }
    k -= m;
  } else {
    const LocationSet& next = map_.fleet_neighbours(u.location);
    const std::size_t m = next.count();
    if (k < m) {
      o.target = nth_location(next, k);
      return o;
    }
    k -= m;
  }
  const ProvinceSet& can = support_reach(map_, u);
  o.type = OrderType::kSupport;
  const ProvinceSet held = can & occupied_;
  if (k < held.count()) {
    const Unit& v = s.units[nth_province(held, k)];
    o.aux_unit = v.type;
    o.aux = v.location;
    return o;
  }
  k -= held.count();
  for (std::size_t t = can._Find_first(); t < can.size(); t = can._Find_next(t)) {
    ProvinceSet movers = movers_[t];
    movers.reset(p);
    const std::size_t m = movers.count();
    if (k >= m) {
      k -= m;
      continue;
    }
    const Unit& v = s.units[nth_province(movers, k)];
    o.aux_unit = v.type;
    o.aux = v.location;
    o.target = map_.location(static_cast<ProvinceId>(t));
    return o;
  }
  // A convoy: armies in id order, each's destinations in id order.
  compute_convoys();
  o.type = OrderType::kConvoy;
  o.aux_unit = UnitType::kArmy;
  for (int a = 0;; ++a) {
    const ProvinceSet& to = convoy_targets(p, a);
    const std::size_t m = to.count();
    if (k >= m) {
      k -= m;
      continue;
    }
    o.aux = map_.location(convoy_army_[a]);
    o.target = map_.location(nth_province(to, k));
    return o;
  }
}

void OrderGenerator::compute_convoys() const {
  if (have_convoys_) return;
  have_convoys_ = true;
  const State& s = *s_;
  const int n = map_.num_provinces();
  num_convoy_fleets_ = num_convoy_armies_ = 0;
  for (int q = 0; q < n; ++q) {
    convoy_slot_[q] = -1;
    if (map_.is_sea(static_cast<ProvinceId>(q)) && s.units[q].exists() &&
        s.units[q].type == UnitType::kFleet) {
      convoy_slot_[q] = static_cast<std::int8_t>(num_convoy_fleets_++);
    } else if (touch_[q] != 0 && s.units[q].exists() && s.units[q].type == UnitType::kArmy) {
      convoy_army_[num_convoy_armies_++] = static_cast<ProvinceId>(q);
    }
  }
  convoy_to_.assign(static_cast<std::size_t>(num_convoy_fleets_ * num_convoy_armies_),
                    ProvinceSet{});
  for (int a = 0; a < num_convoy_armies_; ++a)
    for_each_minimal_convoy_route(
        map_, s, convoy_army_[a], [&](std::span<const ProvinceId> route, const ProvinceSet& to) {
          for (const ProvinceId r : route)
            convoy_to_[static_cast<std::size_t>(convoy_slot_[r] * num_convoy_armies_ + a)] |= to;
          return false;
        });
}

void OrderGenerator::add_moves(const Unit& u, std::vector<Order>& out) const {
  Order o = base_order(OrderType::kMove, u);
  if (u.type == UnitType::kArmy) {
    for_each_province(reach_[map_.province_of(u.location)], [&](ProvinceId t) {
      o.target = map_.location(t);
      out.push_back(o);
    });
  } else {
    for_each_location(map_.fleet_neighbours(u.location), [&](LocationId l) {
      o.target = l;
      out.push_back(o);
    });
  }
}

void OrderGenerator::unit_orders(ProvinceId p, std::vector<Order>& out) const {
  const State& s = *s_;
  if (s.phase.type == PhaseType::kRetreat) {
    const Unit& u = s.dislodged[p];
    if (!u.exists()) return;
    Order o = base_order(OrderType::kRetreat, u);
    const auto allowed = [&](ProvinceId t) {
      return t != s.attacker_from[p] && !s.occupied(t) && !s.contested.test(t);
    };
    if (u.type == UnitType::kArmy) {
      for_each_province(map_.army_neighbours(p), [&](ProvinceId t) {
        if (!allowed(t)) return;
        o.target = map_.location(t);
        out.push_back(o);
      });
    } else {
      for_each_location(map_.fleet_neighbours(u.location), [&](LocationId l) {
        if (!allowed(map_.province_of(l))) return;
        o.target = l;
        out.push_back(o);
      });
    }
    out.push_back(base_order(OrderType::kDisband, u));
    return;
  }
  if (s.phase.type != PhaseType::kMovement) return;
  const Unit& u = s.units[p];
  if (!u.exists()) return;
  out.push_back(base_order(OrderType::kHold, u));
  add_moves(u, out);
  const ProvinceSet& can = support_reach(map_, u);
  Order o = base_order(OrderType::kSupport, u);
  for_each_province(can, [&](ProvinceId q) {
    if (!s.occupied(q)) return;
    o.aux_unit = s.units[q].type;
    o.aux = s.units[q].location;
    o.target = kNoLocation;
    out.push_back(o);
  });
  for_each_province(can, [&](ProvinceId t) {
    o.target = map_.location(t);
    for_each_province(movers_[t], [&](ProvinceId q) {
      if (q == p) return;
      o.aux_unit = s.units[q].type;
      o.aux = s.units[q].location;
      out.push_back(o);
    });
  });
  if (u.type != UnitType::kFleet || !map_.is_sea(p) || chain_[p] < 0) return;
  compute_convoys();
  Order c = base_order(OrderType::kConvoy, u);
  c.aux_unit = UnitType::kArmy;
  for (int a = 0; a < num_convoy_armies_; ++a) {
    c.aux = map_.location(convoy_army_[a]);
    for_each_province(convoy_targets(p, a), [&](ProvinceId t) {
      c.target = map_.location(t);
      out.push_back(c);
    });
  }
}

void OrderGenerator::adjustment_orders(PowerId power, std::vector<Order>& out) const {
  const State& s = *s_;
  if (s.phase.type != PhaseType::kAdjustment) return;
  const int builds = builds_of(map_, s, power);
  if (builds > 0) {
    Order o;
    o.type = OrderType::kBuild;
    for_each_province(map_.homes(power), [&](ProvinceId h) {
      if (s.owner[h] != power || s.occupied(h)) return;
      if (!map_.is_sea(h)) {
        o.unit = UnitType::kArmy;
        o.location = map_.location(h);
        out.push_back(o);
      }
      if (map_.is_land(h)) return;
      o.unit = UnitType::kFleet;
      if (map_.has_coasts(h)) {
        for (const LocationId c : map_.coasts(h)) {
          o.location = c;
          out.push_back(o);
        }
      } else {
        o.location = map_.location(h);
        out.push_back(o);
      }
    });
    Order w;
    w.type = OrderType::kWaive;
    out.push_back(w);
  } else if (builds < 0) {
    for (int p = 0; p < map_.num_provinces(); ++p)
      if (s.units[p].power == power) out.push_back(base_order(OrderType::kDisband, s.units[p]));
  }
}

void legal_orders(const Map& map, const State& s, LocationId location, std::vector<Order>& out) {
  OrderGenerator gen(map);
  gen.set_state(s);
  gen.unit_orders(map.province_of(location), out);
}

// --- MapDistances

MapDistances::MapDistances(const Map& map)
    : army_(static_cast<std::size_t>(map.num_provinces())),
      fleet_(static_cast<std::size_t>(map.num_locations())) {
  const int n = map.num_provinces(), nl = map.num_locations();
  std::array<std::uint8_t, kMaxLocations> queue{};
  for (int from = 0; from < n; ++from) {
    auto& d = army_[from];
    d.fill(kFar);
    d[from] = 0;
    int head = 0, tail = 0;
    queue[tail++] = static_cast<std::uint8_t>(from);
    while (head < tail) {
      const ProvinceId p = queue[head++];
      for_each_province(map.army_neighbours(p), [&](ProvinceId q) {
        if (d[q] != kFar) return;
        d[q] = static_cast<std::uint8_t>(d[p] + 1);
        queue[tail++] = q;
      });
    }
  }
  std::array<std::uint8_t, kMaxLocations> ld{};
  for (int from = 0; from < nl; ++from) {
    auto& d = fleet_[from];
    d.fill(kFar);
    ld.fill(kFar);
    ld[from] = 0;
    int head = 0, tail = 0;
    queue[tail++] = static_cast<std::uint8_t>(from);
    while (head < tail) {
      const LocationId l = queue[head++];
      const ProvinceId p = map.province_of(l);
      d[p] = std::min(d[p], ld[l]);
      for_each_location(map.fleet_neighbours(l), [&](LocationId m) {
        if (ld[m] != kFar) return;
        ld[m] = static_cast<std::uint8_t>(ld[l] + 1);
        queue[tail++] = m;
      });
    }
  }
}

// --- RandomBot

void RandomBot::orders(const State& s, PowerId power, Rng& rng, std::vector<Order>& out) {
  const int n = map_.num_provinces();
  gen_.set_state(s);
  if (s.phase.type != PhaseType::kAdjustment) {
    // Counting and then building the chosen order is cheaper than listing them all.
    const auto& units = s.phase.type == PhaseType::kRetreat ? s.dislodged : s.units;
    for (int p = 0; p < n; ++p) {
      if (units[p].power != power) continue;
      const std::size_t count = gen_.count_unit_orders(static_cast<ProvinceId>(p));
      if (count > 0) out.push_back(gen_.unit_order(static_cast<ProvinceId>(p), rng.below(count)));
    }
    return;
  }
  const int builds = builds_of(map_, s, power);
  buf_.clear();
  gen_.adjustment_orders(power, buf_);
  if (builds < 0) {
    // -builds distinct units, uniformly: a partial Fisher-Yates shuffle.
    const std::size_t k = std::min(buf_.size(), static_cast<std::size_t>(-builds));
    for (std::size_t i = 0; i < k; ++i) {
      std::swap(buf_[i], buf_[i + rng.below(buf_.size() - i)]);
      out.push_back(buf_[i]);
    }
    return;
  }
  // Each build picks uniformly among the options left (WAIVE stays available); a build takes
  // its province out of the options.
  for (int i = 0; i < builds && !buf_.empty(); ++i) {
    const Order o = buf_[rng.below(buf_.size())];
    out.push_back(o);
    if (o.type != OrderType::kBuild) continue;
    const ProvinceId h = map_.province_of(o.location);
    std::erase_if(buf_, [&](const Order& x) {
      return x.type == OrderType::kBuild && map_.province_of(x.location) == h;
    });
  }
}

// --- HeuristicBot

namespace {

// Centre values (docs/diplomacy.md, "Bots and play"): a neutral centre is worth most, an
// enemy's less (it will be defended), less again with an enemy unit in it (an unsupported
// attack there bounces; 4 played better than 0 or 2 in 2,000 heuristic-vs-heuristic games);
// an own centre only when an enemy could walk in, more in the fall, when ownership changes.
constexpr int kNeutral = 10, kEnemy = 7, kOccupied = 4, kOwnFall = 6, kOwnSpring = 2, kHome = 1;

enum class Role : std::uint8_t { kIdle, kHold, kMove, kSupport };

}  // namespace

HeuristicBot::HeuristicBot(const Map& map) : map_(map), dist_(map), gen_(map) {}

void HeuristicBot::value_centres(const State& s, PowerId power) {
  const int n = map_.num_provinces();
  threat_.reset();
  if (s.phase.type == PhaseType::kMovement)
    for (int q = 0; q < n; ++q)
      if (s.units[q].exists() && s.units[q].power != power)
        threat_ |= gen_.move_reach(static_cast<ProvinceId>(q));
  const bool fall = s.phase.season != Season::kSpring;
  for (int c0 = 0; c0 < n; ++c0) {
    const auto c = static_cast<ProvinceId>(c0);
    int v = 0;
    if (map_.is_supply_centre(c)) {
      const PowerId owner = s.owner[c];
      const Unit& u = s.units[c];
      if (owner != power) {
        v = owner == kNoPower ? kNeutral : kEnemy;
        if (u.exists() && u.power != power) v -= kOccupied;
      } else if (u.exists() && u.power != power) {
        // An enemy sits in our centre: it becomes theirs after the fall.
        v = (fall ? kOwnFall : kOwnSpring) + kHome;
      } else if (threat_.test(c)) {
        v = (fall ? kOwnFall : kOwnSpring) + (map_.home_power(c) == power ? kHome : 0);
      }
    }
    value_[c] = v;
  }
}

int HeuristicBot::nearest_target(UnitType type, LocationId loc) const {
  int best = MapDistances::kFar;
  for (int c = 0; c < map_.num_provinces(); ++c) {
    if (value_[c] <= 0) continue;
    const auto q = static_cast<ProvinceId>(c);
    const int d =
        type == UnitType::kArmy ? dist_.army(map_.province_of(loc), q) : dist_.fleet(loc, q);
    best = std::min(best, d);
  }
  return best;
}

void HeuristicBot::orders(const State& s, PowerId power, Rng& rng, std::vector<Order>& out) {
  gen_.set_state(s);
  value_centres(s, power);
  if (noise_ > 0)
    for (int c = 0; c < map_.num_provinces(); ++c)
      if (value_[c] > 0)
        value_[c] = std::max(1, value_[c] + static_cast<int>(rng.below(2 * noise_ + 1)) - noise_);
  switch (s.phase.type) {
    case PhaseType::kMovement:
      movement(s, power, rng, out);
      break;
    case PhaseType::kRetreat:
      retreats(s, power, rng, out);
      break;
    case PhaseType::kAdjustment:
      adjustments(s, power, out);
      break;
  }
}

void HeuristicBot::movement(const State& s, PowerId power, Rng& rng, std::vector<Order>& out) {
  const int n = map_.num_provinces();
  // Own units, and every (unit, valuable centre) pair scored value / (1 + distance).
  std::array<ProvinceId, kMaxProvinces> units{};
  int nu = 0;
  for (int p = 0; p < n; ++p)
    if (s.units[p].power == power) units[nu++] = static_cast<ProvinceId>(p);
  if (nu == 0) return;
  struct Pair {
    int score;
    std::uint32_t tie;
    ProvinceId unit, centre;
  };
  // At most units x valuable centres (34 x 34 on the standard map); extra pairs are dropped.
  std::array<Pair, kMaxProvinces * 40> pairs;
  int np = 0;
  for (int i = 0; i < nu; ++i) {
    const Unit& u = s.units[units[i]];
    for (int c = 0; c < n; ++c) {
      if (value_[c] <= 0) continue;
      const int d = dist_.unit(u, map_, static_cast<ProvinceId>(c));
      if (d == MapDistances::kFar || np == static_cast<int>(pairs.size())) continue;
      pairs[np++] = {value_[c] * 100 / (1 + d), static_cast<std::uint32_t>(rng.next()), units[i],
                     static_cast<ProvinceId>(c)};
    }
  }
  std::sort(pairs.begin(), pairs.begin() + np, [](const Pair& a, const Pair& b) {
    return a.score != b.score ? a.score > b.score : a.tie < b.tie;
  });
  // Greedy assignment: each unit its best centre not yet taken; units left over follow
  // their best centre anyway (they may end up supporting the unit assigned to it).
  std::array<ProvinceId, kMaxProvinces> target;
  target.fill(kNoProvince);
  std::array<bool, kMaxProvinces> assigned{};
  ProvinceSet taken;
  std::array<ProvinceId, kMaxProvinces> order_of{};  // units in decision order
  int no = 0;
  for (int k = 0; k < np; ++k) {
    const Pair& pr = pairs[k];
    if (assigned[pr.unit] || taken.test(pr.centre)) continue;
    assigned[pr.unit] = true;
    taken.set(pr.centre);
    target[pr.unit] = pr.centre;
    order_of[no++] = pr.unit;
  }
  for (int k = 0; k < np; ++k) {
    const Pair& pr = pairs[k];
    if (target[pr.unit] != kNoProvince) continue;
    target[pr.unit] = pr.centre;
    order_of[no++] = pr.unit;
  }
  for (int i = 0; i < nu; ++i)
    if (target[units[i]] == kNoProvince) order_of[no++] = units[i];

  // Steps: a unit on its target holds; otherwise it moves one step closer, into a province
  // no own unit claims (a holding unit or another move's destination) and whose own unit, if
  // any, has already decided to leave. A unit blocked on the way to its target tries its
  // next-best centres; a unit blocked everywhere holds.
  std::array<Role, kMaxProvinces> role{};
  std::array<LocationId, kMaxProvinces> dest{};
  std::array<bool, kMaxProvinces> decided{};
  ProvinceSet claimed;
  const auto step_toward = [&](ProvinceId p, ProvinceId c) {
    const Unit& u = s.units[p];
    const int d = dist_.unit(u, map_, c);
    LocationId best = kNoLocation;
    int best_key = -1;
    const auto consider = [&](LocationId l) {
      const ProvinceId t = map_.province_of(l);
      const int dt = u.type == UnitType::kArmy ? dist_.army(t, c) : dist_.fleet(l, c);
      if (dt != d - 1 || claimed.test(t)) return;
      const Unit& there = s.units[t];
      if (there.power == power &&
          (!decided[t] || role[t] != Role::kMove || map_.province_of(dest[t]) == p))
        return;
      // Prefer stepping onto a centre worth taking, then empty provinces; random ties.
      int key = static_cast<int>(rng.below(16));
      key += value_[t] * 64;
      if (!there.exists()) key += 32;
      if (key > best_key) {
        best_key = key;
        best = l;
      }
    };
    if (u.type == UnitType::kArmy) {
      for_each_province(map_.army_neighbours(p), [&](ProvinceId t) { consider(map_.location(t)); });
    } else {
      for_each_location(map_.fleet_neighbours(u.location), consider);
    }
    return best;
  };
  for (int k = 0; k < no; ++k) {
    const ProvinceId p = order_of[k];
    const ProvinceId c = target[p];
    decided[p] = true;
    role[p] = Role::kIdle;
    if (c == kNoProvince || dist_.unit(s.units[p], map_, c) == 0) {
      if (c != kNoProvince) role[p] = Role::kHold;
      claimed.set(p);
      continue;
    }
    LocationId step = step_toward(p, c);
    for (int j = 0, tries = 0; step == kNoLocation && j < np && tries < 6; ++j) {
      if (pairs[j].unit != p || pairs[j].centre == c) continue;
      ++tries;
      if (dist_.unit(s.units[p], map_, pairs[j].centre) > 0) step = step_toward(p, pairs[j].centre);
    }
    if (step == kNoLocation) {
      claimed.set(p);
      continue;
    }
    role[p] = Role::kMove;
    dest[p] = step;
    claimed.set(map_.province_of(step));
  }

  // Convoys: an idle army on a coast (an island's, say) next to an idle own fleet at sea is
  // carried to the coast of that sea nearest (by land) to a centre worth something.
  std::array<ProvinceId, kMaxProvinces> convoyed_by{};
  convoyed_by.fill(kNoProvince);
  std::array<bool, kMaxProvinces> carried{};
  for (int i = 0; i < nu; ++i) {
    const ProvinceId a = units[i];
    if (role[a] != Role::kIdle || s.units[a].type != UnitType::kArmy || !map_.is_coastal(a))
      continue;
    const int here = nearest_target(UnitType::kArmy, map_.location(a));
    for (int j = 0; j < nu; ++j) {
      const ProvinceId f = units[j];
      if (role[f] != Role::kIdle || !map_.is_sea(f) || !map_.fleet_reaches(f, a)) continue;
      ProvinceId best = kNoProvince;
      int best_d = here;
      for_each_province(map_.fleet_reach(f), [&](ProvinceId t) {
        if (t == a || !map_.is_coastal(t) || map_.army_adjacent(a, t) || claimed.test(t)) return;
        if (s.units[t].power == power) return;
        const int d = nearest_target(UnitType::kArmy, map_.location(t));
        if (d < best_d) {
          best_d = d;
          best = t;
        }
      });
      if (best == kNoProvince) continue;
      role[a] = Role::kMove;
      dest[a] = map_.location(best);
      claimed.set(best);
      role[f] = Role::kSupport;  // stays: emitted as the convoy below
      convoyed_by[f] = a;
      carried[a] = true;
      break;
    }
  }

  // Supports: a unit that stays anyway (idle, or holding its target: a supporting unit
  // still occupies its province) or one only travelling (its step is not onto a centre)
  // backs an own move into a contested centre (an enemy unit there or able to move in), or
  // an own unit holding a valuable centre that an enemy could attack.
  std::array<ProvinceId, kMaxProvinces> sup_of{};
  sup_of.fill(kNoProvince);
  std::array<int, kMaxProvinces> backers{};
  const auto free_to_support = [&](ProvinceId q) {
    if (carried[q] || sup_of[q] != kNoProvince || convoyed_by[q] != kNoProvince) return false;
    if (role[q] == Role::kIdle || role[q] == Role::kHold) return true;
    return role[q] == Role::kMove && value_[map_.province_of(dest[q])] == 0 &&
           !s.units[map_.province_of(dest[q])].exists();
  };
  for (int k = 0; k < no; ++k) {
    const ProvinceId p = order_of[k];
    ProvinceId t;
    if (role[p] == Role::kMove) {
      t = map_.province_of(dest[p]);
      if (value_[t] == 0) continue;
      if (!threat_.test(t) && !(s.units[t].exists() && s.units[t].power != power)) continue;
    } else if (role[p] == Role::kHold) {
      t = p;
      if (value_[t] == 0 || !threat_.test(t)) continue;
    } else {
      continue;
    }
    for (int j = 0; j < nu && backers[p] < 2; ++j) {
      const ProvinceId q = units[j];
      if (q == p || q == t || !free_to_support(q)) continue;
      if (!support_reach(map_, s.units[q]).test(t)) continue;
      // A travelling unit that stays to support frees the province it was stepping into, but
      // must not stay where another own unit is moving in (that move would bounce).
      if (role[q] == Role::kMove) {
        if (claimed.test(q)) continue;
        claimed.reset(map_.province_of(dest[q]));
        claimed.set(q);
        role[q] = Role::kSupport;
      }
      sup_of[q] = p;
      ++backers[p];
    }
  }

  for (int i = 0; i < nu; ++i) {
    const ProvinceId p = units[i];
    const Unit& u = s.units[p];
    Order o = base_order(OrderType::kHold, u);
    if (sup_of[p] != kNoProvince) {
      const ProvinceId q = sup_of[p];
      o.type = OrderType::kSupport;
      o.aux_unit = s.units[q].type;
      o.aux = s.units[q].location;
      o.target = role[q] == Role::kMove ? map_.location(map_.province_of(dest[q])) : kNoLocation;
    } else if (role[p] == Role::kMove) {
      o.type = OrderType::kMove;
      o.target = dest[p];
    } else if (convoyed_by[p] != kNoProvince) {
      const ProvinceId a = convoyed_by[p];
      o.type = OrderType::kConvoy;
      o.aux_unit = UnitType::kArmy;
      o.aux = map_.location(a);
      o.target = dest[a];
    }
    out.push_back(o);
  }
}

void HeuristicBot::retreats(const State& s, PowerId power, Rng& rng, std::vector<Order>& out) {
  ProvinceSet claimed;  // two own retreats into one province would both be disbanded
  for (int p = 0; p < map_.num_provinces(); ++p) {
    if (s.dislodged[p].power != power) continue;
    buf_.clear();
    gen_.unit_orders(static_cast<ProvinceId>(p), buf_);
    const Order* best = nullptr;
    int best_key = -1000000;
    for (const Order& o : buf_) {
      if (o.type != OrderType::kRetreat) continue;
      const ProvinceId t = map_.province_of(o.target);
      if (claimed.test(t)) continue;
      int key = static_cast<int>(rng.below(8));
      if (map_.is_supply_centre(t)) key += s.owner[t] == power ? 200 : 400;
      const int d = nearest_target(o.unit, o.target);
      key -= 50 * std::min(d, 20);
      if (key > best_key) {
        best_key = key;
        best = &o;
      }
    }
    if (best) {
      claimed.set(map_.province_of(best->target));
      out.push_back(*best);
    } else {
      out.push_back(buf_.back());  // disband
    }
  }
}

void HeuristicBot::adjustments(const State& s, PowerId power, std::vector<Order>& out) {
  const int builds = builds_of(map_, s, power);
  buf_.clear();
  gen_.adjustment_orders(power, buf_);
  if (builds < 0) {
    // Disband the units farthest from any centre worth something (fleets first on ties:
    // armies hold the home centres).
    const auto key = [&](const Order& o) {
      return 2 * nearest_target(o.unit, o.location) + (o.unit == UnitType::kFleet);
    };
    // std::sort with a total order (stable_sort would allocate): ties by location.
    std::sort(buf_.begin(), buf_.end(), [&](const Order& a, const Order& b) {
      const int ka = key(a), kb = key(b);
      return ka != kb ? ka > kb : a.location < b.location;
    });
    for (int i = 0; i < -builds && i < static_cast<int>(buf_.size()); ++i) out.push_back(buf_[i]);
    return;
  }
  if (builds == 0) return;
  // In each free home centre the unit type (and coast) nearest to a centre worth taking;
  // an army on ties. Then the centres with the nearest targets first.
  struct Option {
    int dist;
    Order order;
  };
  std::array<Option, kMaxProvinces> options{};
  int no = 0;
  for (const Order& o : buf_) {
    if (o.type != OrderType::kBuild) continue;
    const ProvinceId h = map_.province_of(o.location);
    const int d = 2 * nearest_target(o.unit, o.location) + (o.unit == UnitType::kFleet);
    int k = 0;
    while (k < no && map_.province_of(options[k].order.location) != h) ++k;
    if (k == no)
      options[no++] = {d, o};
    else if (d < options[k].dist)
      options[k] = {d, o};
  }
  std::sort(options.begin(), options.begin() + no, [](const Option& a, const Option& b) {
    return a.dist != b.dist ? a.dist < b.dist : a.order.location < b.order.location;
  });
  int made = 0;
  for (; made < builds && made < no; ++made) out.push_back(options[made].order);
  Order w;
  w.type = OrderType::kWaive;
  for (; made < builds; ++made) out.push_back(w);
}

// --- registry

std::unique_ptr<Bot> make_bot(std::string_view name, const Map& map) {
  if (name == "random") return std::make_unique<RandomBot>(map);
  if (name == "heuristic") return std::make_unique<HeuristicBot>(map);
  return nullptr;
}

std::span<const std::string_view> bot_names() {
  static constexpr std::string_view kNames[] = {"random", "heuristic"};
  return kNames;
}

}  // namespace kibitz::diplomacy
