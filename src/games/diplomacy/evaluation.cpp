#include "games/diplomacy/evaluation.hpp"

#include <algorithm>

namespace kibitz::diplomacy {

double Evaluator::heuristic(const State& s, PowerId power) {
  const int np = map_.num_provinces();
  std::array<int, kMaxPowers> centres{};
  for (int p = 0; p < np; ++p)
    if (map_.is_supply_centre(static_cast<ProvinceId>(p)) && s.owner[p] < map_.num_powers())
      ++centres[s.owner[p]];
  int units = 0;
  for (int p = 0; p < np; ++p) units += s.units[p].power == power;
  const int mine = centres[power];
  if (mine == 0 && units == 0) return w_.eliminated;
  if (2 * mine > map_.num_supply_centres()) return w_.solo + mine;
  int leader = 0;
  for (PowerId w = 0; w < map_.num_powers(); ++w)
    if (w != power) leader = std::max(leader, centres[w]);

  // Reach and threat need the phase's moves; outside a movement phase they are read as if
  // the units were to move now (the next movement phase is at most two phases away).
  gen_.set_state(s);
  ProvinceSet our_reach, their_reach;
  for (int p = 0; p < np; ++p) {
    const Unit& u = s.units[p];
    if (!u.exists()) continue;
    (u.power == power ? our_reach : their_reach) |= gen_.move_reach(static_cast<ProvinceId>(p));
  }
  int reachable = 0, threatened = 0;
  for (int p = 0; p < np; ++p) {
    if (!map_.is_supply_centre(static_cast<ProvinceId>(p))) continue;
    const Unit& there = s.units[p];
    if (s.owner[p] != power) {
      if (our_reach.test(p) && !(there.exists() && there.power != power)) ++reachable;
    } else if (their_reach.test(p) && there.power != power) {
      ++threatened;
    }
  }
  reachable = std::min(reachable, units);
  return w_.centre * mine + w_.unit * units + w_.reach * reachable - w_.threat * threatened -
         w_.leader * std::max(0, leader - mine);
}

double Evaluator::blended(const State& s, PowerId power, const ValueHook* value, double blend) {
  const double h = heuristic(s, power);
  if (value == nullptr || !*value || blend <= 0) return h;
  return (1 - blend) * h + blend * (*value)(s, power) * map_.num_supply_centres();
}

double Evaluator::cooperation_penalty(const State& s, PowerId power,
                                      std::span<const Order> orders) const {
  int helping = 0;
  for (const Order& o : orders) {
    if (o.type != OrderType::kSupport && o.type != OrderType::kConvoy) continue;
    if (o.aux >= map_.num_locations()) continue;
    const Unit& other = s.units[map_.province_of(o.aux)];
    helping += other.exists() && other.power != power;
  }
  return w_.cooperation * helping;
}

}  // namespace kibitz::diplomacy
