#include "games/diplomacy/candidates.hpp"

#include <algorithm>
#include <cmath>

namespace kibitz::diplomacy {

namespace {

bool is_move(const Order& o) { return o.type == OrderType::kMove; }

}  // namespace

bool CandidateGenerator::add_unique(OrderSet set, std::vector<OrderSet>& out) const {
  std::sort(set.begin(), set.end(),
            [&](const Order& a, const Order& b) { return a.location < b.location; });
  // Sets are kept in province order, so equal sets compare equal.
  if (std::find(out.begin(), out.end(), set) != out.end()) return false;
  out.push_back(std::move(set));
  return true;
}

bool CandidateGenerator::vary(const State& s, PowerId power, const OrderSet& base, Rng& rng,
                              OrderSet& out) {
  if (base.empty()) return false;
  const std::size_t i = rng.below(base.size());
  const Order old = base[i];
  const ProvinceId p = map_.province_of(old.location);
  // Provinces other own units are moving into, and those they stay in.
  ProvinceSet entered, staying;
  for (std::size_t k = 0; k < base.size(); ++k) {
    if (k == i) continue;
    if (is_move(base[k])) {
      entered.set(map_.province_of(base[k].target));
    } else {
      staying.set(map_.province_of(base[k].location));
    }
  }
  gen_.set_state(s);
  buf_.clear();
  gen_.unit_orders(p, buf_);
  const Unit& u = s.units[p];
  // Choices: a hold, a move to a neighbour no own unit enters or stays in, a support of an
  // own move of the plan.
  std::erase_if(buf_, [&](const Order& o) {
    if (o == old) return true;
    if (o.type == OrderType::kHold) return false;
    if (is_move(o)) {
      const ProvinceId t = map_.province_of(o.target);
      const bool adjacent = u.type == UnitType::kArmy ? map_.army_adjacent(p, t)
                                                      : map_.fleet_adjacent(u.location, o.target);
      return !adjacent || entered.test(t) || staying.test(t);
    }
    if (o.type == OrderType::kSupport && o.target != kNoLocation) {
      const ProvinceId q = map_.province_of(o.aux);
      for (std::size_t k = 0; k < base.size(); ++k)
        if (k != i && map_.province_of(base[k].location) == q && is_move(base[k]) &&
            map_.province_of(base[k].target) == map_.province_of(o.target))
          return s.units[q].power != power;
    }
    return true;
  });
  if (buf_.empty()) return false;
  const Order chosen = buf_[rng.below(buf_.size())];
  // A unit that no longer leaves p: an own move into p would now bounce off it.
  if (is_move(old) && !is_move(chosen) && entered.test(p)) return false;
  out = base;
  out[i] = chosen;
  out[i].power = old.power;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (k == i) continue;
    Order& o = out[k];
    const bool about_p = (o.type == OrderType::kSupport || o.type == OrderType::kConvoy) &&
                         o.aux < map_.num_locations() && map_.province_of(o.aux) == p;
    // Supports and convoys of the unit's old order no longer match: those units hold.
    if (about_p) {
      o.type = OrderType::kHold;
      o.aux_unit = UnitType::kNone;
      o.aux = o.target = kNoLocation;
    }
    // The unit was a convoying fleet: the army it carried would now have no route.
    if (old.type == OrderType::kConvoy &&
        map_.province_of(o.location) == map_.province_of(old.aux) && is_move(o) &&
        !map_.army_adjacent(map_.province_of(o.location), map_.province_of(o.target)))
      return false;
  }
  return true;
}

void CandidateGenerator::generate(const State& s, PowerId power, int count, Rng& rng,
                                  std::vector<OrderSet>& out) {
  out.clear();
  if (count <= 0 || count_units(map_, s, power) == 0) return;
  OrderSet set;
  planner_.set_noise(0);
  planner_.orders(s, power, rng, set);
  add_unique(set, out);
  const OrderSet base = out.front();
  // Perturbed plans, then one-unit variations; a bounded number of tries each.
  for (int t = 1; t <= 3 * count && static_cast<int>(out.size()) < (count + 1) / 2 + 1; ++t) {
    set.clear();
    planner_.set_noise(std::min(8, 1 + t / 2));
    planner_.orders(s, power, rng, set);
    add_unique(set, out);
  }
  planner_.set_noise(0);
  for (int t = 0; t < 6 * count && static_cast<int>(out.size()) < count; ++t)
    if (vary(s, power, base, rng, set)) add_unique(set, out);
}

double CandidateGenerator::policy_score(const State& s, PowerId power, const OrderSet& set,
                                        const PolicyHook& policy) {
  double sum = 0;
  for (const Order& o : set) sum += policy(s, power, o);
  return sum;
}

void CandidateGenerator::generate_neural(const State& s, PowerId power, int count,
                                         const PolicyHook& policy, Rng& rng,
                                         std::vector<OrderSet>& out) {
  constexpr std::size_t kPerUnit = 4;
  out.clear();
  if (count <= 0) return;
  gen_.set_state(s);
  struct Scored {
    Order order;
    double score;
  };
  std::vector<std::vector<Scored>> options;
  for (int p = 0; p < map_.num_provinces(); ++p) {
    if (s.units[p].power != power) continue;
    buf_.clear();
    gen_.unit_orders(static_cast<ProvinceId>(p), buf_);
    std::vector<Scored> scored;
    for (const Order& o : buf_) scored.push_back({o, policy(s, power, o)});
    std::stable_sort(scored.begin(), scored.end(),
                     [](const Scored& a, const Scored& b) { return a.score > b.score; });
    if (scored.size() > kPerUnit) scored.resize(kPerUnit);
    options.push_back(std::move(scored));
  }
  if (options.empty()) return;
  OrderSet set;
  for (int t = 0; t < 8 * count && static_cast<int>(out.size()) < count; ++t) {
    set.clear();
    for (const auto& opts : options) {
      std::size_t pick = 0;
      if (t > 0) {
        double total = 0;
        for (const auto& o : opts) total += std::exp(o.score - opts.front().score);
        double u = rng.uniform01() * total;
        for (pick = 0; pick + 1 < opts.size(); ++pick) {
          u -= std::exp(opts[pick].score - opts.front().score);
          if (u < 0) break;
        }
      }
      set.push_back(opts[pick].order);
    }
    ProvinceSet entered;
    bool bounce = false;
    for (const Order& o : set)
      if (is_move(o)) {
        const ProvinceId d = map_.province_of(o.target);
        bounce |= entered.test(d);
        entered.set(d);
      }
    if (!bounce) add_unique(set, out);
  }
}

}  // namespace kibitz::diplomacy
